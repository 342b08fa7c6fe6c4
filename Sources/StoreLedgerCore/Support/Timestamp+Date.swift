#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The clock and `Date` for library users. Projections never read the clock: only appends
// (through `LedgerClock`) and user input (`today`, `now`) do.

extension Timestamp {
  /// The wall clock, to the millisecond: `LedgerClock.system` and the CLI's `now`. Library users
  /// ask a `LedgerClock` (`.system.now()`), so a test's clock is the one they read.
  package static var now: Timestamp { Timestamp(Date()) }

  /// The instant of `date`, to the millisecond (rounded toward the past).
  public init(_ date: Date) {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    self.init(millisecondsSinceEpoch: Int64(max(min(milliseconds, 9e15), -9e15)))
  }

  /// The instant as a `Date`.
  public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1000) }

  /// Parses what a person types for an instant, as the CLI's `--at` does: RFC 3339 (with `T`
  /// or a space), a date `2026-03-05` (the start of that day), a date-time without offset
  /// (only with `utcOffsetMinutes`), and `now`, `today`, `yesterday` (only with `now`); dates
  /// and days are in `utcOffsetMinutes`' zone, UTC by default. Log lines use the strict
  /// `parseRFC3339` instead.
  /// - Returns: nil for anything else.
  public static func parseUserInput(_ text: String, utcOffsetMinutes: Int? = nil, now: Timestamp? = nil) -> Timestamp? {
    let input = TimeInput(now: now, utcOffsetMinutes: utcOffsetMinutes.map(Int64.init))
    guard case .success(let time) = input.parse(text) else { return nil }
    return time
  }
}
