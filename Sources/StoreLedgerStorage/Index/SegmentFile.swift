import StoreLedgerCore

/// An index segment opened for reading: pages are read with `pread` as needed and each is
/// checked against its checksum before use; nothing is read whole.
///
/// Every failure (a page that does not match, a size that does not fit, an I/O error) is an
/// `IndexDamage`: the caller stops using the index and reads the log instead.
final class SegmentFile {
  /// The header, checked.
  let header: SegmentHeader
  /// The file's path, for messages.
  let path: String
  private let file: PlatformFile
  private let top: [UInt64]
  private var checksumPages: [Int: [UInt8]] = [:]
  private var dataPages: [Int: [UInt8]] = [:]
  /// Pages kept between reads; more are dropped (a lookup touches a few dozen).
  private static let cachedPagesMax = 1024

  /// Opens the segment at `path`, whose header checksum the manifest says is `expectedChecksum`.
  init(path: String, expectedChecksum: UInt64) throws(IndexDamage) {
    self.path = path
    do {
      file = try PlatformFile(path: path, mode: .read)
    } catch {
      throw IndexDamage("cannot open segment \(path): \(error.message)")
    }
    let first = try Self.read(file, count: SegmentFormat.pageBytes, at: 0)
    guard let header = SegmentHeader.decode(first), header.checksum == expectedChecksum else {
      throw IndexDamage("segment \(path) has a damaged header")
    }
    guard let size = try? file.size(), size == header.fileBytes else {
      throw IndexDamage("segment \(path) is not the size its header says")
    }
    self.header = header
    let topOffset = Int64(SegmentFormat.pageBytes) * (1 + header.dataPages + header.checksumPages)
    let topBytes = try Self.read(file, count: Int(header.topCount) * 8, at: topOffset)
    guard topBytes.withUnsafeBytes({ IndexHash.of($0, seed: SegmentFormat.topSeed) }) == header.topChecksum else {
      throw IndexDamage("segment \(path) has a damaged checksum table")
    }
    top = (0..<Int(header.topCount)).map { topBytes.word(at: $0 * 8) }
  }

  private static func read(_ file: borrowing PlatformFile, count: Int, at offset: Int64) throws(IndexDamage) -> [UInt8] {
    do {
      let bytes = try file.readBytes(count: count, at: offset)
      guard bytes.count == count else { throw IndexDamage("segment \(file.path) is shorter than its header says") }
      return bytes
    } catch let damage as IndexDamage {
      throw damage
    } catch {
      throw IndexDamage("cannot read segment \(file.path): \(error)")
    }
  }

  /// Data page `number`, checked against its checksum.
  private func dataPage(_ number: Int) throws(IndexDamage) -> [UInt8] {
    if let cached = dataPages[number] { return cached }
    guard number >= 0, Int64(number) < header.dataPages else { throw IndexDamage("segment \(path): a page beyond its data") }
    let group = number / SegmentFormat.checksumsPerPage
    let sums = try checksumPage(group)
    let expected = sums.word(at: (number % SegmentFormat.checksumsPerPage) * 8)
    let bytes = try Self.read(file, count: SegmentFormat.pageBytes, at: Int64(SegmentFormat.pageBytes) * Int64(1 + number))
    guard bytes.withUnsafeBytes({ IndexHash.of($0, seed: SegmentFormat.dataSeed ^ UInt64(number)) }) == expected else {
      throw IndexDamage("segment \(path): page \(number + 1) is damaged")
    }
    if dataPages.count >= Self.cachedPagesMax { dataPages.removeAll(keepingCapacity: true) }
    dataPages[number] = bytes
    return bytes
  }

  private func checksumPage(_ number: Int) throws(IndexDamage) -> [UInt8] {
    if let cached = checksumPages[number] { return cached }
    guard number < top.count else { throw IndexDamage("segment \(path): a checksum page beyond its table") }
    let offset = Int64(SegmentFormat.pageBytes) * (1 + header.dataPages + Int64(number))
    let bytes = try Self.read(file, count: SegmentFormat.pageBytes, at: offset)
    guard bytes.withUnsafeBytes({ IndexHash.of($0, seed: SegmentFormat.checksumPageSeed ^ UInt64(number)) }) == top[number] else {
      throw IndexDamage("segment \(path): checksum page \(number) is damaged")
    }
    checksumPages[number] = bytes
    return bytes
  }

  /// `count` bytes of data at `offset`, each page checked.
  /// - Complexity: O(count + pages touched).
  func data(at offset: Int64, count: Int) throws(IndexDamage) -> [UInt8] {
    guard offset >= 0, count >= 0, offset + Int64(count) <= header.dataBytes else {
      throw IndexDamage("segment \(path): a reference beyond its data")
    }
    var result: [UInt8] = []
    result.reserveCapacity(count)
    var at = offset
    let end = offset + Int64(count)
    while at < end {
      let number = Int(at / Int64(SegmentFormat.pageBytes))
      let within = Int(at % Int64(SegmentFormat.pageBytes))
      let take = min(SegmentFormat.pageBytes - within, Int(end - at))
      let page = try dataPage(number)
      result.append(contentsOf: page[within..<(within + take)])
      at += Int64(take)
    }
    return result
  }

