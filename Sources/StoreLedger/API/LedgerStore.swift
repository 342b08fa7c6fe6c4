@_exported import StoreLedgerCore
@_exported import StoreLedgerImport
@_exported import StoreLedgerStorage
import Dispatch

/// An open ledger: answers from memory, appends durably, safe to share between threads.
///
/// Open it once (reading the log costs time proportional to the log, or to the tail after a
/// snapshot) and keep it: `answer` folds one subject's events, and `append` validates a
/// batch against the ledger's own state under the log's lock after reading only the lines
/// other processes appended since, so it costs time proportional to the batch plus the fixed
/// fsyncs of a durable append (Docs/durability.md), not to the log.
///
/// From async code: `answer` is a short CPU-bound call and may be called directly; `append`
/// and `refresh` wait for the log's lock and an fsync, so use their `async` overloads, which
/// run them on a Dispatch queue instead of a cooperative-pool thread. Opening reads the whole
/// log: do it before serving, or inside `Task.detached` / a Dispatch queue.
public final class LedgerStore: @unchecked Sendable {
  /// The JSON-lines event log (`<memory>` for an in-memory ledger).
  public let logPath: String
  /// The catalog the log is checked against (`<catalog>` for one built in code).
  public let catalogPath: String
  let catalog: Catalog
  /// Stamps `recorded` on appended events without one.
  let clock: LedgerClock
  /// An in-memory ledger: no file, appends end in `memoryLog`.
  let isInMemory: Bool
  /// Queries read `state` as readers; the merge after an append writes it alone.
  let gate = ReadWriteGate()
  /// One appender at a time in this process (other processes queue on the log's lock).
  let appending = DispatchSemaphore(value: 1)
  /// Query engines (scratch buffers and name tables) for `state.ledger`, reused across answers;
  /// emptied under `gate.write` before the ledger changes, so none outlives it.
  let engines = EnginePool()
  /// The open change streams (`commits(pollingInterval:)`).
  let commits = CommitStreams()
  /// Read under `gate.read`, or by the appender holding `appending` (the only writer);
  /// written only under `gate.write` by that appender.
  var state: StoreState
  /// An in-memory ledger's log lines; read and written only by the appender holding `appending`.
  var memoryLog: [UInt8] = []
  /// What this store's imports learned of the log, and how far they read it.
  let importKnowledge = ImportKnowledgeCache()
  /// Whether growth and compaction are built beside the readers (false: under the write lock,
  /// as before; the benchmark's baseline). Set before the first append.
  package var compactsBesideReaders = true
  /// Whether concurrent appends are written together, one write and one fsync for all the
  /// batches waiting (`CommitGroups`; the server sets it). Set before the first append.
  package var groupsCommits = false
  /// Appends waiting to be written together.
  let commitGroups = CommitGroups()
  /// Groups written by `groupsCommits` appends, each one write and one fsync (the server's metrics).
  package var groupCommits: Int { commitGroups.groupsWritten }
  /// How long an append or import waits for another process's lock on the log before it fails
  /// with `lock_busy` (the server's `--wait`). Set before the first append.
  package var lockWait = LogLock.Wait.standard
  /// The longest an append held the write lock (readers wait that long at most, plus one
  /// answer), in nanoseconds; read by the benchmark. Written only by the appender.
  package var longestWriteNanoseconds: UInt64 = 0
  /// How often the ledger read the log anew because an erasure had replaced it
  /// (`reopenIfReplaced`). Written only by the appender.
  package var reopenings = 0

  /// Opens the log at `logPath`, with `catalog.json` beside it unless `catalogPath` says
  /// otherwise, restoring from `snapshotPath` (made by `storeledger snapshot`) when given.
  /// With `createIfMissing`, a log that does not exist yet is created empty.
  /// - Throws: every problem found, each naming file, line and field (`DiagnosticList`).
  /// - Complexity: O(events in the log), or O(events after the snapshot) plus the restore.
  public convenience init(
    logPath: String, catalogPath: String? = nil, snapshotPath: String? = nil, createIfMissing: Bool = false,
    clock: LedgerClock = .system
  ) throws(DiagnosticList) {
    let catalog = try LedgerCatalog(contentsOfFile: catalogPath ?? LedgerLoader.defaultCatalogPath(forLog: logPath))
    try self.init(
      logPath: logPath, catalog: catalog, snapshotPath: snapshotPath, createIfMissing: createIfMissing, clock: clock)
  }

  /// Opens the log at `logPath` against `catalog` (read from a file, or built in code).
  /// - Throws: every problem found, each naming file, line and field (`DiagnosticList`).
  /// - Complexity: O(events in the log), or O(events after the snapshot) plus the restore.
  public init(
    logPath: String, catalog: LedgerCatalog, snapshotPath: String? = nil, createIfMissing: Bool = false,
    clock: LedgerClock = .system
  ) throws(DiagnosticList) {
    self.logPath = logPath
    catalogPath = catalog.source
    self.catalog = catalog.catalog
    self.clock = clock
    isInMemory = false
    let loaded = try Self.createdAndLoaded(
      logPath: logPath, catalog: catalog, snapshotPath: snapshotPath, createIfMissing: createIfMissing)
    state = StoreState(ledger: loaded.ledger, extent: loaded.extent)
    state.pinnedLog = loaded.pinned
  }

