import StoreLedgerCore
import StoreLedgerStorage

/// The log file an open ledger was read from, held open so its device and inode name it alone for
/// as long as the ledger lives: no later file can be given that inode while this descriptor holds it.
struct PinnedLog {
  /// The open file (a `LogSource`: a class, so the state that holds it stays copyable).
  let file: LogSource
  /// Its device and inode.
  let identity: FileIdentity?
  /// Erasures in the log's record (`LOG.erased`) when it was opened: one more later, with another
  /// file under the name, means an erasure replaced it.
  let erasures: Int

  /// Opens the file `path` names now, counting the erasures first (one between the two leaves
  /// the count low, which only makes a later replacement look like an erasure: read anew).
  init(path: String) throws(Diagnostic) {
    erasures = Self.erasures(log: path)
    file = try LogSource(path: path)
    identity = try file.withFile { $0.identity() }
  }

  /// Erasures in the record of the log at `path` (0 without one, or when it is damaged:
  /// imports report that).
  static func erasures(log path: String) -> Int {
    ((try? ErasureRegistry.read(log: path)) ?? nil)?.erasures.count ?? 0
  }
}

extension LedgerStore {
  /// Loads the log at `logPath` (restoring from `snapshotPath` when given) with the file it was
  /// read from pinned: read again when an erasure replaced the log while it was being read, so
  /// the pinned file is the one loaded.
  /// - Complexity: O(events in the log), or O(events after the snapshot) plus the restore.
  static func loadPinned(logPath: String, catalog: LedgerCatalog, snapshotPath: String?) throws(DiagnosticList)
    -> (ledger: Ledger, extent: LogExtent, pinned: PinnedLog)
  {
    for _ in 0..<LogAppender.reopenAttemptsMax {
      // A log that cannot be opened is reported by the load, in its words.
      let pinned = try? PinnedLog(path: logPath)
      let loaded = try LedgerOpening.ledger(
        .file(logPath), catalog: catalog.catalog, catalogPath: catalog.source, snapshotPath: snapshotPath)
      if let pinned, pinned.identity == PlatformFile.identity(logPath) { return (loaded.ledger, loaded.extent, pinned) }
    }
    throw DiagnosticList([
      Diagnostic(.cannotRead(path: logPath, reason: "the log was replaced \(LogAppender.reopenAttemptsMax) times while it was read"))
    ])
  }

  /// Reads the log anew when `log` (the log as it stands, under the writer lock, `size` bytes) is
  /// another file than the one the ledger was read from and the erasure record has grown since:
  /// `erase` replaced it (Docs/erasure.md). A file replaced some other way (by hand) is left to
  /// the append's own checks, which refuse a log that shrank.
  ///
  /// Its ids are spans of the file it read, which the new file holds elsewhere or not at all, and
  /// the erased subjects are now pseudonyms: nothing of the old state can be kept, so the whole new
  /// log is loaded (under the lock, so no other writer changes it meanwhile) and replaces it.
  /// Answers given before this hold the old log's. Called by the appender holding `appending`.
  /// - Complexity: O(1) when the log is the same file; O(events in the log) when an erasure replaced it.
  func reopenIfReplaced(_ log: borrowing PlatformFile, size: Int64) throws(DiagnosticList) {
    guard let pinned = state.pinnedLog, log.identity() != pinned.identity,
      PinnedLog.erasures(log: logPath) > pinned.erasures
    else { return }
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    let fresh: PinnedLog
    let extent: LogExtent
    do {
      // The name names `log` (`LogAppender.withLockedLog` checked it under the lock).
      fresh = try PinnedLog(path: logPath)
      extent = try LedgerLoader.feed(&builder, path: logPath, endingAt: size)
    } catch {
      throw DiagnosticList([error])
    }
    guard fresh.identity == log.identity() else {
      throw DiagnosticList([Diagnostic(.cannotRead(path: logPath, reason: "the log was replaced while its lock was held"))])
    }
    let ledger: Ledger
    switch builder.finish() {
    case .success(let loaded): ledger = loaded
    case .failure(let list): throw list
    }
    var state = StoreState(ledger: ledger, extent: extent)
    state.pinnedLog = fresh
    state.compactionFloor = self.state.compactionFloor
    gate.write {
      engines.removeAll()
      swap(&self.state, &state)
    }
    reopenings += 1
  }
}
