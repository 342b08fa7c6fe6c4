import StoreLedgerCore

/// Which snapshots beside a log a rewrite of the log (an erasure) made stale: those that covered
/// the old log's prefix up to a point after the first changed byte. A snapshot whose prefix
/// ends before that byte still describes the new log; one of another log is none of its business.
package enum SnapshotStaleness {
  /// Bytes read from the start of each file to find a snapshot header.
  static let headerBytesMax = 64 << 10

  /// The snapshot files in the directory of `logPath` whose prefix was `oldLog`'s and included
  /// `firstChange`, sorted by path.
  /// - Complexity: O(files × header) plus the old log's prefix digest for each snapshot of it.
  package static func stale(besideLog logPath: String, oldLog: [UInt8], firstChange: Int?) -> [String] {
    guard let firstChange else { return [] }
    let directory = PlatformFile.directory(of: logPath)
    var found: [String] = []
    for name in PlatformFile.directoryEntries(directory).sorted() {
      let path = directory == "." ? name : directory + "/" + name
      guard PlatformFile.entryKind(path) == .regular,
        let head = try? readHead(path),
        head.first == 123, let header = try? SnapshotReader.header(head, file: path),
        header.bytes > Int64(firstChange), header.bytes <= Int64(oldLog.count),
        PrefixTreeDigest.isValid(blockBytes: header.logBlockBytes, prefixBytes: header.bytes)
      else { continue }
      if digest(oldLog[..<Int(header.bytes)], blockBytes: header.logBlockBytes) == header.logDigest { found.append(path) }
    }
    return found
  }

  /// The first bytes of the file at `path`.
  static func readHead(_ path: String) throws(Diagnostic) -> [UInt8] {
    let file = try PlatformFile(path: path, mode: .read)
    return try file.readBytes(count: Int(min(try file.size(), Int64(headerBytesMax))), at: 0)
  }

  /// The tree digest of `prefix` (Docs/snapshots.md).
  /// - Complexity: O(n).
  static func digest(_ prefix: ArraySlice<UInt8>, blockBytes: Int) -> Checksum64 {
    var leaves: [Checksum64] = []
    var start = prefix.startIndex
    while start < prefix.endIndex {
      let end = min(prefix.endIndex, start + blockBytes)
      leaves.append(XXH64.hash(prefix[start..<end]))
      start = end
    }
    return PrefixTreeDigest.combine(leaves)
  }
}
