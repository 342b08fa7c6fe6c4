import Foundation

/// Number formatting without locale surprises.
enum Format {
  /// 1234567 → "1,234,567".
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return (value < 0 ? "-" : "") + out
  }

  static func fixed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
  }

  /// A per-second rate as a grouped integer.
  static func rate(_ count: Int, _ seconds: Double) -> String {
    seconds > 0 ? grouped(Int((Double(count) / seconds).rounded())) : "∞"
  }

  /// Bytes as decimal megabytes (10^6), the unit of every MB and MB/s in the report.
  static func mb(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, 1) + " MB" }

  static func seconds(_ value: Double) -> String { fixed(value, 3) + " s" }

  /// "2.10× faster than" or "1.30× slower than" (time `seconds` against `reference`).
  static func compare(_ seconds: Double, to reference: Double) -> String {
    seconds <= reference
      ? times(reference / seconds) + " faster than" : times(seconds / reference) + " slower than"
  }

  /// A ratio such as "41.3×".
  static func times(_ value: Double) -> String {
    value >= 100 ? fixed(value, 0) + "×" : value >= 10 ? fixed(value, 1) + "×" : fixed(value, 2) + "×"
  }
}

/// A table printed both as aligned text and as Markdown.
struct Table {
  var header: [String]
  var rows: [[String]] = []

  init(_ header: String...) { self.header = header }

  mutating func add(_ cells: String...) { rows.append(cells) }

  var text: String {
    var widths = header.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { index, cell in
        index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
      }.joined(separator: "  ")
    }
    var out = line(header) + "\n"
    out += line(widths.map { String(repeating: "-", count: $0) }) + "\n"
    for row in rows { out += line(row) + "\n" }
    return out
  }

  var markdown: String {
    func line(_ cells: [String]) -> String {
      "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }
    var out = line(header) + "\n"
    out += "|" + header.map { _ in " --- |" }.joined() + "\n"
    for row in rows { out += line(row) + "\n" }
    return out
  }
}
