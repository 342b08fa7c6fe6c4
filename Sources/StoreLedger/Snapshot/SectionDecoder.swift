import StoreLedgerCore

/// Reads a snapshot's binary restore section (`SnapshotSection`) in place, checking every count,
/// offset and index against the section's size, the string tables and the catalog.
struct SectionDecoder {
  let bytes: UnsafeRawBufferPointer
  let file: String
  let catalog: Catalog
  /// Told of section ranges this decoder is done with (see `SnapshotReader.read`).
  var release: ((Range<Int>) -> Void)? = nil

  init(bytes: UnsafeRawBufferPointer, file: String, catalog: Catalog) {
    self.bytes = bytes
    self.file = file
    self.catalog = catalog
  }

  /// A bad-snapshot error naming the file and what was expected.
  func fail(_ detail: String) -> Diagnostic {
    Diagnostic(file: file, .snapshotMismatch("not a valid snapshot: restore section: \(detail)"))
  }

  /// The little-endian integer at `offset`, which the caller has checked lies inside.
  @inline(__always)
  func load<T: FixedWidthInteger>(_ offset: Int, as _: T.Type) -> T {
    T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
  }

  /// Decodes the whole section.
  /// - Complexity: O(section bytes).
  func decode(spareEvents: Int) throws(Diagnostic) -> RestoredSection {
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
    var at = extrasAt + Int(extrasBytes)
    var restored = RestoredSection()
    let lengthLimits = [Limits.subjectLengthMax, Limits.idLengthMax, Limits.referenceBytesMax, Limits.referenceBytesMax]
    var tables: [SymbolTable] = []
    for (k, name) in ["subjects", "ids", "transactions", "currencies"].enumerated() {
      tables.append(try table(name, count: counts[k], lengthMax: lengthLimits[k], at: &at))
    }
    guard at == bytes.count else { throw fail("\(bytes.count - at) bytes after the string tables, expected none") }
    restored.symbols.subjects = tables[0]
    restored.symbols.ids = tables[1]
    restored.symbols.transactions = tables[2]
    restored.symbols.currencies = tables[3]
    restored.events.reserveCapacity(events + spareEvents)
    restored.subjectStarts.reserveCapacity(counts[0] + 1)
    restored.subscriptionCounts.reserveCapacity(counts[0])
    var records = RecordChecks(decoder: self, counts: counts, policyFeatures: catalog.policy?.features.count ?? 0)
    var extras = extrasAt
    var releasedUpTo = 0
    for subject in 0..<counts[0] {
      let end = Int(load(endsAt + SnapshotSection.subjectEndBytes * subject, as: UInt32.self))
      let extrasEnd = load(endsAt + SnapshotSection.subjectEndBytes * subject + 4, as: UInt64.self)
      guard end > restored.events.count, end <= events, extrasEnd <= extrasBytes, Int(extrasEnd) + extrasAt >= extras else {
        throw fail("subject \(subject) ends at record \(end) and extra byte \(extrasEnd), expected after \(restored.events.count) and at most \(events), and after \(extras - extrasAt) and at most \(extrasBytes)")
      }
      try records.subject(
        Symbol(rawValue: UInt32(subject)), recordsAt: recordsAt, end: end, extras: &extras,
        extrasEnd: extrasAt + Int(extrasEnd), into: &restored)
      let done = recordsAt + end * RecordCoding.recordBytes
      if let release, done - releasedUpTo >= SnapshotTrailer.digestStepBytes {
        release(releasedUpTo..<done)
        releasedUpTo = done
      }
    }
    guard restored.events.count == events, extras == extrasAt + Int(extrasBytes) else {
      throw fail("\(events - restored.events.count) records or \(extrasAt + Int(extrasBytes) - extras) bytes of extras belong to no subject")
    }
    return restored
  }

  /// One string table at `at`: `count` ends, then the strings; each 1 to `lengthMax` bytes, all distinct.
  /// - Complexity: O(count + string bytes).
  func table(_ name: String, count: Int, lengthMax: Int, at: inout Int) throws(Diagnostic) -> SymbolTable {
    guard count <= (bytes.count - at) / 4 else { throw fail("table '\(name)' of \(count) strings runs past the end") }
    var starts = [UInt32](repeating: 0, count: count + 1)
    var previous = 0
    for k in 0..<count {
      let end = Int(load(at + 4 * k, as: UInt32.self))
      guard end > previous, end - previous <= lengthMax else {
        throw fail("string \(k) of table '\(name)' is \(end - previous) bytes, expected 1 to \(lengthMax)")
      }
      starts[k + 1] = UInt32(end)
      previous = end
    }
    at += 4 * count
    guard previous <= bytes.count - at else { throw fail("table '\(name)' runs past the end") }
    let arena = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[at..<(at + previous)]))
    at += previous
    guard let table = SymbolTable.distinct(arena: arena, starts: starts) else {
      throw fail("a string appears twice in table '\(name)'")
    }
    return table
  }
}
