/// The calendar windows (day, ISO week, month) that contain one instant, in a fixed local time.
///
/// Local time is UTC plus a fixed offset (a policy's `utc_offset`): windows begin at local
/// midnight, weeks on Monday. Starts are inclusive and ends exclusive, as UTC instants.
package struct CalendarWindows: Sendable, Equatable {
  /// Milliseconds in a day.
  static let dayMs: Int64 = 86_400_000
  private(set) var dayStart: Timestamp
  private(set) var weekStart: Timestamp
  private(set) var monthStart: Timestamp
  private(set) var monthEnd: Timestamp

  /// The windows containing `time` with local time `offsetMs` east of UTC.
  init(containing time: Timestamp, offsetMs: Int64) {
    let day = Self.dayMs
    let localDay = floorDivide(time.millisecondsSinceEpoch + offsetMs, day)
    // 1970-01-01 was a Thursday: (days + 3) mod 7 is 0 on Mondays.
    let weekday = localDay - floorDivide(localDay + 3, 7) * 7 + 3
    let civil = CivilDate(daysSinceEpoch: localDay)
    let firstOfMonth = CivilDate(year: civil.year, month: civil.month, day: 1).daysSinceEpoch
    let nextMonth =
      civil.month == 12
      ? CivilDate(year: civil.year + 1, month: 1, day: 1) : CivilDate(year: civil.year, month: civil.month + 1, day: 1)
    func instant(_ localDayNumber: Int64) -> Timestamp {
      Timestamp(millisecondsSinceEpoch: localDayNumber * day - offsetMs)
    }
    dayStart = instant(localDay)
    weekStart = instant(localDay - weekday)
    monthStart = instant(firstOfMonth)
    monthEnd = instant(nextMonth.daysSinceEpoch)
  }
}
