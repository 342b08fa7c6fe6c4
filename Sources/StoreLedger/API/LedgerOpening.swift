import StoreLedgerCore
import StoreLedgerStorage

/// The one way a log becomes a ledger to read, for `LedgerStore` and the commands alike: a whole
/// fold of a file or of a stream read once (stdin), a restore from a snapshot and the log's tail,
/// or the few subjects asked for through the index beside the log (Docs/architecture.md, "One way
/// to open a log"). Which of them a caller wants (its options, its arguments) is the caller's;
/// how each is done, and what falls back to what, is said here once.
package enum LedgerOpening {
  /// Where a log's lines come from.
  package enum Source {
    /// A file, read at offsets (a snapshot can cover its first bytes, an index can describe it).
    case file(String)
    /// A stream read once in order, named `name` in diagnostics: `read` returns what one read
    /// gives, 0 at the end.
    case stream(name: String, read: (UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int)
  }

  /// What a caller is told while a whole log is read: the bytes read of the bytes to read,
  /// before each block, then once that folding began.
  package struct Progress {
    /// Called on the reading thread with the bytes read so far and the bytes to read.
    package var reading: (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void
    /// Called once, when every line is read and the ledger is being folded.
    package var folding: () -> Void

    /// Reports through the two closures.
    package init(reading: @escaping (_ bytesRead: Int64, _ bytesTotal: Int64) -> Void, folding: @escaping () -> Void) {
      self.reading = reading
      self.folding = folding
    }
  }

  /// The ledger of a whole log, only the subjects of `shard` when given: restored from
  /// `snapshotPath` and the log's tail when given, else folded from every line of `source`.
  /// - Precondition: a snapshot goes with a file (it covers a file's first bytes).
  /// - Throws: every problem of the log, or of the snapshot, found on the way.
  /// - Complexity: O(events in the log), or the restore plus O(events after the snapshot).
  package static func ledger(
    _ source: Source, catalog: Catalog, catalogPath: String, snapshotPath: String? = nil, shard: Shard? = nil,
    progress: Progress? = nil
  ) throws(DiagnosticList) -> (ledger: Ledger, extent: LogExtent) {
    var loaded: (ledger: Ledger, extent: LogExtent)
    switch source {
    case .file(let path):
      if let snapshotPath {
        loaded = try SnapshotFiles.restore(
          snapshotPath: snapshotPath, logPath: path, catalogPath: catalogPath, catalog: catalog, shard: shard)
      } else {
        loaded = try folded(catalog: catalog, file: path, shard: shard, progress: progress) { (builder) throws(Diagnostic) in
          try LedgerLoader.feed(&builder, path: path, progress: progress?.reading)
        }
      }
    case .stream(let name, let read):
      precondition(snapshotPath == nil, "a snapshot covers a file's first bytes, not a stream's")
      loaded = try folded(catalog: catalog, file: name, shard: shard, progress: progress) { (builder) throws(Diagnostic) in
        try LedgerLoader.feed(&builder, streamNamed: name, read: read)
      }
    }
    loaded.ledger.shard = shard
    return loaded
  }

  /// A ledger holding `subjects` (and every subject the unindexed tail involves), read through the
  /// index beside the log at `logPath` when one is there and describes it; else the whole log, and
  /// `notUsed` says why the index was passed over (nil: there is none).
  /// - Throws: every problem of the lines read.
  /// - Complexity: O(log(index) + events of the subjects + unindexed tail) with a usable index;
  ///   O(events in the log) without one.
  package static func ledger(
    holding subjects: [String], logPath: String, catalog: Catalog, catalogPath: String, progress: Progress? = nil
  ) throws(DiagnosticList) -> (ledger: Ledger, extent: LogExtent, notUsed: Diagnostic?) {
    switch try IndexedLedger.load(logPath: logPath, catalog: catalog, subjects: subjects) {
    case .loaded(let ledger, let extent):
      return (ledger, extent, nil)
    case .notUsed(let why):
      let whole = try ledger(.file(logPath), catalog: catalog, catalogPath: catalogPath, progress: progress)
      return (whole.ledger, whole.extent, why)
    }
  }

  /// A new builder fed by `feed`, then finished.
  private static func folded(
    catalog: Catalog, file: String, shard: Shard?, progress: Progress?,
    feed: (inout LedgerBuilder) throws(Diagnostic) -> LogExtent
  ) throws(DiagnosticList) -> (ledger: Ledger, extent: LogExtent) {
    var builder = LedgerBuilder(catalog: catalog, file: file)
    builder.shard = shard
    let extent: LogExtent
    do {
      extent = try feed(&builder)
    } catch {
      throw DiagnosticList([error])
    }
    progress?.folding()
    switch builder.finish() {
    case .success(let ledger): return (ledger, extent)
    case .failure(let list): throw list
    }
  }
}
