import StoreLedgerCore

/// The layout of one index segment file (Docs/index.md, "Segment files").
///
/// ```
/// page 0            header: 18 little-endian words, the last a checksum of the others
/// pages 1...D       data: subject blocks, subject table, event-id table, charge table
/// D pages after     page checksums: one word per data page, 512 to a page
/// last              top table: one checksum per checksum page
/// ```
/// The header names the top table's checksum, the top table each checksum page's, and a
/// checksum page each data page's: every byte a reader uses is checked on the way in, one
/// page at a time, so damage anywhere is found by whoever reads that page, never used.
enum SegmentFormat {
  /// Bytes in a page: the unit of reading and of checksums.
  static let pageBytes = 4096
  /// Checksums in a checksum page.
  static let checksumsPerPage = pageBytes / 8
  /// "SLXSEG01" read as a little-endian word.
  static let magic: UInt64 = 0x3130_4745_5358_4C53
  /// Bytes of a record (a line of a subject): offset, line number, length.
  static let recordBytes = 16
  /// Bytes of a table entry: a key's fingerprint and its subject's fingerprint.
  static let entryBytes = 16
  /// Seeds that make a page's checksum depend on its place (a page copied elsewhere is damage).
  static let dataSeed: UInt64 = 0x5eed_da7a_0000_0000
  static let checksumPageSeed: UInt64 = 0x5eed_c5c5_0000_0000
  static let topSeed: UInt64 = 0x5eed_7070_0000_0000
  static let headerSeed: UInt64 = 0x5eed_4ead_0000_0000
  /// Longest subject name a block may hold (the validator allows far less).
  static let nameBytesMax = 1 << 16
}

/// What a segment's header says: the log range it covers and where its tables are.
struct SegmentHeader: Equatable {
  /// The log's bytes `[rangeStart, rangeEnd)` are what this segment indexes.
  var rangeStart: Int64
  var rangeEnd: Int64
  /// The line number of the range's first line, and the number of lines in the range.
  var firstLine: Int64
  var lineCount: Int64
  /// Bytes of data and pages they take; checksum pages; checksums in the top table.
  var dataBytes: Int64 = 0
  var dataPages: Int64 = 0
  var checksumPages: Int64 = 0
  var topCount: Int64 = 0
  /// Checksum of the top table.
  var topChecksum: UInt64 = 0
  /// Subjects (blocks), records, and where the subject table starts in the data.
  var subjectCount: Int64 = 0
  var recordCount: Int64 = 0
  var subjectTableOffset: Int64 = 0
  /// Event-id entries and where they start; charge entries and where they start.
  var idCount: Int64 = 0
  var idsOffset: Int64 = 0
  var chargeCount: Int64 = 0
  var chargesOffset: Int64 = 0

  /// Words before the checksum.
  static let wordCount = 17

  /// The header's words (magic first).
  var words: [UInt64] {
    [
      SegmentFormat.magic, UInt64(rangeStart), UInt64(rangeEnd), UInt64(firstLine), UInt64(lineCount),
      UInt64(dataBytes), UInt64(dataPages), UInt64(checksumPages), UInt64(topCount), topChecksum,
      UInt64(subjectCount), UInt64(recordCount), UInt64(subjectTableOffset), UInt64(idCount), UInt64(idsOffset),
      UInt64(chargeCount), UInt64(chargesOffset),
    ]
  }

  /// The encoded header with its checksum: the page-0 bytes that matter.
  var encoded: [UInt8] {
    var bytes: [UInt8] = []
    for word in words { bytes.appendWord(word) }
    bytes.appendWord(Self.checksum(of: bytes))
    return bytes
  }

  /// The header's checksum (the manifest records it, so a segment file cannot be swapped).
  var checksum: UInt64 {
    var bytes: [UInt8] = []
    for word in words { bytes.appendWord(word) }
    return Self.checksum(of: bytes)
  }

