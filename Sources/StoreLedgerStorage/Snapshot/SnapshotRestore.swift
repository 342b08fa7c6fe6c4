import StoreLedgerCore
import Dispatch

/// Snapshot files on disk: digests of log prefixes, writing, and restore + tail.
///
/// The file side of `Snapshot/`: the format code is pure, this is where bytes are read.
package enum SnapshotFiles {
  /// SHA-256 of a whole (small) file, e.g. the catalog.
  package static func digest(ofFile path: String) throws(Diagnostic) -> SHA256Digest {
    SHA256.hash(try LedgerLoader.readFile(path))
  }

  /// The header describing a ledger loaded from the whole log at `logPath`; its prefix digest
  /// in blocks of `blockBytes` (`PrefixTreeDigest`; tests pass small blocks).
  package static func header(
    for ledger: Ledger, extent: LogExtent, logPath: String, catalogPath: String,
    blockBytes: Int = PrefixTreeDigest.defaultBlockBytes
  ) throws(Diagnostic) -> SnapshotHeader {
    guard PrefixTreeDigest.isValid(blockBytes: blockBytes, prefixBytes: extent.completeBytes),
      let logDigest = try PrefixTreeDigest.digest(of: logPath, bytes: extent.completeBytes, blockBytes: blockBytes)
    else {
      throw Diagnostic(.cannotRead(path: logPath, reason: "the log shrank while it was being read"))
    }
    return SnapshotHeader(
      lines: extent.lineCount, bytes: extent.completeBytes, logDigest: logDigest, logBlockBytes: blockBytes,
      catalogDigest: try digest(ofFile: catalogPath), events: ledger.events.count,
      duplicatesSkipped: ledger.duplicatesSkipped)
  }

  /// Writes snapshot bytes to `path` durably and atomically (`PendingFile`: a temporary in the
  /// same directory, fsync, rename). Refuses the files in `inUse`, non-regular files, and an
  /// existing file unless `force`.
  package static func write(_ bytes: [UInt8], to path: String, force: Bool = true, inUse: [String] = [])
    throws(Diagnostic)
  {
    let pending = try PendingFile(replacing: path, force: force, inUse: inUse)
    try pending.file.write(bytes)
    try pending.commit()
  }

  /// Writes the snapshot of `ledger` to `path` as `write(_:to:force:inUse:)` does, streaming:
  /// the readable timeline goes to the file in chunks (`SnapshotWriter.chunkBytes`) as it is
  /// made, so memory holds the restore section at most, never the whole snapshot.
  /// `chunkBytes` is injectable so tests can cut the output into many chunks with a small ledger.
  /// - Complexity: O(snapshot size); memory O(restore section).
  package static func write(
    _ ledger: Ledger, header: SnapshotHeader, to path: String, force: Bool = true, inUse: [String] = [],
    chunkBytes: Int = SnapshotWriter.chunkBytes
  ) throws(Diagnostic) -> Int {
    // A table's string ends are 32-bit offsets (Docs/snapshots.md); ids as spans of the log have
    // no such bound while loading.
    let symbols = ledger.symbols
    for (name, table) in [("subjects", symbols.subjects), ("ids", symbols.ids), ("transactions", symbols.transactions)]
    where table.stringBytes > Int(UInt32.max) {
      throw Diagnostic(
        file: path, .cannotWrite(path: path, reason: "its \(name) table holds \(table.stringBytes) bytes of strings, more than a snapshot table's 4 GiB; shard the log (--shard)"))
    }
    let pending = try PendingFile(replacing: path, force: force, inUse: inUse)
    var out: [UInt8] = []
    // Address space for the restore section (88 bytes per event and the strings); untouched pages cost nothing.
    out.reserveCapacity(ledger.events.count * 128 + chunkBytes)
    var written = 0
    try SnapshotWriter.write(ledger, header: header, into: &out, flushingAt: chunkBytes) {
      (bytes) throws(Diagnostic) in
      try pending.file.write(bytes)
      written += bytes.count
    }
    // Ids read back from a log that changed since loading: the file would hold placeholders.
    if let failure = ledger.symbols.readFailure { throw failure }
    try pending.file.write(out)
    try pending.commit()
    return written + out.count
  }

  /// Restores from a snapshot and folds only the log's tail after it.
  ///
  /// Refuses (exit 65) a log that no longer begins with exactly the bytes the
  /// snapshot covers (an edited, reordered or truncated prefix) and a snapshot
  /// folded with another catalog. The prefix's blocks are digested on every core while
  /// the snapshot is decoded (`PrefixTreeDigest`).
  /// With `shard`, the snapshot must hold only that shard's subjects (one made with the same
  /// `--shard`), and the tail's lines of other shards are dropped.
  package static func restore(
    snapshotPath: String, logPath: String, catalogPath: String, catalog: Catalog, shard: Shard? = nil
  ) throws(DiagnosticList) -> (ledger: Ledger, extent: LogExtent) {
    try DiagnosticList.collecting(path: snapshotPath) {
      var restored = try readVerified(
        snapshotPath: snapshotPath, logPath: logPath, catalogPath: catalogPath, catalog: catalog)
      let header = restored.header
      if let shard { try Shard.checkRestored(restored.ledger, shard: shard, snapshotPath: snapshotPath) }
      var builder = LedgerBuilder(restoring: restored.ledger, file: logPath)
      // The builder is now the only owner: it interns and merges the tail in place.
      restored.ledger = .empty
      builder.shard = shard
      let tail = try LedgerLoader.feed(
        &builder, path: logPath, startingAt: header.bytes, firstLineNumber: header.lines + 1)
      let extent = LogExtent(
        completeBytes: tail.completeBytes, tornBytes: tail.tornBytes, lineCount: header.lines + tail.lineCount)
      switch builder.finish() {
      case .success(let ledger): return (ledger, extent)
      case .failure(let list): throw list
      }
    }
  }

  /// Reads the snapshot's restore section (mapped, pages dropped as they are decoded) while the
  /// log's prefix blocks are digested on every core, then checks both digests and the catalog's.
  private static func readVerified(
    snapshotPath: String, logPath: String, catalogPath: String, catalog: Catalog
  ) throws(Diagnostic) -> (ledger: Ledger, header: SnapshotHeader) {
    // The readable header names the log prefix to digest; nothing in it is trusted until `read` checks the seal.
    let snapshotFile = try PlatformFile(path: snapshotPath, mode: .read)
    let snapshotSize = try snapshotFile.size()
    let headerBytes = try snapshotFile.readBytes(count: Int(min(snapshotSize, 1 << 16)), at: 0)
    let peek = try SnapshotReader.header(headerBytes, file: snapshotPath)
    guard snapshotSize <= Int64(Limits.snapshotBytesMax) else {
      throw Diagnostic(file: snapshotPath, .snapshotMismatch("not a valid snapshot: larger than \(Limits.snapshotBytesMax) bytes"))
    }

    // Blocks hashed by the global queue's threads while this one decodes; the section's own
    // decode tasks share the same cores, so the prefix costs its CPU divided by the cores.
    let prefix = try PrefixTreeDigest.Pending(path: logPath, bytes: peek.bytes, blockBytes: peek.logBlockBytes)
    // Room for the tail's events (the log reader's estimate), so extending in place does not regrow.
    let tailBytes = max(0, try PlatformFile(path: logPath, mode: .read).size() - peek.bytes)
    // Only the header, the section and the trailer are touched; the mapping goes once they are
    // decoded, unmapped by another thread while this one settles and folds.
    let restored = try snapshotFile.withMappedBytes(count: Int(snapshotSize), unmapInBackground: true) {
      (bytes) throws(Diagnostic) in
      // An empty tail interns nothing: the ids' and transactions' look-up slots are not built (a
      // log that grows meanwhile still works: the first `intern` builds them).
      try SnapshotReader.read(
        bytes, file: snapshotPath, catalog: catalog, spareEvents: Int(tailBytes / 100), indexStrings: tailBytes > 0)
    }
    let catalogDigest = try digest(ofFile: catalogPath)
    let prefixDigest = try prefix.wait()
    let header = restored.header
    // The prefix was digested as the unverified first read said; it must be what the verified content says.
    guard header.bytes == peek.bytes, header.lines == peek.lines, header.logBlockBytes == peek.logBlockBytes else {
      throw Diagnostic(file: snapshotPath, .snapshotMismatch("the snapshot changed while it was being read"))
    }
    try verify(
      header, catalogDigest: catalogDigest, prefixDigest: prefixDigest, snapshotPath: snapshotPath,
      logPath: logPath, catalogPath: catalogPath)
    return restored
  }

  /// Refuses a snapshot folded with another catalog, or whose log prefix is gone or changed.
  private static func verify(
    _ header: SnapshotHeader, catalogDigest: SHA256Digest, prefixDigest: Checksum64?, snapshotPath: String,
    logPath: String, catalogPath: String
  ) throws(Diagnostic) {
    guard catalogDigest == header.catalogDigest else {
      throw Diagnostic(
        file: snapshotPath,
        .snapshotMismatch(
          "snapshot was folded with a different catalog (sha256 \(header.catalogDigest.hex.prefix(12))…, \(catalogPath) is \(catalogDigest.hex.prefix(12))…); make a new snapshot"))
    }
    // The one rewrite the ledger makes itself: said as such, with what to do.
    if prefixDigest != header.logDigest, let stale = staleByErasure(snapshotPath: snapshotPath, logPath: logPath) {
      throw Diagnostic(file: snapshotPath, .snapshotMismatch(stale))
    }
    guard let prefixDigest else {
      throw Diagnostic(
        file: logPath,
        .snapshotMismatch(
          "log is shorter than the \(Plural.counted(header.bytes, "byte")) (\(Plural.counted(header.lines, "line"))) that snapshot \(snapshotPath) covers: was it truncated?" + erasureHint(logPath: logPath)))
    }
    guard prefixDigest == header.logDigest else {
      throw Diagnostic(
        file: logPath,
        .snapshotMismatch(
          "log does not begin with the \(Plural.counted(header.bytes, "byte")) (\(Plural.counted(header.lines, "line"))) that snapshot \(snapshotPath) covers: lines before the cut were edited, removed, inserted or reordered" + erasureHint(logPath: logPath)))
    }
  }
}
