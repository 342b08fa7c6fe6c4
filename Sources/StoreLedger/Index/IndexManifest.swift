import StoreLedgerCore

/// The index's manifest: which log and which prefix of it the index covers, and its segments.
///
/// A small text file, `LOG.index/manifest`, replaced atomically (temporary, fsync, rename) and
/// ending with a check digest of everything before it, so a torn or edited manifest is refused.
struct IndexManifest: Equatable {
  /// The format tag on the first line.
  static let format = "storeledger-index/1"
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
  /// Bytes and lines of the log the index covers (complete lines only, committed bytes only).
  var coveredBytes: Int64
  var coveredLines: Int64
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
    text += "covered-bytes=\(coveredBytes)\ncovered-lines=\(coveredLines)\n"
    text += "last-block=\(lastBlock.hex)\nchain-bytes=\(chainBytes)\nchain=\(chain.hex)\n"
    text += "catalog=\(catalog.hex)\ngeneration=\(generation)\n"
    for segment in segments {
      text += "segment=\(segment.name) header=\(String(segment.headerChecksum, radix: 16)) start=\(segment.start)"
      text += " end=\(segment.end) first-line=\(segment.firstLine) lines=\(segment.lines) file-bytes=\(segment.fileBytes)\n"
    }
    text += "check=" + SHA256.hash(Array(text.utf8)).hex + "\n"
    return Array(text.utf8)
  }

  /// Parses and checks a manifest; nil when it is damaged, torn or not one.
  static func decode(_ bytes: [UInt8]) -> IndexManifest? {
    guard bytes.count <= bytesMax, bytes.last == 10, let text = String(validating: bytes, as: UTF8.self) else { return nil }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.removeLast().isEmpty, let checkLine = lines.popLast(), checkLine.hasPrefix("check=") else { return nil }
    let body = lines.map { $0 + "\n" }.joined()
    guard SHA256.hash(Array(body.utf8)).hex == checkLine.dropFirst(6), lines.first == format else { return nil }
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
      let covered = number("covered-bytes"), let coveredLines = number("covered-lines"),
      let lastBlock = digest("last-block"), let chainBytes = number("chain-bytes"), let chain = digest("chain"),
      let catalog = digest("catalog"), let generation = number("generation")
    else { return nil }
    let manifest = IndexManifest(
      log: FileIdentity(device: device, inode: inode), coveredBytes: covered, coveredLines: coveredLines,
      lastBlock: lastBlock, chainBytes: chainBytes, chain: chain, catalog: catalog, generation: generation,
      segments: segments)
    return manifest.isContiguous ? manifest : nil
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
