/// An ISO 8601 duration such as `P1M`, `P2W`, `PT48H` or `P1MT12H`.
///
/// Months and years are calendar arithmetic in UTC, clamped to the end of a
/// shorter month (Jan 31 + P1M = Feb 28 or 29); days and weeks are exact
/// multiples of 24 hours because UTC has no daylight saving.
package struct ISODuration: Hashable, Sendable, CustomStringConvertible {
  /// Calendar years.
  package var years: Int64
  /// Calendar months.
  package var months: Int64
  /// Days, including weeks × 7.
  package var days: Int64
  /// The time part in milliseconds.
  package var timeMilliseconds: Int64
  /// The text the duration was parsed from.
  package let description: String

  /// What every duration must be besides well formed: `P9999Y11M30D` is accepted, `P10000Y` is not.
  package static let lengthLimitDescription = "shorter than 10000 years"

  /// An upper bound of the duration's length in milliseconds from any start (a year counted as
  /// 366 days, a month as 31): a cheap test that an addition stays far from the end of time.
  /// Durations are shorter than 10,000 years (the parser's limit), so this cannot overflow.
  package var upperBoundMilliseconds: Int64 {
    ((years * 366 + months * 31 + days) * 86_400_000) + timeMilliseconds
  }

  /// Parses an ISO 8601 duration; returns nil when malformed, zero, or not shorter than 10,000
  /// years (its end from 0000-01-01T00:00:00Z must be a time the log can hold, so no addition
  /// to a time of the log can overflow; Docs/log-format.md).
  package init?(_ text: String) {
    var years: Int64 = 0
    var months: Int64 = 0
    var days: Int64 = 0
    var timeMs: Int64 = 0
    var sawComponent = false
    var inTime = false
    var value: Int64? = nil
    var chars = Array(text.utf8)[...]
    guard chars.first == UInt8(ascii: "P") else { return nil }
    chars = chars.dropFirst()
    var sawDesignators: Set<UInt8> = []
    for c in chars {
      if c >= 48 && c <= 57 {
        let current = value ?? 0
        guard current < 100_000_000 else { return nil }
        value = current * 10 + Int64(c - 48)
        continue
      }
      if c == UInt8(ascii: "T") {
        guard !inTime, value == nil else { return nil }
        inTime = true
        continue
      }
      guard let amount = value else { return nil }
      let key = inTime ? c &+ 128 : c
      guard !sawDesignators.contains(key) else { return nil }
      sawDesignators.insert(key)
      switch (inTime, c) {
      case (false, UInt8(ascii: "Y")): years = amount
      case (false, UInt8(ascii: "M")): months = amount
      case (false, UInt8(ascii: "W")): days += amount * 7
      case (false, UInt8(ascii: "D")): days += amount
      case (true, UInt8(ascii: "H")): timeMs += amount * 3_600_000
      case (true, UInt8(ascii: "M")): timeMs += amount * 60_000
      case (true, UInt8(ascii: "S")): timeMs += amount * 1000
      default: return nil
      }
      sawComponent = true
      value = nil
    }
    guard sawComponent, value == nil, !(inTime && !sawDesignators.contains(where: { $0 >= 128 }))
    else { return nil }
    guard years + months + days + timeMs > 0 else { return nil }
    self.years = years
    self.months = months
    self.days = days
    self.timeMilliseconds = timeMs
    self.description = text
    // Coarse bounds first (each a little over 10,000 years), so the exact check below cannot overflow.
    guard years <= 10_000, months <= 120_000, days <= 3_660_000, timeMs <= 3_660_000 * 86_400_000 else { return nil }
    let earliest = Timestamp(millisecondsSinceEpoch: Timestamp.earliestMilliseconds)
    guard added(to: earliest).millisecondsSinceEpoch <= Timestamp.latestMilliseconds else { return nil }
  }

  /// The instant this duration after `start`: years and months first (clamped), then days and time.
  ///
  /// Exact for a `start` the log can hold (years 0000–9999): the result is then below year
  /// 20000, far inside `Int64`, and callers that keep it check it against
  /// `Timestamp.latestMilliseconds`. A later `start` (the `distantFuture` sentinel, "never")
  /// stays where it is, and an earlier one too: nothing overflows.
  package func added(to start: Timestamp) -> Timestamp {
    let ms = start.millisecondsSinceEpoch
    guard ms >= Timestamp.earliestMilliseconds && ms <= Timestamp.latestMilliseconds else { return start }
    var dayNumber = floorDivide(ms, 86_400_000)
    let msOfDay = ms - dayNumber * 86_400_000
    if years != 0 || months != 0 {
      var civil = CivilDate(daysSinceEpoch: dayNumber)
      let monthIndex = civil.year * 12 + (civil.month - 1) + years * 12 + months
      civil.year = floorDivide(monthIndex, 12)
      civil.month = monthIndex - civil.year * 12 + 1
      civil.day = min(civil.day, CivilDate.daysInMonth(year: civil.year, month: civil.month))
      dayNumber = civil.daysSinceEpoch
    }
    dayNumber += days
    return Timestamp(millisecondsSinceEpoch: dayNumber * 86_400_000 + msOfDay + timeMilliseconds)
  }
}
