extension Timestamp {
  /// Parses an RFC 3339 timestamp with an optional fraction of at most 3 digits.
  ///
  /// Accepts `2026-03-01T12:00:00Z`, `2026-03-01T12:00:00.250Z` and
  /// `2026-03-01T14:00:00+02:00`; returns nil for anything else, including
  /// impossible dates (`2026-02-30`) and leap seconds (`:60`), which a
  /// millisecond clock cannot represent. Parsed arithmetically: no formatter.
  public static func parseRFC3339(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    let n = bytes.count
    guard n >= 20, let p = bytes.baseAddress else { return nil }
    @inline(__always) func digit(_ i: Int) -> Int64? {
      let d = p[i] &- 48
      return d < 10 ? Int64(d) : nil
    }
    @inline(__always) func number(_ i: Int, _ width: Int) -> Int64? {
      var value: Int64 = 0
      for k in 0..<width {
        guard let d = digit(i + k) else { return nil }
        value = value * 10 + d
      }
      return value
    }
    guard let year = number(0, 4), p[4] == 45, let month = number(5, 2), p[7] == 45,
      let day = number(8, 2), p[10] == 84 || p[10] == 116,
      let hour = number(11, 2), p[13] == 58, let minute = number(14, 2), p[16] == 58,
      let second = number(17, 2)
    else { return nil }
    guard month >= 1, month <= 12, day >= 1,
      day <= CivilDate.daysInMonth(year: year, month: month),
      hour <= 23, minute <= 59, second <= 59
    else { return nil }
    var i = 19
    var millis: Int64 = 0
    if p[i] == 46 {  // '.'
      i += 1
      var digits = 0
      while i < n, let d = digit(i) {
        guard digits < 3 else { return nil }
        millis = millis * 10 + d
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<3 { millis *= 10 }
    }
    guard i < n else { return nil }
    var offsetMinutes: Int64 = 0
    switch p[i] {
    case 90, 122:  // 'Z', 'z'
      i += 1
    case 43, 45:  // '+', '-'
      guard n - i == 6, let offsetHour = number(i + 1, 2), p[i + 3] == 58,
        let offsetMinute = number(i + 4, 2), offsetHour <= 23, offsetMinute <= 59
      else { return nil }
      offsetMinutes = offsetHour * 60 + offsetMinute
      if p[i] == 45 { offsetMinutes = -offsetMinutes }
      i += 6
    default:
      return nil
    }
    guard i == n else { return nil }
    let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
    let secondsOfDay = hour * 3600 + minute * 60 + second - offsetMinutes * 60
    let milliseconds = (days * 86_400 + secondsOfDay) * 1000 + millis
    // An offset can carry 0000-01-01 or 9999-12-31 outside the years the tool prints and reads back.
    guard milliseconds >= Timestamp.earliestMilliseconds, milliseconds <= Timestamp.latestMilliseconds else {
      return nil
    }
    return Timestamp(millisecondsSinceEpoch: milliseconds)
  }

  /// 0000-01-01T00:00:00Z: the earliest instant accepted (printed as a four-digit year).
  static let earliestMilliseconds: Int64 = -62_167_219_200_000
  /// 9999-12-31T23:59:59.999Z: the latest instant accepted.
  static let latestMilliseconds: Int64 = 253_402_300_799_999

  /// Parses an RFC 3339 timestamp from a string.
  public static func parseRFC3339(_ text: String) -> Timestamp? {
    var text = text
    return text.withUTF8 { parseRFC3339($0) }
  }

  /// Parses `YYYY-MM-DD` as the start of that day in UTC (for `--at 2026-03-05`).
  public static func parseDay(_ text: String) -> Timestamp? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10 else { return nil }
    let padded = bytes + Array("T00:00:00Z".utf8)
    return padded.withUnsafeBufferPointer { parseRFC3339($0) }
  }
}
