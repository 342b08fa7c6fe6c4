/// A JSON number's exact decimal value in canonical form: its significant digits, without
/// leading or trailing zeros, scaled by a power of ten. `1`, `1.0` and `10e-1` are one value;
/// `12345678901234567890` and `12345678901234567891`, or `1e400` and `2e999`, are not, though
/// each pair is one `Double`.
struct ExactDecimal: Equatable {
  /// Whether the value is below zero (never for zero).
  var isNegative: Bool
  /// The significant digits as ASCII, none for zero.
  var digits: [UInt8]
  /// The value is `digits × 10^exponent`.
  var exponent: Int64

  /// Reads the text of a JSON number that `JSONScan.number` accepted; nil when its exponent is
  /// beyond 64 bits, which `hash` then keys on the text itself.
  /// - Complexity: O(text.count).
  init?(jsonNumber text: UnsafeBufferPointer<UInt8>) {
    var i = 0
    let negative = text.first == UInt8(ascii: "-")
    if negative { i += 1 }
    var digits: [UInt8] = []
    var scale: Int64 = 0
    var inFraction = false
    while i < text.count, text[i] != UInt8(ascii: "e"), text[i] != UInt8(ascii: "E") {
      if text[i] == UInt8(ascii: ".") {
        inFraction = true
      } else {
        if !(digits.isEmpty && text[i] == UInt8(ascii: "0")) { digits.append(text[i]) }
        // Bounded by the line's length, far below 2^63.
        if inFraction { scale -= 1 }
      }
      i += 1
    }
    var written: Int64 = 0
    if i < text.count {
      i += 1
      let negativeExponent = text[i] == UInt8(ascii: "-")
      if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { i += 1 }
      while i < text.count {
        let (times, o1) = written.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times.addingReportingOverflow(Int64(text[i] &- 48))
        guard !o1, !o2 else { return nil }
        written = sum
        i += 1
      }
      if negativeExponent { written = -written }
    }
    var trailing: Int64 = 0
    while digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      trailing += 1
    }
    let (shifted, o1) = written.addingReportingOverflow(scale)
    let (exponent, o2) = shifted.addingReportingOverflow(trailing)
    guard !o1, !o2 else { return nil }
    self.isNegative = negative && !digits.isEmpty
    self.digits = digits
    self.exponent = digits.isEmpty ? 0 : exponent
  }
}
