import Foundation
import StoreLedgerTestSupport

/// A body between braces that the tidy checks measure: a function, initializer, subscript or
/// computed property.
struct FunctionBody: Equatable {
  /// The file's path relative to the package root.
  let path: String
  /// `func name`, `init`, `subscript`, `deinit` or `var name`, as the allow-list names it.
  let name: String
  /// The line of its keyword (1-based).
  let line: Int
  /// Lines from its keyword to its closing brace, both included.
  let lines: Int

  /// How the allow-list names it: `path: name`.
  var key: String { "\(path): \(name)" }
}

extension SwiftSource {
  /// Classifies a brace's header the way `fnlen.py` does.
  private enum Header {
    nonisolated(unsafe) static let function = try! Regex(#"\b(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b"#)
    nonisolated(unsafe) static let type = try! Regex(#"\b(struct|class|enum|extension|protocol|actor)\b[^{}()]*$"#)
    nonisolated(unsafe) static let accessor = try! Regex(#"\b(get|set|willSet|didSet|_read|_modify)\s*$"#)
    nonisolated(unsafe) static let control = try! Regex(#"\b(if|else|for|while|guard|switch|repeat|do|catch|defer|case|default)\b[^{}]*$"#)
    nonisolated(unsafe) static let computed = try! Regex(#"\b(var|let)\s+(\w+)\s*:"#)
    nonisolated(unsafe) static let continued = try! Regex(#"[=(,]\s*$"#)
    nonisolated(unsafe) static let assigned = try! Regex(#"=\s*$"#)
    nonisolated(unsafe) static let openTail = try! Regex(#"[(,=:]\s*$|\bin\b"#)
  }

  /// The functions, initializers, subscripts and computed properties, with their lengths.
  /// - Complexity: O(bytes of the file + headers × regex).
  var bodies: [FunctionBody] {
    var stack: [(name: String?, line: Int)] = []
    var found: [FunctionBody] = []
    var line = 1
    var headerStart = 0
    for (offset, byte) in code.enumerated() {
      switch byte {
      case UInt8(ascii: "\n"):
        line += 1
      case UInt8(ascii: "{"):
        let raw = String(decoding: code[headerStart..<offset], as: UTF8.self)
        stack.append(Self.classify(raw, closingLine: line))
        headerStart = offset + 1
      case UInt8(ascii: "}"):
        if let (name, start) = stack.popLast(), let name {
          found.append(FunctionBody(path: path, name: name, line: start, lines: line - start + 1))
        }
        headerStart = offset + 1
      case UInt8(ascii: ";"):
        headerStart = offset + 1
      default:
        break
      }
    }
    return found
  }

  /// The name and first line of a body whose header is `raw` (nil for types, control flow,
  /// accessors and closures, which are not measured on their own).
  private static func classify(_ raw: String, closingLine: Int) -> (name: String?, line: Int) {
    let header = raw.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
    let functions = header.matches(of: Header.function)
    func lineOf(_ keyword: String) -> Int {
      guard let position = raw.range(of: keyword, options: .backwards) else { return closingLine }
      return closingLine - raw[position.lowerBound...].filter { $0 == "\n" }.count
    }
    if header.contains(Header.type) && functions.isEmpty { return (nil, closingLine) }
    if let last = functions.last, !header.contains(Header.continued) {
      let name = String(header[last.range]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
      return (name, lineOf(String(name.split(separator: " ")[0])))
    }
    if header.contains(Header.accessor) { return (nil, closingLine) }
    let tail = String(header.suffix(3))
    if header.contains(Header.control) && !tail.contains(Header.openTail) {
      return (nil, closingLine)
    }
    if let property = header.firstMatch(of: Header.computed), !header.contains(Header.assigned) {
      let name = "var " + String(header[property.range].split(whereSeparator: { $0 == " " || $0 == ":" })[1])
      return (name, lineOf("var "))
    }
    return (nil, closingLine)
  }
}
