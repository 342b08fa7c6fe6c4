import StoreLedgerCore

/// Writes one segment file: a temporary beside the target, renamed over it when complete
/// (`PendingFile`), so a crash leaves no segment or a whole one.
///
/// Subjects go in first, in (fingerprint, name) order, each with its records in line order;
/// then the event-id entries and the charge entries, each sorted. Data is streamed to the file
/// page by page as it comes, with each page's checksum kept (8 bytes a page); the checksum
/// pages, the top table and the header are written last.
final class SegmentWriter {
  private let pending: PendingFile
  /// Bytes not yet written: whole pages (checksummed) from the start, then the page being filled.
  private var out: [UInt8] = []
  /// Where in `out` the page being filled starts.
  private var pageStart = 0
  private var pageChecksums: [UInt64] = []
  private var dataBytes: Int64 = 0
  private var subjectTable: [KeyEntry] = []
  private var lastSubject: (fingerprint: UInt64, name: [UInt8])? = nil
  private var recordCount: Int64 = 0
  private var idsOffset: Int64? = nil
  private var idCount: Int64 = 0
  private var chargesOffset: Int64? = nil
  private var chargeCount: Int64 = 0
  private var lastEntry: KeyEntry? = nil
  /// Bytes gathered before one write call.
  private static let flushBytes = 1 << 20

  /// Creates the temporary file for a segment at `path`.
  init(path: String) throws(Diagnostic) {
    pending = try PendingFile(replacing: path, force: true)
    try pending.file.seek(to: Int64(SegmentFormat.pageBytes))
    out.reserveCapacity(Self.flushBytes + (1 << 16))
  }

  /// Adds one subject's block: its name and its lines, in line order.
  /// - Precondition: subjects come in ascending (fingerprint, name) order, before any entry.
  func addSubject(fingerprint: UInt64, name: [UInt8], records: [LineRecord]) throws(Diagnostic) {
    precondition(idsOffset == nil, "subjects come before entries")
    if let last = lastSubject {
      precondition(
        last.fingerprint < fingerprint || (last.fingerprint == fingerprint && last.name.lexicographicallyPrecedes(name)),
        "subjects in (fingerprint, name) order")
    }
    precondition(name.count <= SegmentFormat.nameBytesMax && !records.isEmpty)
    lastSubject = (fingerprint, name)
    subjectTable.append(KeyEntry(key: fingerprint, subject: UInt64(dataBytes)))
    let before = out.count
    out.appendHalfWord(UInt32(name.count))
    out.appendHalfWord(UInt32(records.count))
    out.append(contentsOf: name)
    while (out.count - before) % 8 != 0 { out.append(0) }
    for record in records {
      out.appendWord(UInt64(record.offset))
      out.appendHalfWord(record.line)
      out.appendHalfWord(record.length)
    }
    recordCount += Int64(records.count)
    try appended(out.count - before)
  }

  /// Adds an event-id entry (ascending order), ending the subjects.
  func addID(_ entry: KeyEntry) throws(Diagnostic) {
    if idsOffset == nil { try endSubjects() }
    precondition(chargesOffset == nil, "ids before charges")
    try addEntry(entry)
    idCount += 1
  }

  /// Adds a charge entry (ascending order), ending the ids.
  func addCharge(_ entry: KeyEntry) throws(Diagnostic) {
    if idsOffset == nil { try endSubjects() }
    if chargesOffset == nil {
      chargesOffset = dataBytes
      lastEntry = nil
    }
    try addEntry(entry)
    chargeCount += 1
  }

  private func addEntry(_ entry: KeyEntry) throws(Diagnostic) {
    if let lastEntry { precondition(!(entry < lastEntry), "entries in ascending order") }
    lastEntry = entry
    out.appendWord(entry.key)
    out.appendWord(entry.subject)
    try appended(SegmentFormat.entryBytes)
  }

