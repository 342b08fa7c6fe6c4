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
  /// Distinct `transfer` events (contract v1.3 §9; `EventKind` has no case for them yet).
  package var transfers = 0
  /// Distinct events per type, indexed by `EventKind.storageCode`; transfers are not among them.
  package var eventsByKind = [Int](repeating: 0, count: EventKind.allCases.count)

  /// An empty tally.
  package init() {}

  /// Distinct events of `kind`.
  package func count(of kind: EventKind) -> Int { eventsByKind[Int(kind.storageCode)] }

  /// Counts one written line of `bytes` bytes. `latestAt` holds, per subject of the batch (from
  /// `batchFirst`), the latest `at` written so far, `Int64.min` before its first line.
  mutating func count(
    _ event: GeneratedEvent, bytes written: Int, latestAt: inout [Int64], batchFirst: Int
  ) {
    lines += 1
    bytes += written
    if event.isRedelivery {
      duplicates += 1
      return
    }
    events += 1
    if event.isTransfer { transfers += 1 }
    eventsByKind[Int(event.kind.storageCode)] += 1
    if event.recordedAt != .min, event.recordedAt - event.at >= Span.day {
      lateKnowledge += 1
    }
    let slot = Int(event.subject) - batchFirst
    if latestAt[slot] == .min { subjects += 1 }
    if event.at < latestAt[slot] {
      outOfOrder += 1
    } else {
      latestAt[slot] = event.at
    }
  }
}
