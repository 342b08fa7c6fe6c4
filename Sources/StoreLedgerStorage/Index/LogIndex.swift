import StoreLedgerCore

/// The per-subject index beside a log, `LOG.index/` (Docs/index.md).
///
/// A manifest names the log it was written for (device, inode, birth time, inode generation), the
/// prefix it covers (length, lines, digests of the first and the last block, chained digest of
/// whole blocks), the catalog it was checked with, and its segments. Readers open it with the cheap checks (`open`) and read only
/// the lines of the subjects they need plus the log's unindexed tail (`IndexedLedger`); writers
/// hold the log's exclusive lock and replace the manifest atomically after the segments it names
/// are durable. Deleting the directory is always safe.
package enum LogIndex {
  /// The index directory of a log.
  package static func directory(forLog logPath: String) -> String { logPath + ".index" }

  static func manifestPath(_ directory: String) -> String { directory + "/manifest" }

  /// Bytes appended behind the tool's back that a reader or an appender reads as the tail;
  /// beyond this the index is not used (and `storeledger index` brings it up to date).
  static let tailBytesMax: Int64 = 256 << 20

  /// An index that passed the checks made on every open.
  final class Opened {
    /// Its directory.
    let directory: String
    /// Its manifest.
    let manifest: IndexManifest
    /// Its segments, oldest range first.
    let segments: [SegmentFile]

    init(directory: String, manifest: IndexManifest, segments: [SegmentFile]) {
      self.directory = directory
      self.manifest = manifest
      self.segments = segments
    }

    /// The covered lines of every subject whose fingerprint is in `fingerprints`, in line order.
    /// - Complexity: O(segments × log(subjects) + their lines).
    func records(ofSubjects fingerprints: Set<UInt64>) throws(IndexDamage) -> [LineRecord] {
      var all: [LineRecord] = []
      for segment in segments {
        for fingerprint in fingerprints {
          for block in try segment.subjects(fingerprint: fingerprint) { all.append(contentsOf: block.records) }
        }
      }
      all.sort { $0.line < $1.line }
      return all
    }

    /// Calls `body` with the id of every subject of every segment (for near-match suggestions).
    /// - Complexity: O(subjects) page reads, in order.
    func forEachSubjectName(_ body: ([UInt8]) -> Void) throws(IndexDamage) {
      for segment in segments {
        let cursor = EntryCursor(segment, .subjects)
        while let entry = try cursor.peek() {
          guard entry.subject <= UInt64(Int64.max) else { throw IndexDamage("segment \(segment.path): a block offset out of range") }
          body(try segment.name(at: Int64(entry.subject)))
          try cursor.advance()
        }
      }
    }

    /// Fingerprints of the subjects whose covered lines hold the event id (or charge) `key`.
    func owners(_ table: SegmentFile.Table, key: UInt64) throws(IndexDamage) -> [UInt64] {
      var found: [UInt64] = []
      for segment in segments { found.append(contentsOf: try segment.entries(table, key: key).map(\.subject)) }
      return found
    }
  }

  /// What opening found.
  enum Opening {
    /// No index beside the log.
    case absent
    /// An index that describes this log.
    case usable(Opened)
    /// An index that must not be used, and why.
    case unusable(IndexIssue)
  }

  /// Reads the manifest of `directory`: nil when there is none.
  static func readManifest(_ directory: String) -> Result<IndexManifest, IndexIssue>? {
    guard PlatformFile.entryKind(directory) != .missing else { return nil }
    let path = manifestPath(directory)
    // A first build that crashed before its manifest leaves a directory without one: no index yet.
    if PlatformFile.entryKind(directory) == .directory && PlatformFile.entryKind(path) == .missing { return nil }
    guard PlatformFile.entryKind(directory) == .directory, PlatformFile.entryKind(path) == .regular else {
      return .failure(.damaged("\(path) is missing or not a file"))
    }
    let bytes = try? LedgerLoader.readFile(path, limit: IndexManifest.bytesMax)
    guard let bytes, let manifest = IndexManifest.decode(bytes) else {
      return .failure(bytes.flatMap(IndexManifest.otherFormat).map { .otherFormat($0) } ?? .damaged("\(path) does not check out"))
    }
    return .success(manifest)
  }

  /// Opens the index beside `logPath` with the checks made on every open: the log's identity
  /// (device, inode, birth time, inode generation), its length, the digests of the last and the
  /// first covered block, the catalog (when given), and every segment's header. `length` is what
  /// the caller may read of the log (committed bytes).
  /// - Complexity: O(segments + two blocks of the log).
  static func open(logPath: String, log: borrowing PlatformFile, length: Int64, catalog: Catalog?) -> Opening {
    // A writer may replace the manifest and remove the segments it no longer names between our
    // reading the manifest and opening them: then the manifest has changed, and we read it again.
    var attempt = 0
    while true {
      attempt += 1
      let (opening, manifest) = openChecked(logPath: logPath, log: log, length: length, catalog: catalog)
      if case .unusable(.damaged) = opening, attempt < 4, let manifest,
        let now = readManifest(directory(forLog: logPath)).flatMap({ try? $0.get() }), now != manifest
      {
        continue
      }
      return opening
    }
  }

  /// One attempt of `open`: what it found, and the manifest it read.
  private static func openChecked(logPath: String, log: borrowing PlatformFile, length: Int64, catalog: Catalog?) -> (result: Opening, manifest: IndexManifest?) {
    let directory = directory(forLog: logPath)
    guard let read = readManifest(directory) else { return (.absent, nil) }
    let manifest: IndexManifest
    switch read {
    case .failure(let issue): return (.unusable(issue), nil)
    case .success(let found): manifest = found
    }
    // Device and inode alone do not name a file: ext4 gives a copy made after `rm LOG` the old
    // inode number at once. The origin tells them apart where the filesystem keeps one; the
    // digests of the first and the last block do wherever the bytes differ there.
    guard let identity = log.identity(), identity == manifest.log, log.origin() == manifest.origin else {
      return (.unusable(.otherLog), manifest)
    }
    guard length >= manifest.coveredBytes else {
      return (.unusable(.logShorter(covered: manifest.coveredBytes, size: length)), manifest)
    }
    guard let last = try? PrefixDigest.lastBlock(of: log, covered: manifest.coveredBytes), last == manifest.lastBlock else {
      return (.unusable(.prefixChanged), manifest)
    }
    // Up to one block covered, the last block's bytes are the first block's.
    let first =
      manifest.coveredBytes <= PrefixDigest.blockBytes ? last : try? PrefixDigest.firstBlock(of: log, covered: manifest.coveredBytes)
    guard first == manifest.firstBlock else { return (.unusable(.firstBlockChanged), manifest) }
    if let catalog, catalog.indexDigest != manifest.catalog { return (.unusable(.catalogChanged), manifest) }
    var segments: [SegmentFile] = []
    for entry in manifest.segments {
      do {
        let segment = try SegmentFile(path: directory + "/" + entry.name, expectedChecksum: entry.headerChecksum)
        let header = segment.header
        guard header.rangeStart == entry.start, header.rangeEnd == entry.end, header.firstLine == entry.firstLine,
          header.lineCount == entry.lines, header.fileBytes == entry.fileBytes
        else { return (.unusable(.damaged("segment \(entry.name) does not cover what the manifest says")), manifest) }
        segments.append(segment)
      } catch {
        return (.unusable(.damaged(error.reason)), manifest)
      }
    }
    return (.usable(Opened(directory: directory, manifest: manifest, segments: segments)), manifest)
  }

  /// Replaces the manifest (the segments it names are durable already), then removes every
  /// other file of the directory. The caller holds the log's exclusive lock.
  static func commit(_ manifest: IndexManifest, directory: String) throws(Diagnostic) {
    let pending = try PendingFile(replacing: manifestPath(directory), force: true)
    try pending.file.write(manifest.encoded)
    try pending.commit()
    let keep = Set(manifest.segments.map(\.name) + ["manifest"])
    for name in PlatformFile.directoryEntries(directory) where !keep.contains(name) {
      try? PlatformFile.remove(directory + "/" + name)
    }
  }

  /// Makes the index directory if absent.
  static func makeDirectory(_ directory: String) throws(Diagnostic) {
    switch PlatformFile.entryKind(directory) {
    case .directory: return
    case .missing:
      try PlatformFile.makeDirectory(directory)
      try PlatformFile.syncDirectory(of: directory)
    default:
      throw Diagnostic(.cannotWrite(path: directory, reason: "exists and is not a directory"))
    }
  }

  /// A new segment's file name: the generation makes it unique under the lock.
  static func segmentName(generation: Int64, start: Int64, end: Int64) -> String {
    "seg-\(generation)-\(start)-\(end)"
  }

  /// Merges the newest segments while the older of the last two is at most twice the newer
  /// (so the count stays about log2 of the appends), and always past `IndexManifest.segmentsMax / 2`.
  static func compacted(_ manifest: IndexManifest, directory: String) throws -> IndexManifest {
    var manifest = manifest
    while manifest.segments.count >= 2 {
      let older = manifest.segments[manifest.segments.count - 2]
      let newer = manifest.segments[manifest.segments.count - 1]
      guard older.fileBytes <= 2 * newer.fileBytes || manifest.segments.count > IndexManifest.segmentsMax / 2 else { break }
      let a = try SegmentFile(path: directory + "/" + older.name, expectedChecksum: older.headerChecksum)
      let b = try SegmentFile(path: directory + "/" + newer.name, expectedChecksum: newer.headerChecksum)
      manifest.generation += 1
      let name = segmentName(generation: manifest.generation, start: older.start, end: newer.end)
      let header = try SegmentBuild.merge(a, b, into: directory + "/" + name)
      manifest.segments.removeLast(2)
      manifest.segments.append(entry(name: name, header))
    }
    return manifest
  }

  /// The manifest's line for a segment just written.
  static func entry(name: String, _ header: SegmentHeader) -> IndexManifest.Segment {
    IndexManifest.Segment(
      name: name, headerChecksum: header.checksum, start: header.rangeStart, end: header.rangeEnd,
      firstLine: header.firstLine, lines: header.lineCount, fileBytes: header.fileBytes)
  }
}

extension Catalog {
  /// What the index records of the catalog it was checked with: a digest of the parsed catalog
  /// (products and policy), so two files that parse alike count as one catalog.
  var indexDigest: SHA256Digest {
    SHA256.hash(Array((String(describing: products) + "\n" + String(describing: policy)).utf8))
  }
}

extension IndexIssue: Error {}
