extension Timestamp {
  /// Parses an RFC 3339 timestamp with an optional fraction of at most 3 digits.
  ///
  /// Accepts `2026-03-01T12:00:00Z`, `2026-03-01T12:00:00.250Z` and
  /// `2026-03-01T14:00:00+02:00`; returns nil for anything else, including
  /// impossible dates (`2026-02-30`) and leap seconds (`:60`), which a
  /// millisecond clock cannot represent. Parsed arithmetically: no formatter.
  package static func parseRFC3339(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    var dayCache = RFC3339DayCache()
    return parseRFC3339(bytes, dayCache: &dayCache)
  }

  /// Parses an RFC 3339 timestamp like `parseRFC3339(_:)`, reusing the day count of the
  /// previous call when the date (the first ten bytes) is the same.
  package static func parseRFC3339(
    _ bytes: UnsafeBufferPointer<UInt8>, dayCache: inout RFC3339DayCache
  ) -> Timestamp? {
    let n = bytes.count
    guard n >= 20, let p = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(p)
    let dateHead = raw.loadUnaligned(as: UInt64.self)
    let dateTail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
    let days: Int64
    if dayCache.isFilled && dateHead == dayCache.dateHead && dateTail == dayCache.dateTail {
      days = dayCache.days
    } else {
      guard let year = p.decimal(0, 4), p[4] == 45, let month = p.decimal(5, 2), p[7] == 45,
        let day = p.decimal(8, 2), month >= 1, month <= 12, day >= 1,
        day <= CivilDate.daysInMonth(year: year, month: month)
      else { return nil }
      days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
      dayCache = RFC3339DayCache(dateHead: dateHead, dateTail: dateTail, days: days)
    }
    guard p[10] == 84 || p[10] == 116,
      let hour = p.decimal(11, 2), p[13] == 58, let minute = p.decimal(14, 2), p[16] == 58,
      let second = p.decimal(17, 2), hour <= 23, minute <= 59, second <= 59
    else { return nil }
    var i = 19
    var millis: Int64 = 0
    if p[i] == 46 {  // '.'
      i += 1
      var digits = 0
      while i < n, let d = p.decimalDigit(i) {
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
      guard n - i == 6, let offsetHour = p.decimal(i + 1, 2), p[i + 3] == 58,
        let offsetMinute = p.decimal(i + 4, 2), offsetHour <= 23, offsetMinute <= 59
      else { return nil }
      offsetMinutes = offsetHour * 60 + offsetMinute
      if p[i] == 45 { offsetMinutes = -offsetMinutes }
      i += 6
    default:
      return nil
    }
    guard i == n else { return nil }
    let secondsOfDay = hour * 3600 + minute * 60 + second - offsetMinutes * 60
    let milliseconds = (days * 86_400 + secondsOfDay) * 1000 + millis
    // An offset can carry 0000-01-01 or 9999-12-31 outside the years the tool prints and reads back.
    guard milliseconds >= Timestamp.earliestMilliseconds, milliseconds <= Timestamp.latestMilliseconds else {
      return nil
    }
    return Timestamp(millisecondsSinceEpoch: milliseconds)
  }

  /// 0000-01-01T00:00:00Z: the earliest instant accepted (printed as a four-digit year).
  package static let earliestMilliseconds: Int64 = -62_167_219_200_000
  /// 9999-12-31T23:59:59.999Z: the latest instant accepted.
  package static let latestMilliseconds: Int64 = 253_402_300_799_999
  /// 9999-12-31T23:59:59.999Z: the latest instant a log, an option or an answer can hold.
  package static let latest = Timestamp(millisecondsSinceEpoch: latestMilliseconds)
  /// Whether the instant is one the tool prints as a four-digit year and reads back (0000–9999).
  package var isReadable: Bool {
    millisecondsSinceEpoch >= Timestamp.earliestMilliseconds && millisecondsSinceEpoch <= Timestamp.latestMilliseconds
  }

  /// Parses an RFC 3339 timestamp from a string.
  public static func parseRFC3339(_ text: String) -> Timestamp? {
    var text = text
    return text.withUTF8 { parseRFC3339($0) }
  }

  /// Parses `YYYY-MM-DD` as the start of that day in UTC (for `--at 2026-03-05`).
  package static func parseDay(_ text: String) -> Timestamp? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10 else { return nil }
    let padded = bytes + Array("T00:00:00Z".utf8)
    return padded.withUnsafeBufferPointer { parseRFC3339($0) }
  }
}

