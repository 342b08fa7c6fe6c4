/// A policy's usage windows (`Catalog/`) on the calendar windows of an instant (`Support/`).
extension CalendarWindows {
  /// Where `window` begins (`distantPast` for `ever`).
  package func start(_ window: UsageWindow) -> Timestamp {
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
