import StoreLedger

/// What a generator run wrote: counts of lines, events, faults and bytes.
package struct GeneratorStats: Sendable, Equatable {
  /// Distinct subjects with at least one line.
  package var subjects = 0
  /// Lines written, redeliveries included.
  package var lines = 0
  /// Distinct events (lines that are not redeliveries).
  package var events = 0
  /// Redelivered lines: an earlier line's id and fields again, possibly with another `recorded`.
  package var duplicates = 0
  /// Bytes written, newlines included.
  package var bytes = 0
  /// Distinct events learned at least a day after they took effect (`recorded` − `at` ≥ 1 day).
  package var lateKnowledge = 0
  /// Distinct events written after a line of the same subject with a later `at`.
  package var outOfOrder = 0
  /// Distinct events per type, indexed by `EventKind.rawValue`.
  package var eventsByKind = [Int](repeating: 0, count: EventKind.allCases.count)

  /// An empty tally.
  package init() {}

  /// Distinct events of `kind`.
  package func count(of kind: EventKind) -> Int { eventsByKind[Int(kind.rawValue)] }
}
