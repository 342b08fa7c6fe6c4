/// Standard base64 (RFC 4648, padded): snapshots' state lines and Google Play's documents.
package enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Appends the base64 of `bytes` to `out`.
  /// - Complexity: O(bytes).
  package static func encode(_ bytes: [UInt8], into out: inout [UInt8]) {
    var i = 0
    while i + 3 <= bytes.count {
      let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out.append(alphabet[Int(v >> 18)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(alphabet[Int(v >> 6 & 63)])
      out.append(alphabet[Int(v & 63)])
      i += 3
    }
    let rest = bytes.count - i
    if rest > 0 {
      let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
      out.append(alphabet[Int(v >> 18)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(rest == 2 ? alphabet[Int(v >> 6 & 63)] : 61)
      out.append(61)
    }
  }

  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 255, count: 256)
    for (index, c) in alphabet.enumerated() { table[Int(c)] = UInt8(index) }
    return table
  }()

  /// Decodes into `out`; false on a character outside the alphabet or bad padding.
  package static func decode(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
    guard text.count % 4 == 0 else { return false }
    guard text.count > 0 else { return true }
    var padding = 0
    if text[text.count - 1] == 61 { padding += 1 }
    if text[text.count - 2] == 61 { padding += 1 }
    let length = text.count / 4 * 3 - padding
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: length))
    return values.withUnsafeBufferPointer { table in
      out.withUnsafeMutableBufferPointer { output in
        var o = start
        var i = 0
        let fullGroups = text.count / 4 - (padding > 0 ? 1 : 0)
        for _ in 0..<fullGroups {
          let a = UInt32(table[Int(text[i])])
          let b = UInt32(table[Int(text[i + 1])])
          let c = UInt32(table[Int(text[i + 2])])
          let d = UInt32(table[Int(text[i + 3])])
          // Any 255 (not in the alphabet) sets bit 7 of one of them.
          guard (a | b | c | d) & 0x80 == 0 else { return false }
          let v = a << 18 | b << 12 | c << 6 | d
          output[o] = UInt8(truncatingIfNeeded: v >> 16)
          output[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
          output[o + 2] = UInt8(truncatingIfNeeded: v)
          o += 3
          i += 4
        }
        if padding > 0 {
          let a = UInt32(table[Int(text[i])])
          let b = UInt32(table[Int(text[i + 1])])
          let c = padding == 1 ? UInt32(table[Int(text[i + 2])]) : 0
          guard (a | b | c) & 0x80 == 0 else { return false }
          let v = a << 18 | b << 12 | c << 6
          output[o] = UInt8(truncatingIfNeeded: v >> 16)
          if padding == 1 { output[o + 1] = UInt8(truncatingIfNeeded: v >> 8) }
        }
        return true
      }
    }
  }
}
