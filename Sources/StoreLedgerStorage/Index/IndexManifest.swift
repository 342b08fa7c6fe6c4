import StoreLedgerCore

/// The index's manifest: which log and which prefix of it the index covers, and its segments.
///
/// A small text file, `LOG.index/manifest`, replaced atomically (temporary, fsync, rename) and
/// ending with a check digest of everything before it, so a torn or edited manifest is refused.
///
/// Format 2 added the log's origin (birth time, inode generation) and the digest of the first
/// block; a manifest of format 1 is not read (`otherFormat`) and `storeledger index` rebuilds it.
struct IndexManifest: Equatable {
  /// The format tag on the first line.
  static let format = "storeledger-index/2"
  /// What every format's tag begins with.
  static let formatPrefix = "storeledger-index/"
  /// Largest manifest read.
  static let bytesMax = 64 * 1024
  /// Most segments a manifest lists (merging keeps far fewer: about log2 of the appends).
  static let segmentsMax = 64

  /// One segment file and the range it covers.
  struct Segment: Equatable {
    /// File name inside the index directory.
    var name: String
    /// Checksum of its header: the file must be the one written with this manifest.
    var headerChecksum: UInt64
    /// Log bytes `[start, end)` and lines from `firstLine`, `lines` of them.
    var start: Int64
    var end: Int64
    var firstLine: Int64
    var lines: Int64
    /// Size of the segment file.
    var fileBytes: Int64
  }

  /// The log file: device and inode when the index was written.
  var log: FileIdentity
  /// The log file's birth time and inode generation (nil parts: the filesystem keeps none), so
  /// that a file that reuses the inode number is another file.
  var origin: FileOrigin
  /// Bytes and lines of the log the index covers (complete lines only, committed bytes only).
  var coveredBytes: Int64
  var coveredLines: Int64
  /// SHA-256 of the first `PrefixDigest.blockBytes` covered bytes (or all, when fewer): checked on every open.
  var firstBlock: SHA256Digest
  /// SHA-256 of the last `PrefixDigest.blockBytes` covered bytes (or all, when fewer): checked on every open.
  var lastBlock: SHA256Digest
  /// The chained digest of the covered prefix's whole blocks (`PrefixDigest`), up to `chainBytes`.
  var chainBytes: Int64
  var chain: SHA256Digest
  /// SHA-256 of the catalog file the covered prefix was checked with.
  var catalog: SHA256Digest
  /// Increases with every manifest written; names new segments.
  var generation: Int64
  /// The segments, oldest range first; together they cover `[0, coveredBytes)` without gaps.
  var segments: [Segment]

  /// The manifest's text.
  var encoded: [UInt8] {
    var text = Self.format + "\n"
    text += "log-device=\(log.device)\nlog-inode=\(log.inode)\n"
    text += "log-birth=\(origin.birth.map(Self.encodedBirth) ?? "none")\n"
    text += "log-generation=\(origin.generation.map { "\($0)" } ?? "none")\n"
    text += "covered-bytes=\(coveredBytes)\ncovered-lines=\(coveredLines)\n"
    text += "first-block=\(firstBlock.hex)\nlast-block=\(lastBlock.hex)\nchain-bytes=\(chainBytes)\nchain=\(chain.hex)\n"
    text += "catalog=\(catalog.hex)\ngeneration=\(generation)\n"
    for segment in segments {
      text += "segment=\(segment.name) header=\(String(segment.headerChecksum, radix: 16)) start=\(segment.start)"
      text += " end=\(segment.end) first-line=\(segment.firstLine) lines=\(segment.lines) file-bytes=\(segment.fileBytes)\n"
    }
    text += "check=" + SHA256.hash(Array(text.utf8)).hex + "\n"
    return Array(text.utf8)
  }

  /// The lines before the check line of a manifest whose check line checks out; nil when it is
  /// damaged, torn or not one.
  private static func checkedLines(_ bytes: [UInt8]) -> [String]? {
    guard bytes.count <= bytesMax, bytes.last == 10, let text = String(validating: bytes, as: UTF8.self) else { return nil }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.removeLast().isEmpty, let checkLine = lines.popLast(), checkLine.hasPrefix("check=") else { return nil }
    let body = lines.map { $0 + "\n" }.joined()
    guard SHA256.hash(Array(body.utf8)).hex == checkLine.dropFirst(6) else { return nil }
    return lines
  }

  /// The format tag of an intact manifest of another format (written by another version); nil
  /// when the bytes are a manifest of this format, or no intact manifest.
  static func otherFormat(_ bytes: [UInt8]) -> String? {
    guard let tag = checkedLines(bytes)?.first, tag != format, tag.hasPrefix(formatPrefix), tag.utf8.count <= 64 else { return nil }
    return tag
  }

