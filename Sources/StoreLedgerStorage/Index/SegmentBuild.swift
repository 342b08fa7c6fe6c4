import StoreLedgerCore

/// Turns events (with where their lines are) into a segment file, and merges two segments.
enum SegmentBuild {
  /// Writes a segment for the events of one log range.
  ///
  /// `events` may be in any order and hold several lines of one event (redeliveries): every
  /// event gets a record under its subject, an id entry, and a charge entry when it is a
  /// purchase or renewal. `subjects` holds each event's subject; `record` says where an event's line is.
  /// - Complexity: O(n log n) for n events; memory O(n).
  static func write(
    path: String, range: Range<Int64>, firstLine: Int64, lineCount: Int64,
    events: [Event], subjects: [Symbol], symbols: LedgerSymbols, record: (Event) -> LineRecord
  ) throws(Diagnostic) -> SegmentHeader {
    precondition(subjects.count == events.count, "a subject per event")
    let subjectCount = symbols.subjects.count
    var subjectPrints = [UInt64](repeating: 0, count: subjectCount)
    for s in 0..<subjectCount {
      subjectPrints[s] = symbols.subjects.withBytes(Symbol(rawValue: UInt32(s))) { IndexHash.fingerprint($0) }
    }
    // Id fingerprints by symbol, in one pass: ids may be spans of the log, read back in log order
    // rather than one read per event in subject order.
    var idPrints = [UInt64](repeating: 0, count: symbols.ids.count)
    if let failure = symbols.ids.forEachString({ idPrints[$0] = IndexHash.fingerprint($1) }) { throw failure }
    // Events grouped by subject (counting sort of their indices).
    var starts = [Int](repeating: 0, count: subjectCount + 1)
    for subject in subjects { starts[Int(subject.rawValue) + 1] += 1 }
    for s in 0..<subjectCount { starts[s + 1] += starts[s] }
    var next = starts
    var grouped = [Int32](repeating: 0, count: events.count)
    var ids: [KeyEntry] = []
    var charges: [KeyEntry] = []
    ids.reserveCapacity(events.count)
    for (index, event) in events.enumerated() {
      let s = Int(subjects[index].rawValue)
      grouped[next[s]] = Int32(index)
      next[s] += 1
      let subject = subjectPrints[s]
      ids.append(KeyEntry(key: idPrints[Int(event.id.rawValue)], subject: subject))
      if event.kind.isCharge {
        charges.append(KeyEntry(key: symbols.transactions.withBytes(event.transaction) { IndexHash.fingerprint($0) }, subject: subject))
      }
      if event.kind == .transfer {
        // Both ways, so a reader finds a subject's whole group from any member, even one without lines.
        let recipient = symbols.transactions.withBytes(event.transferRecipient) { IndexHash.fingerprint($0) }
        charges.append(KeyEntry(key: IndexHash.groupKey(ofSubject: subject), subject: recipient))
        charges.append(KeyEntry(key: IndexHash.groupKey(ofSubject: recipient), subject: subject))
      }
    }
    var order = (0..<subjectCount).filter { starts[$0 + 1] > starts[$0] }
    func name(_ s: Int) -> [UInt8] { symbols.subjects.withBytes(Symbol(rawValue: UInt32(s))) { Array($0) } }
    order.sort { a, b in
      subjectPrints[a] != subjectPrints[b]
        ? subjectPrints[a] < subjectPrints[b] : name(a).lexicographicallyPrecedes(name(b))
    }
    let writer = try SegmentWriter(path: path)
    for s in order {
      var records = grouped[starts[s]..<starts[s + 1]].map { record(events[Int($0)]) }
      records.sort { $0.line < $1.line }
      try writer.addSubject(fingerprint: subjectPrints[s], name: name(s), records: records)
    }
    ids.sort()
    charges.sort()
    for entry in ids { try writer.addID(entry) }
    for entry in charges { try writer.addCharge(entry) }
    return try writer.finish(rangeStart: range.lowerBound, rangeEnd: range.upperBound, firstLine: firstLine, lineCount: lineCount)
  }

  /// Writes one segment covering `older` then `newer` (adjacent ranges), reading both in order.
  /// - Complexity: O(size of both); memory O(subjects) for the subject table.
  static func merge(_ older: SegmentFile, _ newer: SegmentFile, into path: String) throws -> SegmentHeader {
    guard older.header.rangeEnd == newer.header.rangeStart,
      older.header.firstLine + older.header.lineCount == newer.header.firstLine
    else { throw IndexDamage("segments \(older.path) and \(newer.path) are not adjacent") }
    let writer = try SegmentWriter(path: path)
    let a = EntryCursor(older, .subjects)
    let b = EntryCursor(newer, .subjects)
    while let key = [try a.peek()?.key, try b.peek()?.key].compactMap({ $0 }).min() {
      var byName: [[UInt8]: [LineRecord]] = [:]
      for cursor in [a, b] {
        while let entry = try cursor.peek(), entry.key == key {
          guard entry.subject <= UInt64(Int64.max) else { throw IndexDamage("segment \(cursor.segment.path): a block offset out of range") }
          let block = try cursor.segment.block(at: Int64(entry.subject))
          byName[block.name, default: []].append(contentsOf: block.records)
          try cursor.advance()
        }
      }
      for name in byName.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        try writer.addSubject(fingerprint: key, name: name, records: byName[name]!)
      }
    }
    for (table, add) in [(SegmentFile.Table.ids, writer.addID), (.charges, writer.addCharge)] {
      let x = EntryCursor(older, table)
      let y = EntryCursor(newer, table)
      while true {
        let (p, q) = (try x.peek(), try y.peek())
        guard p != nil || q != nil else { break }
        if let p, q == nil || !(q! < p) {
          try add(p)
          try x.advance()
        } else if let q {
          try add(q)
          try y.advance()
        }
      }
    }
    return try writer.finish(
      rangeStart: older.header.rangeStart, rangeEnd: newer.header.rangeEnd, firstLine: older.header.firstLine,
      lineCount: older.header.lineCount + newer.header.lineCount)
  }
}

/// Reads a segment's table in order, a batch of entries at a time.
final class EntryCursor {
  let segment: SegmentFile
  private let table: SegmentFile.Table
  private var index: Int64 = 0
  private var batch: [KeyEntry] = []
  private var position = 0
  private var last: KeyEntry? = nil
  private static let batchEntries: Int64 = 4096

  init(_ segment: SegmentFile, _ table: SegmentFile.Table) {
    self.segment = segment
    self.table = table
  }

  /// The current entry; nil at the end.
  func peek() throws(IndexDamage) -> KeyEntry? {
    if position < batch.count { return batch[position] }
    let count = segment.count(of: table)
    guard index < count else { return nil }
    let take = min(Self.batchEntries, count - index)
    batch = try segment.entries(table, from: index, count: Int(take))
    index += take
    position = 0
    return batch.first
  }

  /// Moves past the current entry (checking the order as it goes).
  func advance() throws(IndexDamage) {
    let current = batch[position]
    if let last, current.key < last.key { throw IndexDamage("segment \(segment.path): a table out of order") }
    last = current
    position += 1
  }
}
