import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage
import Dispatch

// Store payloads into the ledger: the importers `storeledger import appstore|googleplay
// --append` runs, with the same options, then an append of their events.

/// How App Store signatures are checked: `import appstore`'s `--root`, `--bundle-id`,
/// `--app-apple-id` and `--no-verify` (Docs/verification.md).
public struct AppStoreVerificationOptions: Sendable {
  /// Root certificates (DER or PEM bytes) an intermediate must be issued by: Apple Root CA - G3
  /// for real data. Empty with `verifies` refuses every signed payload (no root to verify it).
  package var rootCertificates: [[UInt8]]
  /// When set, signed transactions and notifications must name this bundle id.
  package var bundleID: String?
  /// When set, signed Production notifications must name this App Apple ID.
  package var appAppleID: Int64?
  /// Whether signatures are verified; false imports decoded and signed payloads unchecked.
  package var verifies: Bool

  /// Verify against `rootCertificates`, with the optional app checks.
  public static func verify(rootCertificates: [[UInt8]], bundleID: String? = nil, appAppleID: Int64? = nil) -> Self {
    Self(rootCertificates: rootCertificates, bundleID: bundleID, appAppleID: appAppleID, verifies: true)
  }

  /// Verify nothing (`--no-verify`): for data your own server already verified, or tests.
  public static let skip = Self(rootCertificates: [], bundleID: nil, appAppleID: nil, verifies: false)

  /// What each root is called in diagnostics, by position (the command line's `--root` files);
  /// `rootCertificates[i]` where none is given.
  package var rootNames: [String] = []

  /// The importer's form, with a warning for each root that is not Apple Root CA - G3 (fine for
  /// a test CA, wrong for real data); a root that is not a certificate this verifier reads is bad
  /// input, named by its file when `rootNames` gives one.
  /// - Complexity: O(bytes of the roots).
  package func verification() throws(DiagnosticList) -> (verification: AppStoreVerification, warnings: [Diagnostic]) {
    guard verifies else { return (.skip, []) }
    var roots: [X509Certificate] = []
    var warnings: [Diagnostic] = []
    for (index, bytes) in rootCertificates.enumerated() {
      let file = rootNames.indices.contains(index) ? rootNames[index] : nil
      let name = file ?? "rootCertificates[\(index)]"
      switch AppStoreTrust.certificate(fromFile: bytes) {
      case .success(let root):
        let fingerprint = AppStoreTrust.fingerprint(root)
        if fingerprint != AppStoreTrust.appleRootCAG3SHA256 {
          warnings.append(
            Diagnostic(
              .rootNotApple(path: name, sha256: fingerprint, appleRootSHA256: AppStoreTrust.appleRootCAG3SHA256),
              severity: .warning))
        }
        roots.append(root)
      case .failure(let error):
        throw DiagnosticList([Diagnostic(file: file, .badRootCertificate(path: name, reason: error.reason))])
      }
    }
    return (.verify(AppStoreTrust(roots: roots, bundleId: bundleID, appAppleId: appAppleID)), warnings)
  }
}

/// How store payloads become events: the options of `storeledger import`.
public struct StoreImportOptions: Sendable {
  /// Subject per App Store `originalTransactionId` or Google Play purchase token, used when a
  /// purchase names no account (`appAccountToken`, `obfuscatedExternalAccountId`); `--subjects`.
  public var subjects: [String: String]
  /// App Store: also import Sandbox and LocalTesting data (`--allow-sandbox`).
  public var allowsSandbox: Bool
  /// App Store: also import StoreKit Testing in Xcode data, never verified (its events carry
  /// `meta.verified: false`; `--allow-xcode`).
  public var allowsXcode: Bool
  /// Google Play: also import license testers' purchases (`--allow-test`).
  public var allowsTestPurchases: Bool
  /// App Store: how signatures are checked; by default verified against no root, so signed
  /// data needs `.verify(rootCertificates:)` and decoded data `.skip`.
  public var appStoreVerification: AppStoreVerificationOptions
  /// Google Play: let a revocation notification revoke without the voided purchases list
  /// (`--trust-notifications`; Docs/import-googleplay.md says what each input is trusted for).
  public var trustsGooglePlayNotifications: Bool
  /// Google Play, for a backend that receives no notifications: a renewal without its
  /// `SUBSCRIPTION_RENEWED`/`RECOVERED` begins where the previous period ended instead of
  /// waiting for it (`--renewals-from-resources`; wrong after an account hold).
  public var startsGooglePlayRenewalsAtPreviousEnd: Bool