  private func endSubjects() throws(Diagnostic) {
    let tableOffset = dataBytes
    for entry in subjectTable {
      out.appendWord(entry.key)
      out.appendWord(entry.subject)
      try appended(SegmentFormat.entryBytes)
    }
    subjectTableOffsetValue = tableOffset
    idsOffset = dataBytes
    lastEntry = nil
  }
  private var subjectTableOffsetValue: Int64 = 0

  /// Counts `count` bytes just added to `out`, checksumming each page they complete.
  private func appended(_ count: Int) throws(Diagnostic) {
    dataBytes += Int64(count)
    while out.count - pageStart >= SegmentFormat.pageBytes { closePage() }
    if pageStart >= Self.flushBytes { try flush() }
  }

  /// Checksums the page at `pageStart` (zero-filled to a whole page if short).
  private func closePage() {
    while out.count - pageStart < SegmentFormat.pageBytes { out.append(0) }
    let number = UInt64(pageChecksums.count)
    let start = pageStart
    pageChecksums.append(
      out.withUnsafeBytes { IndexHash.of(UnsafeRawBufferPointer(rebasing: $0[start..<(start + SegmentFormat.pageBytes)]), seed: SegmentFormat.dataSeed ^ number) })
    pageStart += SegmentFormat.pageBytes
  }

  /// Writes the whole pages of `out`, keeping the page being filled.
  private func flush() throws(Diagnostic) {
    guard pageStart > 0 else { return }
    var failure: Diagnostic? = nil
    out.withUnsafeBytes { raw in
      do throws(Diagnostic) { try pending.file.write(UnsafeRawBufferPointer(rebasing: raw[0..<pageStart])) } catch { failure = error }
    }
    if let failure { throw failure }
    out.removeFirst(pageStart)
    pageStart = 0
  }

  /// Writes the checksums and the header, fsyncs and renames the file into place.
  /// Returns the header written (its checksum goes into the manifest).
  func finish(rangeStart: Int64, rangeEnd: Int64, firstLine: Int64, lineCount: Int64) throws(Diagnostic) -> SegmentHeader {
    if idsOffset == nil { try endSubjects() }
    if chargesOffset == nil { chargesOffset = dataBytes }
    if out.count > pageStart { closePage() }
    try flush()
    var checksumPage: [UInt8] = []
    var top: [UInt8] = []
    var checksumPages: Int64 = 0
    for (index, checksum) in pageChecksums.enumerated() {
      checksumPage.appendWord(checksum)
      if checksumPage.count == SegmentFormat.pageBytes || index == pageChecksums.count - 1 {
        while checksumPage.count < SegmentFormat.pageBytes { checksumPage.append(0) }
        let seed = SegmentFormat.checksumPageSeed ^ UInt64(checksumPages)
        top.appendWord(checksumPage.withUnsafeBytes { IndexHash.of($0, seed: seed) })
        out.append(contentsOf: checksumPage)
        checksumPage.removeAll(keepingCapacity: true)
        checksumPages += 1
      }
    }
    out.append(contentsOf: top)
    try pending.file.write(out)
    out = []
    var header = SegmentHeader(rangeStart: rangeStart, rangeEnd: rangeEnd, firstLine: firstLine, lineCount: lineCount)
    header.dataBytes = dataBytes
    header.dataPages = Int64(pageChecksums.count)
    header.checksumPages = checksumPages
    header.topCount = checksumPages
    header.topChecksum = top.withUnsafeBytes { IndexHash.of($0, seed: SegmentFormat.topSeed) }
    header.subjectCount = Int64(subjectTable.count)
    header.recordCount = recordCount
    header.subjectTableOffset = subjectTableOffsetValue
    header.idCount = idCount
    header.idsOffset = idsOffset!
    header.chargeCount = chargeCount
    header.chargesOffset = chargesOffset!
    precondition(header.isConsistent, "a segment written consistently")
    try pending.file.seek(to: 0)
    var first = header.encoded
    while first.count < SegmentFormat.pageBytes { first.append(0) }
    try pending.file.write(first)
    try pending.commit()
    return header
  }
}
