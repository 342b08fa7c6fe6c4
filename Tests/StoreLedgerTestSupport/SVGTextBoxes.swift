import Foundation

@testable import StoreLedgerReport

/// The text boxes of an SVG's labels, estimated as the timeline lays them out.
package func svgTextBoxes(_ svg: String) -> [(text: String, left: Double, top: Double, right: Double, bottom: Double)] {
  var boxes: [(String, Double, Double, Double, Double)] = []
  var rest = svg[...]
  while let open = rest.range(of: "<text ") {
    guard let close = rest[open.upperBound...].range(of: ">"), let end = rest[close.upperBound...].range(of: "</text>") else { break }
    let attributes = String(rest[open.upperBound..<close.lowerBound])
    func attribute(_ name: String) -> String? {
      guard let start = attributes.range(of: name + "=\"") else { return nil }
      return String(attributes[start.upperBound...].prefix { $0 != "\"" })
    }
    let text = String(rest[close.upperBound..<end.lowerBound])
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
    let box = LabelBoxes.box(
      text, x: Double(attribute("x") ?? "0") ?? 0, y: Double(attribute("y") ?? "0") ?? 0, anchor: attribute("text-anchor") ?? "start")
    boxes.append((text, box.left, box.top, box.right, box.bottom))
    rest = rest[end.upperBound...]
  }
  return boxes
}
