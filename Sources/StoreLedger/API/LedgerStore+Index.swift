import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

extension LedgerStore {
  /// What `subject` held at `at` (as known at `asOf`), without opening a ledger: through the
  /// index beside the log (`storeledger index`, Docs/index.md) only the subject's lines and the
  /// lines appended since the index was brought up to date are read; with no usable index, the
  /// whole log is (as `init` reads it).
  /// - Throws: every problem of the log found on the way (`DiagnosticList`), as `init` would.
  /// - Complexity: O(log(index) + events of the subject + unindexed tail) with a usable index.
  public static func answer(
    logPath: String, catalogPath: String? = nil, for subject: SubjectID, at: Timestamp, asOf: Timestamp? = nil
  ) throws(DiagnosticList) -> Holdings {
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath ?? LedgerLoader.defaultCatalogPath(forLog: logPath))
    let ledger: Ledger
    switch try IndexedLedger.load(logPath: logPath, catalog: catalog, subjects: [subject.rawValue]) {
    case .loaded(let indexed, _): ledger = indexed
    case .notUsed: ledger = try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger
    }
    var engine = QueryEngine(ledger: ledger)
    return Holdings(engine.answer(subject: subject.rawValue, at: at, asOf: asOf))
  }
}

extension LedgerStore {
  /// Appends `events` to the log at `logPath` without opening a ledger: the batch is checked
  /// through the index beside the log (the subjects it involves and the unindexed tail; the whole
  /// log when there is no usable index), written all or nothing and fsynced, and the index is
  /// brought up to date if it was checked with the same catalog (an index of another catalog is
  /// left as it is). Events already in the log are skipped; events without `recorded` are
  /// stamped with the current time.
  /// - Throws: every problem found; the log is then unchanged.
  /// - Complexity: O(batch + events of the subjects involved + unindexed tail) with a usable index.
  public static func append(
    _ events: [NewEvent], logPath: String, catalogPath: String? = nil
  ) throws(DiagnosticList) -> AppendReport {
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath ?? LedgerLoader.defaultCatalogPath(forLog: logPath))
    var input: [UInt8] = []
    for event in events {
      event.appendLine(to: &input)
      input.append(10)
    }
    return try LogAppender.append(
      input: input, inputName: "<events>", logPath: logPath, catalog: catalog, now: PlatformFile.wallClockNow())
  }
}
