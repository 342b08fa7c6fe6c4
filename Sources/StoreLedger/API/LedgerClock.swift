import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// Where appends get the time they stamp as `recorded` on events without one: the wall
/// clock by default, a fixed or stepping clock in tests. Answers never read it.
public struct LedgerClock: Sendable {
  private let read: @Sendable () -> Timestamp

  /// A clock reading `now` each time an append needs the time.
  public init(_ now: @escaping @Sendable () -> Timestamp) { read = now }

  /// The wall clock, to the millisecond (`system.now()` is what a library user asks for the time).
  public static let system = LedgerClock { Timestamp.now }

  /// A clock that always reads `time`.
  public static func fixed(_ time: Timestamp) -> LedgerClock { LedgerClock { time } }

  /// The current time by this clock.
  public func now() -> Timestamp { read() }
}
