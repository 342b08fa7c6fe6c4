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
    var engine = QueryEngine(ledger: try ledger(logPath: logPath, catalogPath: catalogPath, subject: subject))
    return engine.answer(subject: subject.rawValue, at: at, asOf: asOf)
  }

  /// Whether `subject` may use `feature` once more at `at` (`storeledger can`), without opening
  /// a ledger: through the index beside the log, as `answer(logPath:catalogPath:for:at:asOf:)` reads it.
  /// - Throws: `no_policy`, `unknown_feature`, and every problem of the log found on the way.
  /// - Complexity: O(log(index) + events of the subject + unindexed tail) with a usable index.
  public static func can(
    logPath: String, catalogPath: String? = nil, _ subject: SubjectID, use feature: FeatureID, at: Timestamp,
    asOf: Timestamp? = nil
  ) throws(DiagnosticList) -> FeaturePermission {
    let ledger = try ledger(logPath: logPath, catalogPath: catalogPath, subject: subject)
    guard let policy = ledger.catalog.policy else {
      throw DiagnosticList([Diagnostic(file: catalogPath ?? LedgerLoader.defaultCatalogPath(forLog: logPath), .noPolicy(what: "a feature check"))])
    }
    guard policy.featureIndex(of: feature.rawValue) != nil else {
      throw DiagnosticList([Diagnostic(.unknownFeature(feature: feature.rawValue, features: policy.features.map(\.name)))])
    }
    var engine = QueryEngine(ledger: ledger)
    guard let permission = engine.permission(subject: subject.rawValue, feature: feature.rawValue, at: at, asOf: asOf) else {
      preconditionFailure("the feature was checked against the same catalog")
    }
    return FeaturePermission(permission, feature: feature)
  }

  /// The ledger of `subject` read through the index, or the whole log when there is no usable index.
  private static func ledger(logPath: String, catalogPath: String?, subject: SubjectID) throws(DiagnosticList) -> Ledger {
    let catalogPath = catalogPath ?? LedgerLoader.defaultCatalogPath(forLog: logPath)
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    return try LedgerOpening.ledger(holding: [subject.rawValue], logPath: logPath, catalog: catalog, catalogPath: catalogPath).ledger
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