  /// Options refusing sandbox and test data, subjects from the payloads.
  public init(
    subjects: [String: String] = [:], allowsSandbox: Bool = false, allowsXcode: Bool = false,
    allowsTestPurchases: Bool = false,
    appStoreVerification: AppStoreVerificationOptions = .verify(rootCertificates: []),
    trustsGooglePlayNotifications: Bool = false, startsGooglePlayRenewalsAtPreviousEnd: Bool = false
  ) {
    self.subjects = subjects
    self.allowsSandbox = allowsSandbox
    self.allowsXcode = allowsXcode
    self.allowsTestPurchases = allowsTestPurchases
    self.appStoreVerification = appStoreVerification
    self.trustsGooglePlayNotifications = trustsGooglePlayNotifications
    self.startsGooglePlayRenewalsAtPreviousEnd = startsGooglePlayRenewalsAtPreviousEnd
  }

  /// The importer of `source` with these options, and the warnings about the App Store roots;
  /// `importedAt` is the knowledge time of Google Play documents without their own (nil: known
  /// from `at`).
  /// - Throws: a root that is not a certificate.
  package func importer(
    _ source: StoreImport.Source, importedAt: Timestamp?
  ) throws(DiagnosticList) -> (importer: StoreImport.Importer, warnings: [Diagnostic]) {
    switch source {
    case .appStore:
      let (verification, warnings) = try appStoreVerification.verification()
      let options = AppStoreImportOptions(
        subjects: subjects, allowsSandbox: allowsSandbox, allowsXcode: allowsXcode, verification: verification)
      return (.appStore(options), warnings)
    case .googlePlay:
      let options = GooglePlayImportOptions(
        subjects: subjects, allowsTestPurchases: allowsTestPurchases, importedAt: importedAt,
        trustsNotifications: trustsGooglePlayNotifications,
        startsRenewalsAtPreviousEnd: startsGooglePlayRenewalsAtPreviousEnd)
      return (.googlePlay(options), [])
    }
  }
}

/// What an import did.
public struct ImportReport: Sendable, Equatable {
  /// The append of the events: appended, already present, warnings about them.
  public var append: AppendReport
  /// Events the payloads produced (after collapsing copies of one event).
  public var events: Int
  /// The subjects of those events, each once, sorted.
  public var subjects: [SubjectID]
  /// Those of `subjects` whose answer now (by the store's clock) differs from before the import.
  public var accessChanged: [SubjectID]
  /// Payloads that change no entitlement, by notification type or kind.
  public var skipped: [String: Int]
  /// What the importer tolerated (unknown notification types and values), by input line.
  public var warnings: [Diagnostic]
}

extension LedgerStore {
  /// Imports App Store data (Server Notifications V2, decoded or as `signedPayload`;
  /// transactions; Server API responses) as `storeledger import appstore --append` does,
  /// all or nothing. Docs/import-appstore.md has every mapping.
  /// - Throws: every problem in the payloads (input `<payload>`) or in the resulting batch.
  /// - Complexity: O(payloads + events of the subjects involved), plus an append.
  public func importAppStore(_ payloads: String, options: StoreImportOptions = StoreImportOptions())
    throws(DiagnosticList) -> ImportReport
  {
    try importPayloads(payloads, from: .appStore, options: options)
  }

  /// Imports Google Play data (Pub/Sub push envelopes, DeveloperNotifications, stored
  /// `subscriptionsv2` / `products` resources, voided purchases) as `storeledger import
  /// googleplay --append` does, all or nothing, keeping the documents beside a log file
  /// (`LOG.googleplay-documents.jsonl`, with its record; an in-memory ledger keeps none).
  /// Docs/import-googleplay.md has every mapping.
  /// - Throws: every problem in the payloads (input `<payload>`) or in the resulting batch;
  ///   `googleplay_documents_damaged` when the kept documents were lost, truncated or replaced.
  /// - Complexity: O(payloads + log + kept documents), the log read for the purchase tokens it
  ///   already holds, the kept documents for the tokens the payloads name.
  public func importGooglePlay(_ payloads: String, options: StoreImportOptions = StoreImportOptions())
    throws(DiagnosticList) -> ImportReport
  {
    try importPayloads(payloads, from: .googlePlay, options: options)
  }

  /// `importAppStore` on a Dispatch queue.
  public func importAppStore(_ payloads: String, options: StoreImportOptions = StoreImportOptions()) async
    throws(DiagnosticList) -> ImportReport
  {
    try await offPool { () throws(DiagnosticList) in try self.importAppStore(payloads, options: options) }
  }

  /// `importGooglePlay` on a Dispatch queue.
  public func importGooglePlay(_ payloads: String, options: StoreImportOptions = StoreImportOptions()) async
    throws(DiagnosticList) -> ImportReport
  {
    try await offPool { () throws(DiagnosticList) in try self.importGooglePlay(payloads, options: options) }
  }

