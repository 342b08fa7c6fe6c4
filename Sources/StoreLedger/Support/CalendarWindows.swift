/// The calendar windows (day, ISO week, month) that contain one instant, in a fixed local time.
///
/// Local time is UTC plus a fixed offset (a policy's `utc_offset`): windows begin at local
/// midnight, weeks on Monday. Starts are inclusive and ends exclusive, as UTC instants.
struct CalendarWindows: Sendable, Equatable {
  private static let dayMs: Int64 = 86_400_000
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

  /// Where `window` begins (`distantPast` for `ever`).
  func start(_ window: UsageWindow) -> Timestamp {
    switch window {
    case .day: return dayStart
    case .week: return weekStart
    case .month: return monthStart
    case .ever: return .distantPast
    }
  }

  /// Where `window` ends (exclusive); nil for `ever`.
  func end(_ window: UsageWindow) -> Timestamp? {
    switch window {
    case .day: return dayStart.adding(milliseconds: Self.dayMs)
    case .week: return weekStart.adding(milliseconds: 7 * Self.dayMs)
    case .month: return monthEnd
    case .ever: return nil
    }
  }
}
