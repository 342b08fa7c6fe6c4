import StoreLedgerCore
import Dispatch

extension SectionDecoder {
  /// Parts the records are decoded in, concurrently with each other and with building the tables.
  static let recordParts = 8

  /// Ranges each of the ids' and transactions' tables is checked in, concurrently.
  static let orderParts = 2

  /// Decodes the whole section: the records are decoded and checked in `recordParts` runs of
  /// subjects, straight into the events array, while each string table is built by a task of its
  /// own and tasks of their own check, `orderParts` ranges per table, that the ids and the
  /// transactions are in `TableOrder` (so neither holds a string twice). Without `indexStrings`
  /// (nothing will be interned: no tail), those two tables get no look-up slots
  /// (`table(_:count:endsAt:arena:indexed:)`).
  /// - Complexity: O(section bytes).
  func decode(spareEvents: Int, indexStrings: Bool = true) throws(Diagnostic) -> RestoredSection {
    let layout = try layout()
    let ends = try subjectEnds(layout)
    let parts = partBounds(ends, events: layout.events)
    // Subjects and currencies are few, and the fold context looks currencies up.
    let indexed = layout.tables.map { indexStrings || $0.name == "subjects" || $0.name == "currencies" }
    let checked = [1, 2].flatMap { table in
      Self.ranges(count: layout.counts[table], parts: Self.orderParts).map { (table: table, range: $0) }
    }
    let outcome = DecodeOutcome(tables: layout.tables.count, parts: parts.count, checks: checked.count)
    // The section's bytes are only read, and each task writes its own results and events.
    nonisolated(unsafe) let checks = RecordChecks(section: bytes, file: file, catalog: catalog, counts: layout.counts)
    nonisolated(unsafe) let decoder = self
    var restored = RestoredSection()
    restored.events = [Event](unsafeUninitializedCapacity: layout.events + spareEvents) { buffer, initialized in
      // Not on huge pages: written once from start to end, so the TLB gains nothing, and where
      // free memory is handed back to a hypervisor in 2 MiB blocks (free page reporting, as on
      // this project's CI machines) a fresh huge page costs about 4x the first touch of 4 KiB
      // pages (Docs/performance.md, "Fresh memory on a VM that reports free pages").
      nonisolated(unsafe) let out = buffer
      // Each task writes its own element through a pointer: assigning into the arrays from
      // several threads would be a race on the arrays themselves (TSan reports it).
      outcome.parts.withUnsafeMutableBufferPointer { results in
        outcome.tables.withUnsafeMutableBufferPointer { tables in
          outcome.outOfOrder.withUnsafeMutableBufferPointer { outOfOrder in
            nonisolated(unsafe) let (results, tables, outOfOrder) = (results, tables, outOfOrder)
            // The longest tasks first: the records' parts, the tables (the ids' and transactions'
            // a copy each), then the order checks, two ranges a table.
            DispatchQueue.concurrentPerform(iterations: parts.count + tables.count + checked.count) { task in
              if task < parts.count {
                results[task] = Result { () throws(Diagnostic) in
                  try checks.decode(
                    subjects: parts[task], ends: ends, recordsAt: layout.recordsAt, extrasAt: layout.extrasAt, into: out)
                }
              } else if task < parts.count + tables.count {
                let k = task - parts.count
                let table = layout.tables[k]
                tables[k] = Result { () throws(Diagnostic) in
                  try decoder.table(
                    table.name, count: layout.counts[k], endsAt: table.endsAt, arena: table.arena, indexed: indexed[k])
                }
              } else {
                let check = task - parts.count - tables.count
                let (k, range) = checked[check]
                let table = layout.tables[k]
                outOfOrder[check] = decoder.firstOutOfOrder(endsAt: table.endsAt, arena: table.arena, in: range)
              }
            }
          }
        }
      }
      // Events hold no references: a failed decode leaves nothing to deinitialize.
      initialized = outcome.parts.allSatisfy { (try? $0.get()) != nil } ? layout.events : 0
    }
    for (check, found) in zip(checked, outcome.outOfOrder) {
      if let found { throw outOfOrder(layout.tables[check.table].name, at: found) }
    }
    let tables = try outcome.tables.map { (result) throws(Diagnostic) in try result.get() }
    try assemble(&restored, tables: tables, parts: outcome.parts, ends: ends, idCount: layout.counts[1])
    return restored
  }

  /// Puts the decoded tables and runs of records together, refusing an id held by two runs.
  /// - Complexity: O(subjects + ids / 64), and O(events + ids) when two runs share an id.
  func assemble(
    _ restored: inout RestoredSection, tables: [SymbolTable], parts: [Result<RecordChecks.Part, Diagnostic>],
    ends: [(records: Int, extras: Int)], idCount: Int
  ) throws(Diagnostic) {
    restored.symbols.subjects = tables[0]
    restored.symbols.ids = tables[1]
    restored.symbols.transactions = tables[2]
    restored.symbols.currencies = tables[3]
    restored.subjectStarts = [0] + ends.map { UInt32($0.records) }
    var details: [EventDetailTable] = []
    var idsSeen = [UInt64](repeating: 0, count: (idCount + 63) / 64)
    for result in parts {
      let part = try result.get()
      // Each run refused its own repeats; one id in two runs is found here, its record by the slow pass.
      if zip(idsSeen, part.idsSeen).contains(where: { $0 & $1 != 0 }) {
        try checkDistinctIDs(restored.events, idCount: idCount)
      }
      for k in idsSeen.indices { idsSeen[k] |= part.idsSeen[k] }
      restored.subscriptionCounts.append(contentsOf: part.subscriptions)
      restored.transferSubjects.append(contentsOf: part.transferSubjects)
      restored.latest = max(restored.latest, part.latest)
      details.append(part.details)
    }
    restored.details = EventDetailTable.merged(details)
  }

  /// `count` split into `parts` ranges of about equal size, in order (none empty).
  static func ranges(count: Int, parts: Int) -> [Range<Int>] {
    (0..<parts).map { (count * $0 / parts)..<(count * ($0 + 1) / parts) }.filter { !$0.isEmpty }
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

  /// Refuses two events with one id, naming the later one's record (restoring indexes events by
  /// id): the slow pass, run only once two runs of records were found to share an id.
  /// - Complexity: O(events + ids).
  func checkDistinctIDs(_ events: [Event], idCount: Int) throws(Diagnostic) {
    var seen = [Bool](repeating: false, count: idCount)
    for (index, event) in events.enumerated() {
      guard !seen[Int(event.id.rawValue)] else { throw fail("record \(index) repeats the id of an earlier record") }
      seen[Int(event.id.rawValue)] = true
    }
  }
}

/// What the decode tasks leave, each task in an element of its own.
private final class DecodeOutcome: @unchecked Sendable {
  var tables: [Result<SymbolTable, Diagnostic>]
  var parts: [Result<RecordChecks.Part, Diagnostic>]
  /// Per order check, the first string of its range out of order, if any.
  var outOfOrder: [Int?]

  init(tables: Int, parts: Int, checks: Int) {
    let pending = Result<SymbolTable, Diagnostic>.failure(Diagnostic(.snapshotMismatch("not decoded")))
    self.tables = Array(repeating: pending, count: tables)
    self.parts = Array(repeating: .failure(Diagnostic(.snapshotMismatch("not decoded"))), count: parts)
    outOfOrder = Array(repeating: 0, count: checks)
  }
}
