import StoreLedgerCore
import Dispatch

extension SectionDecoder {
  /// Parts the records are decoded in, concurrently with each other and with building the tables.
  static let recordParts = 2

  /// Decodes the whole section: the records are decoded and checked in `recordParts` runs of
  /// subjects, straight into the events array, while each string table is built by a task of its own.
  /// Without `indexStrings` (nothing will be interned: no tail), the ids and transactions tables
  /// get no look-up slots (`table(_:count:endsAt:arena:indexed:)`).
  /// - Complexity: O(section bytes).
  func decode(spareEvents: Int, indexStrings: Bool = true) throws(Diagnostic) -> RestoredSection {
    let layout = try layout()
    let ends = try subjectEnds(layout)
    let parts = partBounds(ends, events: layout.events)
    final class Outcome: @unchecked Sendable {
      var tables: [Result<SymbolTable, Diagnostic>]
      var parts: [Result<RecordChecks.Part, Diagnostic>]
      init(tables: Int, parts: Int) {
        let pending = Result<SymbolTable, Diagnostic>.failure(Diagnostic(.snapshotMismatch("not decoded")))
        self.tables = Array(repeating: pending, count: tables)
        self.parts = Array(repeating: .failure(Diagnostic(.snapshotMismatch("not decoded"))), count: parts)
      }
    }
    let outcome = Outcome(tables: layout.tables.count, parts: parts.count)
    // The section's bytes are only read, and each task writes its own results and events.
    nonisolated(unsafe) let checks = RecordChecks(section: bytes, file: file, catalog: catalog, counts: layout.counts)
    nonisolated(unsafe) let decoder = self
    var restored = RestoredSection()
    restored.events = [Event](unsafeUninitializedCapacity: layout.events + spareEvents) { buffer, initialized in
      // Written once from start to end: huge pages spare most of its page faults where the kernel allows.
      PageAdvice.preferHugePages(UnsafeMutableRawBufferPointer(buffer))
      nonisolated(unsafe) let out = buffer
      // Each part's task writes its own element through a pointer: assigning into the array from
      // several threads would be a race on the array itself (TSan reports it).
      outcome.parts.withUnsafeMutableBufferPointer { results in
        outcome.tables.withUnsafeMutableBufferPointer { tables in
          nonisolated(unsafe) let (results, tables) = (results, tables)
          // The records' parts first (the longest tasks), then one task per string table.
          DispatchQueue.concurrentPerform(iterations: parts.count + tables.count) { task in
            if task < parts.count {
              results[task] = Result { () throws(Diagnostic) in
                try checks.decode(
                  subjects: parts[task], ends: ends, recordsAt: layout.recordsAt, extrasAt: layout.extrasAt, into: out)
              }
            } else {
              let k = task - parts.count
              let table = layout.tables[k]
              tables[k] = Result { () throws(Diagnostic) in
                // Subjects and currencies are few, and the fold context looks currencies up.
                try decoder.table(
                  table.name, count: layout.counts[k], endsAt: table.endsAt, arena: table.arena,
                  indexed: indexStrings || table.name == "subjects" || table.name == "currencies")
              }
            }
          }
        }
      }
      // Events hold no references: a failed decode leaves nothing to deinitialize.
      initialized = outcome.parts.allSatisfy { (try? $0.get()) != nil } ? layout.events : 0
    }
    let tables = try outcome.tables.map { (result) throws(Diagnostic) in try result.get() }
    restored.symbols.subjects = tables[0]
    restored.symbols.ids = tables[1]
    restored.symbols.transactions = tables[2]
    restored.symbols.currencies = tables[3]
    restored.subjectStarts = [0] + ends.map { UInt32($0.records) }
    var details: [EventDetailTable] = []
    for result in outcome.parts {
      let part = try result.get()
      restored.subscriptionCounts.append(contentsOf: part.subscriptions)
      restored.latest = max(restored.latest, part.latest)
      details.append(part.details)
    }
    restored.details = EventDetailTable.merged(details)
    try checkDistinctIDs(restored.events, idCount: layout.counts[1])
    return restored
  }

  /// Runs of subjects with about equal numbers of records, one per part.
  func partBounds(_ ends: [(records: Int, extras: Int)], events: Int) -> [Range<Int>] {
    var bounds: [Range<Int>] = []
    var lower = 0
    for part in 1...Self.recordParts {
      let target = events / Self.recordParts * part
      var upper = lower
      while upper < ends.count && (part == Self.recordParts || ends[upper].records <= target) { upper += 1 }
      bounds.append(lower..<upper)
      lower = upper
    }
    return bounds.filter { !$0.isEmpty }
  }

  /// Refuses two events with one id: restoring indexes events by id.
  /// - Complexity: O(events + ids).
  func checkDistinctIDs(_ events: [Event], idCount: Int) throws(Diagnostic) {
    var seen = [Bool](repeating: false, count: idCount)
    for (index, event) in events.enumerated() {
      guard !seen[Int(event.id.rawValue)] else { throw fail("record \(index) repeats the id of an earlier record") }
      seen[Int(event.id.rawValue)] = true
    }
  }
}