  static func checksum(of bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { IndexHash.of($0, seed: SegmentFormat.headerSeed) }
  }

  /// Decodes and checks a header; nil when damaged or not a header.
  static func decode(_ bytes: [UInt8]) -> SegmentHeader? {
    let wordBytes = (wordCount + 1) * 8
    guard bytes.count >= wordBytes else { return nil }
    let w = (0...wordCount).map { bytes.word(at: $0 * 8) }
    guard w[0] == SegmentFormat.magic, checksum(of: Array(bytes[0..<(wordCount * 8)])) == w[wordCount] else { return nil }
    // Every count must be a plausible non-negative Int64: a checksum that matches by chance must not trap.
    guard (1..<wordCount).allSatisfy({ $0 == 9 || w[$0] <= UInt64(Int64.max) }) else { return nil }
    func i(_ k: Int) -> Int64 { Int64(w[k]) }
    var header = SegmentHeader(rangeStart: i(1), rangeEnd: i(2), firstLine: i(3), lineCount: i(4))
    header.dataBytes = i(5)
    header.dataPages = i(6)
    header.checksumPages = i(7)
    header.topCount = i(8)
    header.topChecksum = w[9]
    header.subjectCount = i(10)
    header.recordCount = i(11)
    header.subjectTableOffset = i(12)
    header.idCount = i(13)
    header.idsOffset = i(14)
    header.chargeCount = i(15)
    header.chargesOffset = i(16)
    guard header.isConsistent else { return nil }
    return header
  }

  /// Whether the sizes fit together (tables inside the data, pages enough for the data).
  var isConsistent: Bool {
    let page = Int64(SegmentFormat.pageBytes)
    let entry = Int64(SegmentFormat.entryBytes)
    let limit = Int64(1) << 48
    guard rangeStart >= 0, rangeEnd >= rangeStart, firstLine >= 1, lineCount >= 0, dataBytes >= 0,
      dataBytes < limit, subjectCount < limit, idCount < limit, chargeCount < limit, recordCount < limit
    else { return false }
    return dataPages == (dataBytes + page - 1) / page
      && checksumPages == (dataPages + Int64(SegmentFormat.checksumsPerPage) - 1) / Int64(SegmentFormat.checksumsPerPage)
      && topCount == checksumPages
      && subjectTableOffset >= 0 && subjectTableOffset + subjectCount * entry == idsOffset
      && idsOffset + idCount * entry == chargesOffset
      && chargesOffset + chargeCount * entry == dataBytes
  }

  /// Bytes of the whole file.
  var fileBytes: Int64 {
    Int64(SegmentFormat.pageBytes) * (1 + dataPages + checksumPages) + topCount * 8
  }
}

/// One line of a subject in a segment: where it is in the log and its number.
struct LineRecord: Equatable {
  /// Byte offset of the line's first byte.
  var offset: Int64
  /// 1-based line number.
  var line: UInt32
  /// Bytes of the line without its newline.
  var length: UInt32
}

/// A table entry: a key (event id or charged transaction) and the subject whose line holds it.
struct KeyEntry: Comparable {
  /// Fingerprint of the event id or transaction id.
  var key: UInt64
  /// Fingerprint of the subject.
  var subject: UInt64

  static func < (a: KeyEntry, b: KeyEntry) -> Bool { (a.key, a.subject) < (b.key, b.subject) }
}

extension Array where Element == UInt8 {
  /// Appends a little-endian word.
  mutating func appendWord(_ value: UInt64) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  /// Appends a little-endian 32-bit value.
  mutating func appendHalfWord(_ value: UInt32) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  /// The little-endian word at `offset` (the caller checked the bounds).
  func word(at offset: Int) -> UInt64 {
    withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
  }

  /// The little-endian 32-bit value at `offset` (the caller checked the bounds).
  func halfWord(at offset: Int) -> UInt32 {
    withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
  }
}
