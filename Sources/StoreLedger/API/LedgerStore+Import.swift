import Dispatch

// Store payloads into the ledger: the importers `storeledger import appstore|googleplay
// --append` runs, with the same options, then an append of their events.

/// How store payloads become events: the options of `storeledger import`.
public struct StoreImportOptions: Sendable {
  /// Subject per App Store `originalTransactionId` or Google Play purchase token, used when a
  /// purchase names no account (`appAccountToken`, `obfuscatedExternalAccountId`); `--subjects`.
  public var subjects: [String: String]
  /// App Store: also import Sandbox and Xcode data (`--allow-sandbox`).
  public var allowsSandbox: Bool
  /// Google Play: also import license testers' purchases (`--allow-test`).
  public var allowsTestPurchases: Bool

  /// Options refusing sandbox and test data, subjects from the payloads.
  public init(subjects: [String: String] = [:], allowsSandbox: Bool = false, allowsTestPurchases: Bool = false) {
    self.subjects = subjects
    self.allowsSandbox = allowsSandbox
    self.allowsTestPurchases = allowsTestPurchases
  }

  /// The App Store importer's options.
  var appStore: AppStoreImportOptions { AppStoreImportOptions(subjects: subjects, allowsSandbox: allowsSandbox) }

  /// The Google Play importer's options; `knownTokens` continues chains the log already holds.
  func googlePlay(knownTokens: [String: GooglePlayKnownToken]) -> GooglePlayImportOptions {
    GooglePlayImportOptions(subjects: subjects, allowsTestPurchases: allowsTestPurchases, knownTokens: knownTokens)
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

/// Which importer reads the payloads.
enum StoreSource: Sendable {
  case appStore
  case googlePlay
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
  /// googleplay --append` does, all or nothing. Docs/import-googleplay.md has every mapping.
  /// - Throws: every problem in the payloads (input `<payload>`) or in the resulting batch.
  /// - Complexity: O(payloads + log), the log read for the purchase tokens it already holds.
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

  private func importPayloads(_ payloads: String, from source: StoreSource, options: StoreImportOptions)
    throws(DiagnosticList) -> ImportReport
  {
    let name = "<payload>"
    let result: ImportResult
    switch source {
    case .appStore:
      result = try AppStoreImporter.importEvents(payloads, file: name, catalog: catalog, options: options.appStore)
    case .googlePlay:
      let log: [UInt8]
      if isInMemory {
        appending.wait()
        log = memoryLog
        appending.signal()
      } else {
        do throws(Diagnostic) {
          log = PlatformFile.exists(logPath) ? try LedgerLoader.readFile(logPath) : []
        } catch {
          throw DiagnosticList([error])
        }
      }
      result = try GooglePlayImporter.importEvents(
        payloads, file: name, catalog: catalog,
        options: options.googlePlay(knownTokens: GooglePlayImporter.knownTokens(inLog: log)))
    }
    var subjects = Set<SubjectID>()
    for line in result.eventLines {
      if let subject = (try? JSONValue.parse(line))?["subject"]?.stringValue { subjects.insert(SubjectID(rawValue: subject)) }
    }
    let touched = subjects.sorted { $0.rawValue < $1.rawValue }
    let now = clock.now()
    let before = touched.map { answer(for: $0, at: now) }
    // Importers' events carry their own knowledge time (the store's signing time): no stamp.
    let appended = try append(lines: Array(result.eventLines.map { $0 + "\n" }.joined().utf8), named: name, now: nil)
    let changed = zip(touched, before).filter { answer(for: $0.0, at: now) != $0.1 }.map(\.0)
    return ImportReport(
      append: appended, events: result.eventLines.count, subjects: touched, accessChanged: changed,
      skipped: result.skipped, warnings: result.warnings)
  }
}
