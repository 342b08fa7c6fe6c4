/// Byte-level JSON scanning shared by the strict log parser and `JSONValue`.
package enum JSONScan {
  /// A scanning failure at a byte offset.
  package struct Failure: Error {
    package var offset: Int
    package var detail: String
  }

  /// The end of a number and whether it is written as an integer.
  package struct NumberScan {
    package var end: Int
    package var isInteger: Bool
  }

  /// Scans an RFC 8259 number starting at `start`; nil if malformed.
  @inline(__always)
  package static func number(_ p: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> NumberScan? {
    var i = start
    @inline(__always) func isDigit(_ k: Int) -> Bool { k < end && p[k] &- 48 < 10 }
    if i < end && p[i] == 45 { i += 1 }
    guard isDigit(i) else { return nil }
    if p[i] == 48 {
      i += 1
    } else {
      while isDigit(i) { i += 1 }
    }
    var isInteger = true
    if i < end && p[i] == 46 {
      i += 1
      guard isDigit(i) else { return nil }
      while isDigit(i) { i += 1 }
      isInteger = false
    }
    if i < end && (p[i] == 101 || p[i] == 69) {
      i += 1
      if i < end && (p[i] == 43 || p[i] == 45) { i += 1 }
      guard isDigit(i) else { return nil }
      while isDigit(i) { i += 1 }
      isInteger = false
    }
    return NumberScan(end: i, isInteger: isInteger)
  }

  /// Decodes a string body that starts after its opening quote, appending UTF-8 to `out`.
  ///
  /// Validates escapes (including surrogate pairs) and UTF-8, and rejects raw
  /// control characters. Returns the offset just past the closing quote.
  package static func string(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, into out: inout [UInt8]
  ) -> Result<Int, Failure> {
    var i = start
    while i < end {
      let c = p[i]
      if c == 34 { return .success(i + 1) }
      if c == 92 {
        guard i + 1 < end else { break }
        let e = p[i + 1]
        switch e {
        case 34, 92, 47: out.append(e)
        case 98: out.append(8)
        case 102: out.append(12)
        case 110: out.append(10)
        case 114: out.append(13)
        case 116: out.append(9)
        case 117:
          guard let high = hex4(p, i + 2, end) else {
            return .failure(Failure(offset: i, detail: "invalid \\u escape"))
          }
          var scalar = high
          var consumed = 6
          if high >= 0xD800 && high <= 0xDBFF {
            guard i + 8 < end, p[i + 6] == 92, p[i + 7] == 117,
              let low = hex4(p, i + 8, end), low >= 0xDC00 && low <= 0xDFFF
            else {
              return .failure(Failure(offset: i, detail: "unpaired surrogate in \\u escape"))
            }
            scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            consumed = 12
          } else if high >= 0xDC00 && high <= 0xDFFF {
            return .failure(Failure(offset: i, detail: "unpaired surrogate in \\u escape"))
          }
          appendUTF8(scalar, to: &out)
          i += consumed
          continue
        default:
          return .failure(Failure(offset: i, detail: "invalid escape '\\\(Unicode.Scalar(e))'"))
        }
        i += 2
        continue
      }
      if c < 0x20 {
        return .failure(Failure(offset: i, detail: "control character in string (must be escaped)"))
      }
      if c < 0x80 {
        out.append(c)
        i += 1
        continue
      }
      guard let length = utf8SequenceLength(p, i, end) else {
        return .failure(Failure(offset: i, detail: "invalid UTF-8"))
      }
      for k in 0..<length { out.append(p[i + k]) }
      i += length
    }
    return .failure(Failure(offset: end, detail: "unterminated string"))
  }

  @inline(__always)
  static func hex4(_ p: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int) -> UInt32? {
    guard at + 4 <= end else { return nil }
    var value: UInt32 = 0
    for k in 0..<4 {
      let c = p[at + k]
      let digit: UInt32
      switch c {
      case 48...57: digit = UInt32(c - 48)
      case 65...70: digit = UInt32(c - 55)
      case 97...102: digit = UInt32(c - 87)
      default: return nil
      }
      value = value << 4 | digit
    }
    return value
  }

  /// The length of a valid UTF-8 sequence starting at `i` (no overlongs, no surrogates).
  @inline(__always)
  static func utf8SequenceLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
    let c = p[i]
    @inline(__always) func cont(_ k: Int) -> Bool { i + k < end && p[i + k] & 0xC0 == 0x80 }
    switch c {
    case 0xC2...0xDF:
      return cont(1) ? 2 : nil
    case 0xE0:
      return cont(1) && p[i + 1] >= 0xA0 && cont(2) ? 3 : nil
    case 0xED:
      return cont(1) && p[i + 1] < 0xA0 && cont(2) ? 3 : nil
    case 0xE1...0xEC, 0xEE...0xEF:
      return cont(1) && cont(2) ? 3 : nil
    case 0xF0:
      return cont(1) && p[i + 1] >= 0x90 && cont(2) && cont(3) ? 4 : nil
    case 0xF1...0xF3:
      return cont(1) && cont(2) && cont(3) ? 4 : nil
    case 0xF4:
      return cont(1) && p[i + 1] < 0x90 && cont(2) && cont(3) ? 4 : nil
    default:
      return nil
    }
  }

  static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      out.append(UInt8(scalar))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | scalar >> 6))
      out.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | scalar >> 12))
      out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      out.append(UInt8(0x80 | scalar & 0x3F))
    default:
      out.append(UInt8(0xF0 | scalar >> 18))
      out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      out.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}
