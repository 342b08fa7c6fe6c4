/// Writes JSON deterministically: object keys sorted, fixed spacing, no trailing zeros.
///
/// Byte-stable output is what makes golden files and `diff` of snapshots readable.
package enum JSONWriter {
  /// One line, keys sorted, `{"a":1,"b":[true,null]}`.
  package static func compact(_ value: JSONValue) -> String {
    var out: [UInt8] = []
    write(value, into: &out, indent: nil, level: 0)
    return String(decoding: out, as: UTF8.self)
  }

  /// Pretty-printed with two-space indentation and sorted keys, ending without a newline.
  package static func pretty(_ value: JSONValue) -> String {
    var out: [UInt8] = []
    write(value, into: &out, indent: 2, level: 0)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `value` to `out`; `indent` nil means compact.
  package static func write(_ value: JSONValue, into out: inout [UInt8], indent: Int?, level: Int) {
    switch value {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
    case .integer(let number): out.append(contentsOf: String(number).utf8)
    case .number(let number):
      if number.isFinite, abs(number) < 1e15, number == Double(Int64(number)) {
        out.append(contentsOf: String(Int64(number)).utf8)
      } else {
        out.append(contentsOf: "\(number)".utf8)
      }
    case .string(let text): writeString(text, into: &out)
    case .array(let items):
      if items.isEmpty {
        out.append(contentsOf: "[]".utf8)
        return
      }
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(&out, indent, level + 1)
        write(item, into: &out, indent: indent, level: level + 1)
      }
      newline(&out, indent, level)
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      if members.isEmpty {
        out.append(contentsOf: "{}".utf8)
        return
      }
      out.append(UInt8(ascii: "{"))
      for (index, member) in members.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
        .enumerated()
      {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(&out, indent, level + 1)
        writeString(member.0, into: &out)
        out.append(UInt8(ascii: ":"))
        if indent != nil { out.append(UInt8(ascii: " ")) }
        write(member.1, into: &out, indent: indent, level: level + 1)
      }
      newline(&out, indent, level)
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func newline(_ out: inout [UInt8], _ indent: Int?, _ level: Int) {
    guard let indent else { return }
    out.append(10)
    for _ in 0..<(indent * level) { out.append(32) }
  }

  /// Appends a JSON string literal with the minimal escapes.
  package static func writeString(_ text: String, into out: inout [UInt8]) {
    out.append(34)
    for byte in text.utf8 {
      switch byte {
      case 34: out.append(contentsOf: [92, 34])
      case 92: out.append(contentsOf: [92, 92])
      case 10: out.append(contentsOf: [92, 110])
      case 13: out.append(contentsOf: [92, 114])
      case 9: out.append(contentsOf: [92, 116])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
      default: out.append(byte)
      }
    }
    out.append(34)
  }
}
