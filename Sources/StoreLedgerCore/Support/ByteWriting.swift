/// Appends the decimal digits of `value` without creating a `String`.
@inline(__always)
package func appendInteger(_ value: Int64, to out: inout [UInt8]) {
  if value < 0 {
    out.append(45)
    if value == Int64.min {
      out.append(contentsOf: "9223372036854775808".utf8)
      return
    }
  }
  var magnitude = value < 0 ? UInt64(-value) : UInt64(value)
  var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  var count = 0
  withUnsafeMutableBytes(of: &digits) { buffer in
    repeat {
      buffer[19 - count] = UInt8(48 + magnitude % 10)
      magnitude /= 10
      count += 1
    } while magnitude > 0
    out.append(contentsOf: buffer[(20 - count)...])
  }
}

/// Appends the bytes of a static string.
@inline(__always)
package func appendStatic(_ text: StaticString, to out: inout [UInt8]) {
  out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
}

/// A string encoded once as a JSON string literal (quotes and escapes included).
package func jsonLiteral(_ text: String) -> [UInt8] {
  var out: [UInt8] = []
  JSONWriter.writeString(text, into: &out)
  return out
}