  /// A birth time as a decimal number of seconds, with all nine digits of the nanoseconds.
  private static func encodedBirth(_ birth: FileOrigin.Birth) -> String {
    let fraction = String(birth.nanoseconds)
    return "\(birth.seconds)." + String(repeating: "0", count: max(0, 9 - fraction.count)) + fraction
  }

  /// Parses and checks a manifest; nil when it is damaged, torn, of another format or not one.
  static func decode(_ bytes: [UInt8]) -> IndexManifest? {
    guard let lines = checkedLines(bytes), lines.first == format else { return nil }
    var fields: [String: String] = [:]
    var segments: [Segment] = []
    for line in lines.dropFirst() {
      if line.hasPrefix("segment=") {
        guard let segment = decodeSegment(line), segments.count < segmentsMax else { return nil }
        segments.append(segment)
        continue
      }
      guard let equals = line.firstIndex(of: "=") else { return nil }
      fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    func number(_ key: String) -> Int64? { fields[key].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil } }
    func digest(_ key: String) -> SHA256Digest? { fields[key].flatMap { SHA256Digest(hex: $0) } }
    guard let device = fields["log-device"].flatMap({ UInt64($0) }), let inode = fields["log-inode"].flatMap({ UInt64($0) }),
      let origin = decodeOrigin(birth: fields["log-birth"], generation: fields["log-generation"]),
      let covered = number("covered-bytes"), let coveredLines = number("covered-lines"),
      let firstBlock = digest("first-block"), let lastBlock = digest("last-block"),
      let chainBytes = number("chain-bytes"), let chain = digest("chain"), let catalog = digest("catalog"), let generation = number("generation")
    else { return nil }
    let manifest = IndexManifest(
      log: FileIdentity(device: device, inode: inode), origin: origin, coveredBytes: covered, coveredLines: coveredLines,
      firstBlock: firstBlock, lastBlock: lastBlock, chainBytes: chainBytes, chain: chain, catalog: catalog,
      generation: generation, segments: segments)
    return manifest.isContiguous ? manifest : nil
  }

  /// The origin written as `log-birth=SECONDS.NANOSECONDS|none` and `log-generation=N|none`;
  /// nil when a field is missing or malformed.
  private static func decodeOrigin(birth: String?, generation: String?) -> FileOrigin? {
    guard let birth, let generation else { return nil }
    var origin = FileOrigin(birth: nil, generation: nil)
    if birth != "none" {
      let parts = birth.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[1].count == 9, let seconds = Int64(parts[0]), let nanoseconds = UInt32(parts[1]),
        nanoseconds < 1_000_000_000
      else { return nil }
      origin.birth = FileOrigin.Birth(seconds: seconds, nanoseconds: nanoseconds)
    }
    if generation != "none" {
      guard let value = UInt32(generation) else { return nil }
      origin.generation = value
    }
    return origin
  }

  private static func decodeSegment(_ line: String) -> Segment? {
    var values: [String: String] = [:]
    for part in line.split(separator: " ") {
      guard let equals = part.firstIndex(of: "=") else { return nil }
      values[String(part[..<equals])] = String(part[part.index(after: equals)...])
    }
    guard let name = values["segment"], isSafeName(name), let header = values["header"].flatMap({ UInt64($0, radix: 16) }),
      let start = values["start"].flatMap({ Int64($0) }), let end = values["end"].flatMap({ Int64($0) }),
      let firstLine = values["first-line"].flatMap({ Int64($0) }), let lines = values["lines"].flatMap({ Int64($0) }),
      let fileBytes = values["file-bytes"].flatMap({ Int64($0) }), start >= 0, end >= start, firstLine >= 1, lines >= 0
    else { return nil }
    return Segment(name: name, headerChecksum: header, start: start, end: end, firstLine: firstLine, lines: lines, fileBytes: fileBytes)
  }

  /// A segment name the index may open: a plain file name inside its directory.
  static func isSafeName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 128 && !name.hasPrefix(".")
      && name.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 122) || $0 == 45 }
  }

  /// Whether the segments cover `[0, coveredBytes)` and its lines exactly, in order.
  var isContiguous: Bool {
    var bytes: Int64 = 0
    var line: Int64 = 1
    for segment in segments {
      guard segment.start == bytes, segment.firstLine == line else { return false }
      bytes = segment.end
      line = segment.firstLine + segment.lines
    }
    return bytes == coveredBytes && line == coveredLines + 1 && chainBytes <= coveredBytes
      && chainBytes % PrefixDigest.blockBytes == 0 && coveredBytes - chainBytes < PrefixDigest.blockBytes
  }
}
