import StoreLedger

/// `storeledger import appstore|googleplay [FILE|-] …`: store payloads into ledger events.
enum ImportCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "import", abstract: "Turn App Store or Google Play purchase data into ledger events.",
    usage: "import appstore|googleplay [<file|->] [--catalog <file>] [--append <log> | --out <file>] [--subjects <file>] [--allow-sandbox | --allow-test] [--allow-xcode] [--root <file>]... [--bundle-id <id>] [--app-apple-id <number>] [--no-verify] [--recorded-at <time> | --recorded-as-at] [--trust-notifications] [--renewals-from-resources] [--emit-catalog]",
    positionals: [("appstore|googleplay", "The source format."), ("<file|->", "Input; '-' or absent reads stdin.")],
    requiredPositionals: 1,
    options: [
      .value("append", "log", "Append the events to this log (validated, all or nothing, fsynced)."),
      .value("out", "file", "Write the events to this new file instead of stdout."),
      .value("subjects", "file", "JSON object mapping originalTransactionId or appTransactionId (App Store) or purchase token (Google Play) to subject."),
      .flag("allow-sandbox", "App Store: also import Sandbox and LocalTesting data (refused by default)."),
      .flag("allow-xcode", "App Store: also import StoreKit Testing in Xcode data, unverified (meta.verified false)."),
      .flag("allow-test", "Google Play: also import license testers' purchases (refused by default)."),
      .repeatedValue("root", "file", "App Store: verify signatures up to this root certificate (DER or PEM; repeatable). Default: $STORELEDGER_APPLE_ROOT."),
      .value("bundle-id", "id", "App Store: refuse signed transactions and notifications of another app."),
      .value("app-apple-id", "number", "App Store: refuse signed Production notifications of another app."),
      .flag("no-verify", "App Store: import without verifying signatures; decoded payloads accepted (the summary says so)."),
      .flag("emit-catalog", "Print a starting catalog from the payloads instead of events (App Store: not verified; Google Play: with each plan's period and its source, --append reads the plans kept beside the log)."),
      .value("recorded-at", "time", "Google Play: the knowledge time of documents without publishTime or fetchTime (default: now)."),
      .flag("recorded-as-at", "Google Play: documents without publishTime or fetchTime are known from each event's 'at' (a backfill)."),
      .flag("trust-notifications", "Google Play: let SUBSCRIPTION_REVOKED and voidedPurchaseNotification revoke without the voided purchases list."),
      .flag("renewals-from-resources", "Google Play, for a backend without notifications: a renewal begins where the previous period ended instead of waiting for SUBSCRIPTION_RENEWED/RECOVERED."),
      CommandSpec.tzOption,
      CommandSpec.catalogOption,
      CommandSpec.waitOption,
    ],
    discussion: """
      appstore reads any mix, one per line or as a JSON array, of: decoded transactions (StoreKit 2
      jsonRepresentation / JWSTransactionDecodedPayload), App Store Server Notifications V2
      (decoded or as the signedPayload JWS), and Get Transaction History / Get All Subscription
      Statuses / Get Notification History responses. Event ids derive from notificationUUID or
      transactionId, so importing the same data twice adds nothing. 'recorded' is Apple's
      signedDate. Subjects: appAccountToken, else --subjects, else
      appstore:app-transaction:<appTransactionId>, else appstore:<originalTransactionId>; a
      subscription or purchase keeps the subject it was first imported under, and a later token
      moves it with a transfer (RESCIND_CONSENT: a block by service consent).

      Signatures are verified as Apple's libraries verify them: each JWS (nested ones too) must be
      ES256 with an x5c chain whose intermediate was issued by a --root, valid at the payload's
      signedDate. Get Apple Root CA - G3 from https://www.apple.com/certificateauthority/
      (SHA-256 63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179). A decoded
      payload cannot be verified and is refused unless --no-verify. Any failure imports nothing.
      --emit-catalog decodes without verifying. The payload environment is kept in each event's
      meta. Xcode data (StoreKit Testing) needs --allow-xcode and is never verified: its events
      carry meta.verified false. See Docs/verification.md and Docs/import-appstore.md.

      googleplay reads any mix of Pub/Sub push envelopes (base64 message.data, or that data
      alone on a line), decoded DeveloperNotifications, stored resources {"packageName",
      "purchaseToken", "subscriptionPurchaseV2" | "productId" + "productPurchase" |
      "productPurchaseV2"},
      voidedpurchases.list responses, Orders (orders.get, orders.batchget), which price the
      charges of their order ids (total, tax, proceeds), and monetization.subscriptions
      documents (get, list), whose base plans' billing periods --emit-catalog drafts as each
      plan's period (else inferred from full-price charges' lengths; a note says which). Event ids derive from order ids (and purchase tokens); tokens chained through
      linkedPurchaseToken share one original_transaction. Subjects: obfuscatedExternalAccountId,
      else --subjects, else googleplay:<first purchase token>. 'recorded' is the push's
      publishTime, a stored resource's fetchTime, else --recorded-at (default now). Resources
      are trusted; a notification alone never grants, and revokes only with
      --trust-notifications. See Docs/import-googleplay.md.

      With --append, an import adds only what the log does not know yet (events by id,
      transactions already charged), so data can be imported as it arrives, run after run.
      Google Play documents are kept beside the log (LOG.googleplay-documents.jsonl) and read
      again with every later document about the same purchase; LOG.googleplay-documents.record
      says what the file held, and an import refuses (exit 65) when it was lost, truncated,
      replaced or damaged.
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let source = arguments.positionals[0]
    guard source == "appstore" || source == "googleplay" else {
      throw UsageError(message: "Unknown import source '\(source)'; expected 'appstore' or 'googleplay'.")
    }
    let isGooglePlay = source == "googleplay"
    try checkOptions(arguments, source: source)
    let inputName = arguments.positionals.count > 1 ? arguments.positionals[1] : "-"
    let displayName = inputName == "-" ? "<stdin>" : inputName
    let appendLog = arguments.value("append")
    let out = arguments.value("out")
    if appendLog != nil && out != nil {
      throw UsageError(message: "Give at most one of '--append <log>' and '--out <file>'.")
    }
    let input = try CommandSupport.input(inputName, console: console)
    let text = try utf8Text(input, displayName: displayName)
    if arguments.has("emit-catalog") {
      return try emitCatalog(text, displayName: displayName, isGooglePlay: isGooglePlay, appendLog: appendLog, out: out, console: console)
    }
    let options = try importOptions(arguments, isGooglePlay: isGooglePlay, console: console)
    // App Store roots are read and checked before anything else is; Google Play's knowledge time
    // (`--recorded-at`, or now) is taken when the import decides, under its lock.
    let appStoreImporter = isGooglePlay ? nil : try importer(options, .appStore, importedAt: nil, console: console)
    let catalog: Catalog
    if let named = arguments.value("catalog") {
      catalog = try LedgerLoader.loadCatalog(path: named)
    } else if let written = appendLog ?? out {
      // The catalog beside the log written, worded as every command words a missing default.
      catalog = try CommandSupport.catalog(arguments, log: written, logMustExist: false)
    } else {
      throw UsageError(message: "Missing '--catalog <file>' (needed to know each product's type).")
    }
    // The log is read once: what the importer must know of it and the append's check both come
    // from this read (`ImportLogRead`).
    var logRead = ImportLogRead()
    let decide = { (kept: [UInt8]) throws -> ImportResult in
      logRead = try appendLog.map { (log) throws(Diagnostic) in try ImportLogRead.read(logPath: log, catalog: catalog) }
        ?? ImportLogRead()
      let importer = try appStoreImporter
        ?? importer(options, .googlePlay, importedAt: try importClock(arguments), console: console)
      return try StoreImport.result(
        text, file: displayName, importer: importer, keptDocuments: kept, catalog: catalog,
        knowledge: logRead.knowledge, logPath: appendLog)
    }
    let commit = { (result: ImportResult) throws -> Int32 in
      try write(
        result, displayName: displayName, catalog: catalog, arguments: arguments, isGooglePlay: isGooglePlay,
        appendLog: appendLog, logRead: &logRead, out: out, console: console)
    }
    guard isGooglePlay, let appendLog else { return try commit(try decide([])) }
    // One Google Play import into a log at a time, from reading what the log and its kept
    // documents know until its events are appended and its documents recorded; damaged kept
    // documents stop it (Docs/import-googleplay.md, "The record of the kept documents").
    let wait = try CommandSupport.lockWait(arguments)
    let (status, warnings) = try GooglePlayDocumentFile.importing(
      log: appendLog, wait: wait,
      notice: CommandSupport.waitNotice(console, log: GooglePlayDocumentFile.lockPath(log: appendLog)),
      decide: decide, commit: commit)
    CommandSupport.warn(warnings, console)
    return status
  }

  /// `--emit-catalog`: a draft catalog of the products the payloads name, written to `out` or
  /// stdout; nothing is imported.
  private static func emitCatalog(
    _ text: String, displayName: String, isGooglePlay: Bool, appendLog: String?, out: String?, console: Console
  ) throws -> Int32 {
    guard isGooglePlay else {
      let catalogText = try AppStoreImporter.emitCatalog(text, file: displayName)
      try emit(Array(catalogText.utf8), to: out, console: console)
      console.err("note: --emit-catalog read the payloads without verifying their signatures\n")
      return 0
    }
    // With --append, the plans kept beside the log state periods too; nothing is appended.
    let kept = try appendLog.map { (log) throws(Diagnostic) in try GooglePlayDocumentFile.read(log: log).bytes } ?? []
    let (catalogText, notes) = try GooglePlayImporter.emitCatalog(text, file: displayName, documentStore: kept)
    try emit(Array(catalogText.utf8), to: out, console: console)
    for note in notes { console.err("note: " + TerminalText.escaped(TerminalText.clipped(note, bytesMax: 400)) + "\n") }
    return 0
  }

  /// Writes the events of an import: appended to `appendLog`, to `out`, or to stdout.
  private static func write(
    _ result: ImportResult, displayName: String, catalog: Catalog, arguments: ParsedArguments,
    isGooglePlay: Bool, appendLog: String?, logRead: inout ImportLogRead, out: String?, console: Console
  ) throws -> Int32 {
    CommandSupport.warn(result.warnings, console)
    let counts = result.verification
    if counts.unverifiedPayloads > 0 {
      console.err("warning: --no-verify: \(counts.unverifiedPayloads) payload\(counts.unverifiedPayloads == 1 ? "" : "s") imported without verifying signatures\n")
    }
    let lines = Array(result.eventLines.map { $0 + "\n" }.joined().utf8)
    var summary = summaryText(result, displayName: displayName)
    if !isGooglePlay { summary += verificationSummary(counts, roots: arguments.values("root"), console: console) }
    if let appendLog {
      // Google Play documents were appended before (`GooglePlayDocumentFile.importing`), and
      // are taken back if this append is refused.
      let report = try logRead.append(
        lines, inputName: displayName, logPath: appendLog, catalog: catalog,
        wait: try CommandSupport.lockWait(arguments), waitNotice: CommandSupport.waitNotice(console, log: appendLog))
      if report.linesWritten > 0 { console.noteCommitted(to: appendLog) }
      console.outText(summary + "appended \(Plural.counted(report.appended, "event")) to \(appendLog) (\(report.duplicates) already present\(CommandSupport.learnedEarlierClause(report)))\n")
    } else if out != nil {
      try emit(lines, to: out, console: console)
      console.outText(summary)
    } else {
      console.outBytes(lines)
      console.err(summary)
    }
    return 0
  }

  /// Refuses options of the other store's importer.
  private static func checkOptions(_ arguments: ParsedArguments, source: String) throws {
    for (flag, owner) in [
      ("allow-sandbox", "appstore"), ("allow-xcode", "appstore"), ("allow-test", "googleplay"), ("no-verify", "appstore"),
      ("recorded-at", "googleplay"), ("recorded-as-at", "googleplay"), ("trust-notifications", "googleplay"),
      ("renewals-from-resources", "googleplay"),
    ]
    where arguments.has(flag) && owner != source {
      throw UsageError(message: "'--\(flag)' is for 'import \(owner)' only.")
    }
    for option in ["root", "bundle-id", "app-apple-id"]
    where (arguments.value(option) != nil || !arguments.values(option).isEmpty) && source != "appstore" {
      throw UsageError(message: "'--\(option)' is for 'import appstore' only.")
    }
  }

  /// The input as text; an error naming the first line that is not UTF-8.
  private static func utf8Text(_ input: [UInt8], displayName: String) throws -> String {
    if let text = String(validating: input, as: UTF8.self) { return text }
    var line = 1
    for bytes in input.split(separator: 10, omittingEmptySubsequences: false) {
      if String(validating: bytes, as: UTF8.self) == nil { break }
      line += 1
    }
    throw Diagnostic(file: displayName, line: line, .importFailed("line is not valid UTF-8"))
  }

  /// The summary of an import: events, collapsed and known ones, skipped payloads by type,
  /// environments and unknown values.
  private static func summaryText(_ result: ImportResult, displayName: String) -> String {
    var summary = "imported \(Plural.counted(result.eventLines.count, "event")) from \(displayName)"
    if result.duplicateCount > 0 { summary += " (\(Plural.counted(result.duplicateCount, "repeated payload")) collapsed)" }
    if result.alreadyKnown > 0 { summary += "; \(result.alreadyKnown) already in the log, not repeated" }
    summary += "\n"
    if result.waitingDocuments > 0 {
      let verb = result.waitingDocuments == 1 ? "waits for the documents it needs" : "wait for the documents they need"
      summary += "  \(Plural.counted(result.waitingDocuments, "document")) \(verb) (warned above)\n"
    }
    func listed(_ counts: [String: Int]) -> String {
      counts.sorted { $0.key < $1.key }.map { "\(TerminalText.clipped($0.key)) (\($0.value))" }.joined(separator: ", ")
    }
    let skipped = result.skipped.values.reduce(0, +)
    if skipped > 0 {
      summary += "  skipped \(skipped) payload\(skipped == 1 ? " that carries" : "s that carry") no purchase, by type: \(listed(result.skipped))\n"
    }
    if !result.priceChanges.isEmpty {
      summary += "  price changes the store reports, by state (no event records a consent: \"Price increases\" in Docs/import-*.md): \(listed(result.priceChanges))\n"
    }
    if !result.transfers.isEmpty {
      let shown = result.transfers.prefix(5).map { TerminalText.clipped($0, bytesMax: 400) }.joined(separator: "; ")
      let more = result.transfers.count > 5 ? "; and \(result.transfers.count - 5) more" : ""
      summary += "  moved \(Plural.counted(result.transfers.count, "unit")) to the account the store now names (transfer): \(shown)\(more)\n"
    }
    if !result.environments.isEmpty { summary += "  events by payload environment: \(listed(result.environments))\n" }
    if !result.unknownValues.isEmpty { summary += "  values this importer does not know (warned above): \(listed(result.unknownValues))\n" }
    return summary
  }

  /// The library's options for this import (`StoreImportOptions`), from the arguments.
  private static func importOptions(
    _ arguments: ParsedArguments, isGooglePlay: Bool, console: Console
  ) throws -> StoreImportOptions {
    StoreImportOptions(
      subjects: try arguments.value("subjects").map(subjectMap) ?? [:],
      allowsSandbox: arguments.has("allow-sandbox"), allowsXcode: arguments.has("allow-xcode"),
      allowsTestPurchases: arguments.has("allow-test"),
      appStoreVerification: isGooglePlay ? .skip : try verification(arguments, console: console),
      trustsGooglePlayNotifications: arguments.has("trust-notifications"),
      startsGooglePlayRenewalsAtPreviousEnd: arguments.has("renewals-from-resources"))
  }

  /// The importer of `source` the library makes from `options`, after warning about a root that
  /// is not Apple's.
  private static func importer(
    _ options: StoreImportOptions, _ source: StoreImport.Source, importedAt: Timestamp?, console: Console
  ) throws -> StoreImport.Importer {
    let (importer, warnings) = try options.importer(source, importedAt: importedAt)
    CommandSupport.warn(warnings, console)
    return importer
  }

  /// The trust `import appstore` verifies against: `--root` files (or `$STORELEDGER_APPLE_ROOT`),
  /// or nothing with `--no-verify`.
  private static func verification(_ arguments: ParsedArguments, console: Console) throws -> AppStoreVerificationOptions {
    let paths = rootPaths(arguments, console: console)
    let bundleID = arguments.value("bundle-id")
    let appAppleID = try arguments.value("app-apple-id").map { text in
      guard let number = Int64(text), number > 0 else {
        throw UsageError(message: "Invalid value for '--app-apple-id': '\(text)' (expected a positive integer).")
      }
      return number
    }
    if arguments.has("no-verify") {
      if let option = [("root", !arguments.values("root").isEmpty), ("bundle-id", bundleID != nil), ("app-apple-id", appAppleID != nil)].first(where: \.1)?.0 {
        throw UsageError(message: "'--\(option)' has no effect with '--no-verify': give one or the other.")
      }
      return .skip
    }
    var options = AppStoreVerificationOptions.verify(
      rootCertificates: try paths.map { (path) throws(Diagnostic) in try LedgerLoader.readFile(path) }, bundleID: bundleID,
      appAppleID: appAppleID)
    options.rootNames = paths
    return options
  }

  /// `--root` files, else the one `$STORELEDGER_APPLE_ROOT` names (when set and not empty).
  private static func rootPaths(_ arguments: ParsedArguments, console: Console) -> [String] {
    let given = arguments.values("root")
    if !given.isEmpty { return given }
    guard let fallback = console.environment("STORELEDGER_APPLE_ROOT"), !fallback.isEmpty else { return [] }
    return [fallback]
  }

  /// The summary lines that say what was verified, against which roots, or that nothing was.
  private static func verificationSummary(_ counts: ImportVerification, roots: [String], console: Console) -> String {
    let xcode =
      counts.xcodePayloads == 0
      ? ""
      : "  NOT VERIFIED: \(Plural.counted(counts.xcodePayloads, "Xcode payload")) (--allow-xcode: StoreKit Testing in Xcode signs with its own key; events marked meta.verified false)\n"
    return xcode + signatureSummary(counts, roots: roots, console: console)
  }

  /// The summary line of the payloads checked against roots, or of those not checked.
  private static func signatureSummary(_ counts: ImportVerification, roots: [String], console: Console) -> String {
    if counts.unverifiedPayloads > 0 {
      return "  NOT VERIFIED: \(counts.unverifiedPayloads) payload\(counts.unverifiedPayloads == 1 ? "" : "s") (--no-verify: signatures and certificate chains not checked)\n"
    }
    guard counts.verifiedPayloads > 0 else { return "" }
    let paths = roots.isEmpty ? rootPaths(ParsedArguments(), console: console) : roots
    let used = counts.rootsUsed.map { paths.indices.contains($0) ? paths[$0] : "#\($0)" }.joined(separator: ", ")
    return "  verified \(counts.verifiedPayloads) payload\(counts.verifiedPayloads == 1 ? "" : "s") (\(counts.verifiedSignatures) signature\(counts.verifiedSignatures == 1 ? "" : "s")) up to root \(used)\n"
  }

  /// The knowledge time of Google Play documents without their own: `--recorded-at`, nothing
  /// with `--recorded-as-at` (known from `at`), else now, as `append` stamps.
  private static func importClock(_ arguments: ParsedArguments) throws -> Timestamp? {
    switch (arguments.value("recorded-at"), arguments.has("recorded-as-at")) {
    case (.some, true):
      throw UsageError(message: "Give at most one of '--recorded-at <time>' and '--recorded-as-at'.")
    case (.some(let text), false):
      return try ArgumentParser.instant(text, option: "recorded-at", time: try ArgumentParser.timeInput(arguments))
    case (nil, true): return nil
    case (nil, false): return currentTimestamp()
    }
  }

  private static func emit(_ bytes: [UInt8], to path: String?, console: Console) throws {
    guard let path else {
      console.outBytes(bytes)
      return
    }
    guard !PlatformFile.exists(path) else {
      throw UsageError(message: "'\(path)' exists; choose a new file (or use --append for a log).")
    }
    let file = try PlatformFile(path: path, mode: .writeTruncate)
    try file.write(bytes)
    try file.sync()
  }

  private static func subjectMap(_ path: String) throws -> [String: String] {
    let bytes = try LedgerLoader.readFile(path)
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: bytes)
    } catch {
      throw Diagnostic(file: path, line: error.line, column: error.column, .invalidJSON(error.detail))
    }
    guard let members = value.objectMembers else {
      throw Diagnostic(file: path, .importFailed("expected a JSON object mapping originalTransactionId or purchase token to subject"))
    }
    var map: [String: String] = [:]
    for (key, subject) in members {
      guard let text = subject.stringValue, !text.isEmpty else {
        throw Diagnostic(file: path, .importFailed("subject for '\(key)' must be a non-empty string"))
      }
      map[key] = text
    }
    return map
  }
}