  private func importPayloads(_ payloads: String, from source: StoreImport.Source, options: StoreImportOptions)
    throws(DiagnosticList) -> ImportReport
  {
    guard source == .googlePlay && !isInMemory else {
      return try commitImport(try decideImport(payloads, from: source, options: options, kept: []))
    }
    // One Google Play import into a log at a time, from reading what the log and its kept
    // documents know until its events are appended and its documents recorded, as `import
    // googleplay --append` does (`GooglePlayDocumentFile+Import.swift`).
    return try DiagnosticList.collecting(path: GooglePlayDocumentFile.path(log: logPath), writing: true) {
      let (report, warnings) = try GooglePlayDocumentFile.importing(
        log: logPath, wait: lockWait, notice: nil,
        decide: { kept in try self.decideImport(payloads, from: source, options: options, kept: kept) },
        commit: { result in try self.commitImport(result) })
      var withWarnings = report
      withWarnings.warnings += warnings
      return withWarnings
    }
  }

  /// Runs the store's importer on `payloads`, given what the log knows and, for Google Play on a
  /// log file, the documents kept beside it (`kept`).
  private func decideImport(
    _ payloads: String, from source: StoreImport.Source, options: StoreImportOptions, kept: [UInt8]
  ) throws(DiagnosticList) -> ImportResult {
    // What the ledger already knows, so a payload adds only new facts (Docs/import-googleplay.md).
    let knowledge = try knownLog()
    // The roots' warnings are the command line's to print; the library's caller chose its roots.
    let importer = try options.importer(source, importedAt: clock.now()).importer
    return try StoreImport.result(
      payloads, file: "<payload>", importer: importer, keptDocuments: kept, catalog: catalog, knowledge: knowledge,
      logPath: isInMemory ? nil : logPath)
  }

  /// What the log knows, for an import: what this store's earlier imports learned, extended with
  /// the lines committed since (`LogPrefix`), or the whole log the first time and whenever it
  /// was replaced or cut (an erasure, another process's repair).
  /// - Complexity: O(lines committed since the last import); O(log) the first time.
  private func knownLog() throws(DiagnosticList) -> LedgerKnowledge {
    // Taken, not copied: learning extends the only copy. An import running meanwhile finds none
    // and reads the whole log, as every import did before.
    var kept = importKnowledge.take()
    let read: (lines: ArraySlice<UInt8>, fromStart: Bool, prefix: LogPrefix)
    if isInMemory {
      appending.wait()
      let log = memoryLog
      appending.signal()
      read = LogPrefix.lines(of: log, after: kept?.prefix)
    } else {
      guard PlatformFile.exists(logPath) else { return LedgerKnowledge() }
      do throws(Diagnostic) {
        read = try LedgerLoader.readCommittedLines(logPath, after: kept?.prefix)
      } catch {
        throw DiagnosticList([error])
      }
    }
    var knowledge = read.fromStart ? LedgerKnowledge() : kept.take()?.knowledge ?? LedgerKnowledge()
    let linesRead = knowledge.linesRead
    knowledge.learn(lines: read.lines.split(separator: 10))
    LineParses.noteTypedLines(knowledge.linesRead - linesRead)
    importKnowledge.put(knowledge, prefix: read.prefix)
    return knowledge
  }

  /// Appends the events of `result` and says whose access changed.
  private func commitImport(_ result: ImportResult) throws(DiagnosticList) -> ImportReport {
    // Parsed once: the subjects come from the typed events, which the append then admits.
    let batch = AppendBatch(parsing: Array(result.eventLines.map { $0 + "\n" }.joined().utf8), catalog: catalog)
    let subjects = Set(batch.events.map { SubjectID(rawValue: batch.symbols.subjects.string($0.loadingSubject)) })
    let touched = subjects.sorted { $0.rawValue < $1.rawValue }
    let now = clock.now()
    let before = touched.map { answer(for: $0, at: now) }
    // Importers' events carry their own knowledge time (the store's signing time): no stamp.
    let appended = try append(batch, named: "<payload>", now: nil)
    let changed = zip(touched, before).filter { answer(for: $0.0, at: now) != $0.1 }.map(\.0)
    return ImportReport(
      append: appended, events: result.eventLines.count, subjects: touched, accessChanged: changed,
      skipped: result.skipped, warnings: result.warnings)
  }
}

