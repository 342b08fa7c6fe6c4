import StoreLedgerCore

/// Reads a snapshot's binary restore section (`SnapshotSection`) in place, checking every count,
/// offset and index against the section's size, the string tables and the catalog.
struct SectionDecoder {
  let bytes: UnsafeRawBufferPointer
  let file: String
  let catalog: Catalog

  init(bytes: UnsafeRawBufferPointer, file: String, catalog: Catalog) {
    self.bytes = bytes
    self.file = file
    self.catalog = catalog
  }

  /// A bad-snapshot error naming the file and what was expected.
  func fail(_ detail: String) -> Diagnostic {
    RecordChecks.damaged(file: file, detail)
  }

  /// The little-endian integer at `offset`, which the caller has checked lies inside.
  @inline(__always)
  func load<T: FixedWidthInteger>(_ offset: Int, as _: T.Type) -> T {
    T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
  }

  /// Where the parts of the section lie, from its first bytes, checked against its size.
  struct Layout {
    var events: Int
    /// Strings in the subjects, ids, transactions and currencies tables.
    var counts: [Int]
    var recordsAt: Int
    var endsAt: Int
    var extrasAt: Int
    var extrasBytes: Int
    /// Each table's strings' ends and the strings themselves.
    var tables: [(name: String, endsAt: Int, arena: Range<Int>, lengthMax: Int)] = []
  }

  /// Reads and checks the section's layout: counts, sizes, and each table's ends.
  /// - Complexity: O(strings).
  func layout() throws(Diagnostic) -> Layout {
    guard bytes.count >= SnapshotSection.headerBytes,
      bytes[0..<SnapshotSection.magic.count].elementsEqual(SnapshotSection.magic)
    else { throw fail("it does not begin with the section's magic bytes") }
    let eventCount = load(8, as: UInt64.self)
    let counts = (0..<4).map { Int(load(16 + 4 * $0, as: UInt32.self)) }
    guard eventCount <= UInt64(Limits.linesMax), counts[0] <= Int(eventCount) else {
      throw fail("\(eventCount) events for \(counts[0]) subjects, expected at most \(Limits.linesMax) events and no subject without events")
    }
    let events = Int(eventCount)
    let extrasBytes = load(32, as: UInt64.self)
    let recordsAt = SnapshotSection.headerBytes
    let endsAt = recordsAt + events * RecordCoding.recordBytes
    let extrasAt = endsAt + counts[0] * SnapshotSection.subjectEndBytes
    guard extrasAt <= bytes.count, extrasBytes <= UInt64(bytes.count - extrasAt) else {
      throw fail("shorter than its \(events) records and \(extrasBytes) bytes of extras need")
    }
    var layout = Layout(
      events: events, counts: counts, recordsAt: recordsAt, endsAt: endsAt, extrasAt: extrasAt,
      extrasBytes: Int(extrasBytes))
    var at = extrasAt + Int(extrasBytes)
    let lengthLimits = [Limits.subjectLengthMax, Limits.idLengthMax, Limits.referenceBytesMax, Limits.referenceBytesMax]
    for (k, name) in ["subjects", "ids", "transactions", "currencies"].enumerated() {
      let tableAt = at
      let arena = try tableArena(name, count: counts[k], lengthMax: lengthLimits[k], at: &at)
      layout.tables.append((name, tableAt, arena, lengthLimits[k]))
    }
    guard at == bytes.count else { throw fail("\(bytes.count - at) bytes after the string tables, expected none") }
    return layout
  }

  /// Checks one string table's ends at `at` (each string 1 to `lengthMax` bytes, inside the
  /// section) and returns where its strings lie; `at` moves past the table.
  /// - Complexity: O(count).
  func tableArena(_ name: String, count: Int, lengthMax: Int, at: inout Int) throws(Diagnostic) -> Range<Int> {
    guard count <= (bytes.count - at) / 4 else { throw fail("table '\(name)' of \(count) strings runs past the end") }
    var previous = 0
    for k in 0..<count {
      let end = Int(load(at + 4 * k, as: UInt32.self))
      guard end > previous, end - previous <= lengthMax else {
        throw fail("string \(k) of table '\(name)' is \(end - previous) bytes, expected 1 to \(lengthMax)")
      }
      previous = end
    }
    at += 4 * count
    guard previous <= bytes.count - at else { throw fail("table '\(name)' runs past the end") }
    defer { at += previous }
    return at..<(at + previous)
  }

  /// The table whose ends start at `endsAt` and whose strings are `arena` (checked by `layout`).
  /// With `indexed`, its look-up slots are built with the check that no string appears twice
  /// (`SymbolTable.distinct`); without, it is `SymbolTable.unindexed` (slots built later by the
  /// first `intern`, if any), and no string twice is what the order check of the ids and the
  /// transactions shows (`firstOutOfOrder(endsAt:arena:in:)`; subjects and currencies are indexed).
  /// - Complexity: O(string bytes).
  func table(_ name: String, count: Int, endsAt: Int, arena: Range<Int>, indexed: Bool) throws(Diagnostic) -> SymbolTable {
    var starts = [UInt32](repeating: 0, count: count + 1)
    for k in 0..<count { starts[k + 1] = load(endsAt + 4 * k, as: UInt32.self) }
    let strings = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[arena]))
    guard indexed else { return SymbolTable.unindexed(arena: strings, starts: starts) }
    guard let table = SymbolTable.distinct(arena: strings, starts: starts) else { throw repeatedString(name) }
    return table
  }

  /// The refusal of a table holding one string twice.
  func repeatedString(_ table: String) -> Diagnostic {
    fail("a string appears twice in table '\(table)'")
  }

  /// Each subject's record end and extras end (offsets in the section), checked to grow and to
  /// stay inside the records and the extras.
  /// - Complexity: O(subjects).
  func subjectEnds(_ layout: Layout) throws(Diagnostic) -> [(records: Int, extras: Int)] {
    var ends: [(records: Int, extras: Int)] = []
    ends.reserveCapacity(layout.counts[0])
    var previous = (records: 0, extras: 0)
    for subject in 0..<layout.counts[0] {
      let at = layout.endsAt + SnapshotSection.subjectEndBytes * subject
      let end = Int(load(at, as: UInt32.self))
      let extrasEnd = load(at + 4, as: UInt64.self)
      guard end > previous.records, end <= layout.events, extrasEnd <= UInt64(layout.extrasBytes),
        Int(extrasEnd) >= previous.extras
      else {
        throw fail("subject \(subject) ends at record \(end) and extra byte \(extrasEnd), expected after \(previous.records) and at most \(layout.events), and after \(previous.extras) and at most \(layout.extrasBytes)")
      }
      previous = (end, Int(extrasEnd))
      ends.append(previous)
    }
    guard previous.records == layout.events, previous.extras == layout.extrasBytes else {
      throw fail("\(layout.events - previous.records) records or \(layout.extrasBytes - previous.extras) bytes of extras belong to no subject")
    }
    return ends
  }
}
