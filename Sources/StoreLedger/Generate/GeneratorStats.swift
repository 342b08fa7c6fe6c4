/// What a generator run wrote: counts of lines, events, faults and bytes.
public struct GeneratorStats: Sendable, Equatable {
  /// Distinct subjects with at least one line.
  public var subjects = 0
  /// Lines written, redeliveries included.
  public var lines = 0
  /// Distinct events (lines that are not redeliveries).
  public var events = 0
  /// Redelivered lines: an earlier line's id and fields again, possibly with another `recorded`.
  public var duplicates = 0
  /// Bytes written, newlines included.
  public var bytes = 0
  /// Distinct events learned at least a day after they took effect (`recorded` − `at` ≥ 1 day).
  public var lateKnowledge = 0
  /// Distinct events written after a line of the same subject with a later `at`.
  public var outOfOrder = 0
  /// Distinct events per type, indexed by `EventKind.rawValue`.
  public var eventsByKind = [Int](repeating: 0, count: EventKind.allCases.count)

  /// An empty tally.
  public init() {}

  /// Distinct events of `kind`.
  public func count(of kind: EventKind) -> Int { eventsByKind[Int(kind.rawValue)] }
}