/// The log as `storeledger import … --append` reads it: once, for what the importer must know
/// of it (`LedgerKnowledge`) and for the append's check of the batch (Docs/architecture.md,
/// "How often an appended line is parsed").
///
/// The load that builds the append's ledger keeps the text of the lines that may tell the
/// importer something (`KeptLines` with `LedgerKnowledge.lineMarkers`), and the knowledge is
/// learned from them; the append then checks its batch against that load when the log is still
/// the file and the length it read, and loads it again under its lock only when it is not (an
/// append or an erasure in between).
package struct ImportLogRead {
  /// What the log already knows, for the importer.
  package private(set) var knowledge = LedgerKnowledge()
  /// The log loaded for the append, where the read ended, and which file it was; nil when the
  /// log does not exist or the loader refused it (the append then loads it under its lock and
  /// words the refusal as `storeledger append` does).
  private var loaded: (builder: LedgerBuilder, extent: LogExtent, identity: FileIdentity)? = nil

  /// Nothing read: an import into a new log, `--out` or stdout.
  package init() {}

  /// Reads the log at `logPath` (nothing when it does not exist yet); only what is committed, so
  /// a batch a crashed appender left is not known.
  /// - Complexity: O(log).
  package static func read(logPath: String, catalog: Catalog) throws(Diagnostic) -> ImportLogRead {
    var read = ImportLogRead()
    guard PlatformFile.exists(logPath) else { return read }
    let file = try PlatformFile(path: logPath, mode: .read)
    guard file.entryKind() == .regular else {
      throw Diagnostic(file: logPath, .cannotRead(path: logPath, reason: "not a regular file (a log is read at offsets)"))
    }
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    builder.keptLines = KeptLines(markers: LedgerKnowledge.lineMarkers)
    do {
      let extent = try LedgerLoader.feed(&builder, path: logPath)
      read.knowledge = LedgerKnowledge.learning(lines: builder.keptLines?.lines ?? [])
      LineParses.noteTypedLines(read.knowledge.linesRead)
      builder.keptLines = nil
      if let identity = file.identity() { read.loaded = (builder, extent, identity) }
    } catch {
      // A log the loader refuses (not JSON lines) is refused by the append, under its lock and
      // worded as ever; meanwhile the importer learns what its text says, as it always did.
      read.knowledge = LedgerKnowledge.read(log: try LedgerLoader.readCommitted(logPath))
      LineParses.noteTypedLines(read.knowledge.linesRead)
    }
    return read
  }

  /// Appends an import's event lines (`input`, named `inputName`) to the log at `logPath`, all or
  /// nothing, keeping the index beside it; the batch is checked against the log this value read,
  /// which it hands over (when it changed since, the append reads it under the lock, through the index if it has one).
  /// - Complexity: O(batch) plus the builder's finish; as `LogAppender.append(input:…)` when the log changed since the read.
  package mutating func append(
    _ input: [UInt8], inputName: String, logPath: String, catalog: Catalog, wait: LogLock.Wait,
    waitNotice: ((String) -> Void)?
  ) throws(DiagnosticList) -> AppendReport {
    guard let (builder, extent, identity) = loaded else {
      return try LogAppender.append(
        input: input, inputName: inputName, logPath: logPath, catalog: catalog, now: nil, wait: wait,
        waitNotice: waitNotice)
    }
    // Handed over, so the admission mutates the only copy of the loaded ledger.
    loaded = nil
    var unused: LedgerBuilder? = consume builder
    let batch = AppendBatch(parsing: input, catalog: catalog)
    return try LogAppender.append(
      batch, inputName: inputName, logPath: logPath, catalog: catalog, now: nil, wait: wait, waitNotice: waitNotice,
      loaded: { log, size in
        guard log.identity() == identity, size == extent.completeBytes, let builder = unused.take() else { return nil }
        return (builder, extent.lineCount)
      })
  }
}

/// What an open store's imports learned of its log (`LedgerKnowledge`) and how far they read it
/// (`LogPrefix`), kept between imports so each reads only the lines committed since the last.
final class ImportKnowledgeCache: @unchecked Sendable {
  // The one mutable state, behind a semaphore (the library's layer uses Dispatch, not Synchronization).
  private let lock = DispatchSemaphore(value: 1)
  private var value: (knowledge: LedgerKnowledge, prefix: LogPrefix)? = nil

  /// Takes what is kept, leaving nothing (so its owner extends the only copy).
  func take() -> (knowledge: LedgerKnowledge, prefix: LogPrefix)? {
    lock.wait()
    defer { lock.signal() }
    return value.take()
  }

  /// Keeps `knowledge`, learned from the log up to `prefix`, unless something further along is kept already.
  func put(_ knowledge: LedgerKnowledge, prefix: LogPrefix) {
    lock.wait()
    defer { lock.signal() }
    if let value, value.prefix.identity == prefix.identity, value.prefix.length >= prefix.length { return }
    value = (knowledge, prefix)
  }
}