  /// The tables of fixed-size entries.
  enum Table {
    case subjects, ids, charges
  }

  private func bounds(_ table: Table) -> (offset: Int64, count: Int64) {
    switch table {
    case .subjects: return (header.subjectTableOffset, header.subjectCount)
    case .ids: return (header.idsOffset, header.idCount)
    case .charges: return (header.chargesOffset, header.chargeCount)
    }
  }

  /// Entry `index` of a table.
  func entry(_ table: Table, _ index: Int64) throws(IndexDamage) -> KeyEntry {
    let (offset, _) = bounds(table)
    let bytes = try data(at: offset + index * Int64(SegmentFormat.entryBytes), count: SegmentFormat.entryBytes)
    return KeyEntry(key: bytes.word(at: 0), subject: bytes.word(at: 8))
  }

  /// Every entry of `table` whose key is `key` (binary search, then the run of equal keys).
  /// - Complexity: O(log n) page reads.
  func entries(_ table: Table, key: UInt64) throws(IndexDamage) -> [KeyEntry] {
    let (_, count) = bounds(table)
    var low: Int64 = 0
    var high = count
    while low < high {
      let middle = low + (high - low) / 2
      if try entry(table, middle).key < key { low = middle + 1 } else { high = middle }
    }
    var found: [KeyEntry] = []
    var index = low
    while index < count {
      let next = try entry(table, index)
      guard next.key == key else { break }
      if let last = found.last, next < last { throw IndexDamage("segment \(path): a table out of order") }
      found.append(next)
      index += 1
    }
    return found
  }

  /// The subject block at `offset`: its name and its lines.
  func block(at offset: Int64) throws(IndexDamage) -> (name: [UInt8], records: [LineRecord]) {
    let head = try data(at: offset, count: 8)
    let nameBytes = Int(head.halfWord(at: 0))
    let recordCount = Int(head.halfWord(at: 4))
    guard nameBytes <= SegmentFormat.nameBytesMax, recordCount > 0, Int64(recordCount) <= header.recordCount else {
      throw IndexDamage("segment \(path): a subject block that does not fit")
    }
    let padded = (nameBytes + 7) / 8 * 8
    let name = Array(try data(at: offset + 8, count: nameBytes))
    let raw = try data(at: offset + 8 + Int64(padded), count: recordCount * SegmentFormat.recordBytes)
    var records: [LineRecord] = []
    records.reserveCapacity(recordCount)
    for k in 0..<recordCount {
      let base = k * SegmentFormat.recordBytes
      let offsetValue = raw.word(at: base)
      guard offsetValue <= UInt64(Int64.max) else { throw IndexDamage("segment \(path): a line offset out of range") }
      records.append(LineRecord(offset: Int64(offsetValue), line: raw.halfWord(at: base + 8), length: raw.halfWord(at: base + 12)))
    }
    return (name, records)
  }

  /// The subject id of the block at `offset`, without its lines.
  func name(at offset: Int64) throws(IndexDamage) -> [UInt8] {
    let nameBytes = Int(try data(at: offset, count: 8).halfWord(at: 0))
    guard nameBytes <= SegmentFormat.nameBytesMax else { throw IndexDamage("segment \(path): a subject block that does not fit") }
    return try data(at: offset + 8, count: nameBytes)
  }

  /// The blocks of every subject whose fingerprint is `fingerprint` (usually one, or none).
  func subjects(fingerprint: UInt64) throws(IndexDamage) -> [(name: [UInt8], records: [LineRecord])] {
    var blocks: [(name: [UInt8], records: [LineRecord])] = []
    for entry in try entries(.subjects, key: fingerprint) {
      guard entry.subject <= UInt64(Int64.max) else { throw IndexDamage("segment \(path): a block offset out of range") }
      blocks.append(try block(at: Int64(entry.subject)))
    }
    return blocks
  }

  /// Entries in `table`.
  func count(of table: Table) -> Int64 { bounds(table).count }

  /// `count` entries of `table` from `index`.
  func entries(_ table: Table, from index: Int64, count: Int) throws(IndexDamage) -> [KeyEntry] {
    let (offset, total) = bounds(table)
    guard index >= 0, count >= 0, index + Int64(count) <= total else { throw IndexDamage("segment \(path): beyond a table") }
    let bytes = try data(at: offset + index * Int64(SegmentFormat.entryBytes), count: count * SegmentFormat.entryBytes)
    return (0..<count).map { KeyEntry(key: bytes.word(at: $0 * 16), subject: bytes.word(at: $0 * 16 + 8)) }
  }
}

/// Why an index cannot be used: a segment or the manifest does not check out, or cannot be read.
struct IndexDamage: Error {
  /// What was found, for the warning.
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