  /// The log loaded (`loadPinned`), created first when missing and `createIfMissing`. A log
  /// another writer created and then removed again (its first batch refused,
  /// `LogAppender.withLockedLog`) is created again, a bounded number of times.
  /// - Complexity: that of `loadPinned`.
  static func createdAndLoaded(
    logPath: String, catalog: LedgerCatalog, snapshotPath: String?, createIfMissing: Bool
  ) throws(DiagnosticList) -> (ledger: Ledger, extent: LogExtent, pinned: PinnedLog) {
    for attempt in 1...LogAppender.reopenAttemptsMax {
      if createIfMissing && !PlatformFile.exists(logPath) {
        do throws(Diagnostic) {
          _ = try PlatformFile(path: logPath, mode: .readWriteCreate)
          try PlatformFile.syncDirectory(of: logPath)
        } catch {
          throw DiagnosticList([error])
        }
      }
      do {
        return try loadPinned(logPath: logPath, catalog: catalog, snapshotPath: snapshotPath)
      } catch where createIfMissing && error.code == .fileNotFound && attempt < LogAppender.reopenAttemptsMax {
        continue
      }
    }
    preconditionFailure("the last attempt returns or throws")
  }

  /// An empty ledger kept only in memory, for tests: the same checks, answers and streams as
  /// one on a file, without a file (`logPath` is `<memory>`; nothing outlives the instance).
  public init(inMemory catalog: LedgerCatalog, clock: LedgerClock = .system) {
    logPath = "<memory>"
    catalogPath = catalog.source
    self.catalog = catalog.catalog
    self.clock = clock
    isInMemory = true
    var builder = LedgerBuilder(catalog: catalog.catalog, file: "<memory>")
    guard case .success(let empty) = builder.finish() else {
      preconditionFailure("an empty ledger has no problems")
    }
    state = StoreState(ledger: empty, extent: LogExtent(completeBytes: 0, tornBytes: 0, lineCount: 0))
  }

  /// What `subject` held at `at`, as known at `asOf` (nil: everything the ledger knows).
  /// - Complexity: O(events of the subject).
  public func answer(for subject: SubjectID, at: Timestamp, asOf: Timestamp? = nil) -> Holdings {
    withEngine { engine in engine.answer(subject: subject.rawValue, at: at, asOf: asOf) }
  }

  /// Runs `body` with a pooled query engine (whose `ledger` is the store's), as a reader; the
  /// server (`StoreLedgerServer`) writes its answers through it with the CLI's own writers.
  package func withEngine<R>(_ body: (inout QueryEngine) -> R) -> R {
    gate.read {
      var engine = engines.take() ?? QueryEngine(ledger: state.ledger)
      defer { engines.give(engine) }
      return body(&engine)
    }
  }

  /// The number of distinct events the ledger holds.
  public var eventCount: Int { gate.read { state.liveEvents } }

  /// How much of the log the ledger has read: its lines (redeliveries included) and the bytes
  /// they end at, read together (the server's metrics and the start of its change feed).
  package var readExtent: (lines: Int, bytes: Int64) { gate.read { (state.logLines, state.logBytes) } }

  /// Appends `events` durably, all or nothing; events already in the log are skipped.
  ///
  /// Each event is checked exactly as a log line (fields, id conflicts, transactions charged
  /// twice, overdraw); events without `recorded` are stamped with the current time.
  /// - Throws: every problem found; the log is then unchanged.
  /// - Complexity: O(batch + lines others appended since + events of the subjects involved), plus
  ///   a fixed number of fsyncs.
  public func append(_ events: [NewEvent]) throws(DiagnosticList) -> AppendReport {
    var input: [UInt8] = []
    for event in events {
      event.appendLine(to: &input)
      input.append(10)
    }
    return try append(lines: input, named: "<events>", now: clock.now())
  }

  /// Reads the lines other processes appended since the ledger last looked at the log.
  /// - Complexity: O(lines appended since + events of the subjects they touch).
  public func refresh() throws(DiagnosticList) {
    try refresh(wait: lockWait)
  }

  /// `refresh`, waiting for another process's lock at most `wait` (0: give up at once if held).
  /// - Complexity: as `refresh()`.
  package func refresh(wait: LogLock.Wait) throws(DiagnosticList) {
    guard !isInMemory else { return }
    _ = try append(lines: [], named: "<none>", now: nil, wait: wait)
  }

  /// Appends log lines as they are (JSON Lines, one event per line, Docs/log-format.md),
  /// checked exactly as `append(_:)` checks events; lines without `recorded` get the clock's time.
  /// - Throws: every problem found, naming the line of `text` (file `<lines>`); the log is then unchanged.
  /// - Complexity: as `append(_:)`.
  public func append(lines text: String) throws(DiagnosticList) -> AppendReport {
    try append(lines: Array(text.utf8), named: "<lines>", now: clock.now())
  }

  /// `append` on a Dispatch queue, so an async caller's thread is not held by the lock or fsync.
  public func append(_ events: [NewEvent]) async throws(DiagnosticList) -> AppendReport {
    try await offPool { () throws(DiagnosticList) in try self.append(events) }
  }

  /// `refresh` on a Dispatch queue.
  public func refresh() async throws(DiagnosticList) {
    try await offPool { () throws(DiagnosticList) in try self.refresh() }
  }

  func offPool<R: Sendable>(_ body: @escaping @Sendable () throws(DiagnosticList) -> R) async throws(DiagnosticList) -> R {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<R, DiagnosticList>, Never>) in
      DispatchQueue.global().async { continuation.resume(returning: Result { () throws(DiagnosticList) in try body() }) }
    }
    return try result.get()
  }
}