/// What a person may type for an instant (`--at`, `--as-of`, audit query lines): more forms
/// than the log's strict RFC 3339, resolved against an explicit clock and UTC offset.
package struct TimeInput: Sendable {
  /// Why a typed instant was refused.
  package enum Problem: Error, Sendable, Equatable {
    /// A date-time without `Z` or `±HH:MM`, and no `--tz` to say which zone it is in.
    case missingOffset
    /// `now`, `today` or `yesterday` where no clock was given.
    case relativeWithoutClock
    /// Not a form we know.
    case unknownForm
    /// A well-formed time that `--tz` (or `today` in it) carries outside 0000-01-01…9999-12-31 UTC.
    case outOfRange
  }

  /// The times every option and answer can hold, for messages.
  package static let rangeDescription = "a time from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z in UTC"

  /// The clock for `now`, `today` and `yesterday`; nil refuses them.
  package var now: Timestamp?
  /// The UTC offset of dates and date-times written without one (`--tz`); nil: dates are UTC
  /// days and date-times must carry an offset.
  package var utcOffsetMinutes: Int64?

  /// Creates a context.
  package init(now: Timestamp? = nil, utcOffsetMinutes: Int64? = nil) {
    self.now = now
    self.utcOffsetMinutes = utcOffsetMinutes
  }

  /// The forms, for messages.
  package static let formsDescription =
    "an RFC 3339 time such as 2026-03-05T12:00:00Z or 2026-03-05 12:00:00+02:00, a date such as 2026-03-05, now, today or yesterday"

  /// Parses `text`: RFC 3339 (with `T` or a space), `YYYY-MM-DD` (the start of that day in the
  /// `--tz` zone, UTC by default), `YYYY-MM-DD[T ]HH:MM[:SS[.mmm]]` without offset (only with
  /// `--tz`), and `now`, `today`, `yesterday` (days start at midnight in the same zone).
  package func parse(_ text: String) -> Result<Timestamp, Problem> {
    // An offset moves a time by up to a day: it can leave the years the tool prints and reads back.
    parseUnchecked(text).flatMap { $0.isReadable ? .success($0) : .failure(.outOfRange) }
  }

  private func parseUnchecked(_ text: String) -> Result<Timestamp, Problem> {
    let trimmed = text.trimmingWhitespace()
    let offsetMs = (utcOffsetMinutes ?? 0) * 60_000
    switch trimmed.lowercased() {
    case "now", "today", "yesterday":
      guard let now else { return .failure(.relativeWithoutClock) }
      if trimmed.lowercased() == "now" { return .success(now) }
      let local = now.millisecondsSinceEpoch + offsetMs
      let dayStart = local - ((local % 86_400_000) + 86_400_000) % 86_400_000 - offsetMs
      return .success(Timestamp(millisecondsSinceEpoch: dayStart - (trimmed.lowercased() == "yesterday" ? 86_400_000 : 0)))
    default:
      break
    }
    var bytes = Array(trimmed.utf8)
    if bytes.count > 10 && bytes[10] == 32 { bytes[10] = 84 }  // "2026-03-05 12:00:00Z"
    let text = String(decoding: bytes, as: UTF8.self)
    if let exact = Timestamp.parseRFC3339(text) { return .success(exact) }
    if let day = Timestamp.parseDay(text) {
      return .success(Timestamp(millisecondsSinceEpoch: day.millisecondsSinceEpoch - offsetMs))
    }
    // A date-time without an offset: 16 characters (HH:MM) or more (seconds, fraction).
    guard bytes.count >= 16, bytes[10] == 84 else { return .failure(.unknownForm) }
    let withSeconds = bytes.count == 16 ? text + ":00" : text
    guard let local = Timestamp.parseRFC3339(withSeconds + "Z") else { return .failure(.unknownForm) }
    guard let utcOffsetMinutes else { return .failure(.missingOffset) }
    return .success(Timestamp(millisecondsSinceEpoch: local.millisecondsSinceEpoch - utcOffsetMinutes * 60_000))
  }

  /// Parses a `--tz` value: `Z`, `UTC` or `±HH:MM`; nil for anything else.
  package static func utcOffsetMinutes(_ text: String) -> Int64? {
    let text = text.trimmingWhitespace()
    if text == "Z" || text == "z" || text.uppercased() == "UTC" { return 0 }
    let bytes = Array(text.utf8)
    guard bytes.count == 6, bytes[0] == 43 || bytes[0] == 45, bytes[3] == 58,
      let hours = Int64(String(decoding: bytes[1..<3], as: UTF8.self)),
      let minutes = Int64(String(decoding: bytes[4..<6], as: UTF8.self)),
      hours <= 23, minutes <= 59, bytes[1...2].allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    let total = hours * 60 + minutes
    return bytes[0] == 45 ? -total : total
  }
}

/// The date of the last timestamp a parser read and its day count: the lines of a log come
/// mostly in time order, so most timestamps repeat the previous one's date.
package struct RFC3339DayCache {
  /// Bytes 0..<8 of the date (`YYYY-MM-`), as loaded.
  var dateHead: UInt64 = 0
  /// Bytes 8..<10 of the date (`DD`), as loaded.
  var dateTail: UInt16 = 0
  /// Days since 1970-01-01; `Int64.min` while empty.
  var days = Int64.min

  /// An empty cache.
  package init() {}

  init(dateHead: UInt64, dateTail: UInt16, days: Int64) {
    self.dateHead = dateHead
    self.dateTail = dateTail
    self.days = days
  }

  /// Whether a date is cached.
  var isFilled: Bool { days != Int64.min }
}

extension UnsafePointer<UInt8> {
  /// The value of the ASCII digit at offset `i`, or nil when it is not one.
  @inline(__always)
  fileprivate func decimalDigit(_ i: Int) -> Int64? {
    let d = self[i] &- 48
    return d < 10 ? Int64(d) : nil
  }

  /// The value of the `width` ASCII digits from offset `i`, or nil when one is not a digit.
  @inline(__always)
  fileprivate func decimal(_ i: Int, _ width: Int) -> Int64? {
    var value: Int64 = 0
    for k in 0..<width {
      guard let d = decimalDigit(i + k) else { return nil }
      value = value * 10 + d
    }
    return value
  }
}
