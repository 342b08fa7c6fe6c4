/// Writes one segment file: a temporary beside the target, renamed over it when complete
/// (`PendingFile`), so a crash leaves no segment or a whole one.
///
/// Subjects go in first, in (fingerprint, name) order, each with its records in line order;
/// then the event-id entries and the charge entries, each sorted. Data is streamed to the file
/// page by page as it comes, with each page's checksum kept (8 bytes a page); the checksum
/// pages, the top table and the header are written last.
final class SegmentWriter {
  private let pending: PendingFile
  private var page: [UInt8] = []
  private var out: [UInt8] = []
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
    page.reserveCapacity(SegmentFormat.pageBytes)
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
    var block: [UInt8] = []
    block.reserveCapacity(16 + name.count + records.count * SegmentFormat.recordBytes)
    block.appendHalfWord(UInt32(name.count))
    block.appendHalfWord(UInt32(records.count))
    block.append(contentsOf: name)
    while block.count % 8 != 0 { block.append(0) }
    for record in records {
      block.appendWord(UInt64(record.offset))
      block.appendHalfWord(record.line)
      block.appendHalfWord(record.length)
    }
    recordCount += Int64(records.count)
    try append(block)
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
    var bytes: [UInt8] = []
    bytes.appendWord(entry.key)
    bytes.appendWord(entry.subject)
    try append(bytes)
  }

  private func endSubjects() throws(Diagnostic) {
    let tableOffset = dataBytes
    for entry in subjectTable {
      var bytes: [UInt8] = []
      bytes.appendWord(entry.key)
      bytes.appendWord(entry.subject)
      try append(bytes)
    }
    subjectTableOffsetValue = tableOffset
    idsOffset = dataBytes
    lastEntry = nil
  }
  private var subjectTableOffsetValue: Int64 = 0

  private func append(_ bytes: [UInt8]) throws(Diagnostic) {
    var from = 0
    while from < bytes.count {
      let take = min(SegmentFormat.pageBytes - page.count, bytes.count - from)
      page.append(contentsOf: bytes[from..<(from + take)])
      from += take
      dataBytes += Int64(take)
      if page.count == SegmentFormat.pageBytes { try closePage() }
    }
  }

  private func closePage() throws(Diagnostic) {
    while page.count < SegmentFormat.pageBytes { page.append(0) }
    let number = UInt64(pageChecksums.count)
    pageChecksums.append(page.withUnsafeBytes { IndexHash.of($0, seed: SegmentFormat.dataSeed ^ number) })
    out.append(contentsOf: page)
    page.removeAll(keepingCapacity: true)
    if out.count >= Self.flushBytes { try flush() }
  }

  private func flush() throws(Diagnostic) {
    guard !out.isEmpty else { return }
    try pending.file.write(out)
    out.removeAll(keepingCapacity: true)
  }

  /// Writes the checksums and the header, fsyncs and renames the file into place.
  /// Returns the header written (its checksum goes into the manifest).
  func finish(rangeStart: Int64, rangeEnd: Int64, firstLine: Int64, lineCount: Int64) throws(Diagnostic) -> SegmentHeader {
    if idsOffset == nil { try endSubjects() }
    if chargesOffset == nil { chargesOffset = dataBytes }
    if !page.isEmpty { try closePage() }
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
    try flush()
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
