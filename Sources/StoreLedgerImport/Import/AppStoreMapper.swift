import StoreLedgerCore

/// Turns App Store payloads into ledger events (the mapping table of Docs/import-appstore.md).
///
/// Pure: the result depends only on the payloads, the catalog and the options. Each payload is
/// mapped on its own, without looking at the others, which is what makes the result independent
/// of input order. Events implied by a transaction are a function of the transaction alone, so a
/// notification and the bare transaction it carries give byte-identical events.
struct AppStoreMapper: EventMapping {
  /// What a bad subject's message adds (see `EventMapping`).
  static let subjectHint = ""
  /// Whose ids event ids derive from (see `EventMapping`).
  static let idOrigin = "Apple's ids"
  /// Product types and family sharing come from here.
  let catalog: Catalog
  /// Subjects and the sandbox switch.
  let options: AppStoreImportOptions
  /// Everything that went wrong so far.
  var problems: ImportProblems
  /// The events produced, duplicates included (the importer collapses them).
  var events: [ImportedEvent] = []
  /// Skipped payloads by kind (notification type), each a set of payload identities so that
  /// redeliveries are counted once.
  var skipped: [String: Set<String>] = [:]
  /// Who each copy of a transferable unit's transaction names as its owner
  /// (`AppStoreMapper+Owners.swift` turns them into subjects and transfers).
  var ownerClaims: [AppStoreOwnerClaim] = []
  /// The transfers this import writes, by event id, in words for the summary.
  var transferNotes: [String: String] = [:]
  /// The subjects the transactions of each `appTransactionId` name (who a RESCIND_CONSENT
  /// blocks).
  var appTransactionSubjects: [String: Set<String>] = [:]
  /// RESCIND_CONSENT notifications, blocked once every transaction is mapped.
  var consentWithdrawals: [NotificationPayload] = []
  /// Price increases the renewal infos announce, by state (`PRICE_INCREASE awaiting consent`,
  /// `… accepted`), each a set of subscription and price so that copies count once.
  var priceChanges: [String: Set<String>] = [:]

  /// Creates a mapper.
  init(catalog: Catalog, options: AppStoreImportOptions, problems: ImportProblems) {
    self.catalog = catalog
    self.options = options
    self.problems = problems
  }

  /// Maps one payload, appending its events or its problems.
  mutating func map(_ payload: AppStorePayload) {
    switch payload {
    case .transaction(let transaction):
      _ = transactionEvents(transaction)
    case .notification(let notification):
      countPriceIncrease(
        notification.renewalInfo, originalTransactionID: notification.transaction?.originalTransactionID,
        line: notification.line)
      notificationEvents(notification)
    case .subscriptionStatus(let status):
      countPriceIncrease(
        status.renewalInfo, originalTransactionID: status.transaction.originalTransactionID, line: status.line)
      statusEvents(status)
    case .ignored(let kind, let line, let environment, let identity):
      guard isEnvironmentAllowed(environment, line: line, field: "environment", isRequired: false)
      else { return }
      skipped[kind, default: []].insert(identity)
    }
  }

  // MARK: - Shared rules

  /// Whether data from `environment` may be imported; reports the refusal when not.
  ///
  /// Only `Production` is imported by default: sandbox and Xcode purchases are not real money
  /// and would grant real access. A missing environment cannot be told apart from sandbox data,
  /// so it is refused the same way when `isRequired`.
  mutating func isEnvironmentAllowed(
    _ environment: String?, line: Int, field: String, isRequired: Bool
  ) -> Bool {
    guard let environment else {
      if !isRequired || options.allowsSandbox { return true }
      problems.error(
        line,
        "field '\(field)' is missing, so Production data cannot be told from Sandbox data; import it with sandbox data allowed (--allow-sandbox) if that is intended"
      )
      return false
    }
    if !AppStoreEnvironment.known.contains(environment) {
      problems.unknownValue(
        line, field: field, raw: .string(environment),
        consequence: "treated as non-Production data")
    }
    if environment == AppStoreEnvironment.xcode {
      if options.allowsXcode { return true }
      problems.error(
        line,
        "field '\(field)': Xcode data is refused: StoreKit Testing in Xcode signs it with its own key, never Apple's, so it is not real money and cannot be verified; import it with Xcode data allowed (--allow-xcode) if that is intended (its events are marked meta.verified false)"
      )
      return false
    }
    if environment == AppStoreEnvironment.production || options.allowsSandbox { return true }
    problems.error(
      line,
      "field '\(field)': \(environment) data is refused; import it with sandbox data allowed (--allow-sandbox)"
    )
    return false
  }

  /// The subject a transaction names (Docs/log-format.md: 1–256 characters).
  ///
  /// The app account token when the app set one; otherwise the caller's mapping of original
  /// transaction ids, then of app transaction ids; otherwise `appstore:app-transaction:<appTransactionId>` (one per Apple
  /// Account and app, so one customer's purchases share it); otherwise
  /// `appstore:<originalTransactionId>`, stable across renewals. A unit's events all carry the
  /// subject it was first imported under; another token makes a `transfer` (+Owners).
  mutating func subject(
    token: String?, originalTransactionID: String, appTransactionID: String? = nil, line: Int
  ) -> String? {
    let subject: String
    if let token, !token.isEmpty {
      subject = token
    } else if let mapped = options.subjects[originalTransactionID] {
      subject = mapped
    } else if let appTransactionID, let mapped = options.subjects[appTransactionID] {
      subject = mapped
    } else if let appTransactionID, !appTransactionID.isEmpty {
      subject = Self.appTransactionSubject(appTransactionID)
    } else {
      subject = "appstore:" + originalTransactionID
    }
    return checkedSubject(subject, source: "original transaction '\(originalTransactionID)'", line: line)
  }

  /// The subject of an Apple Account's purchases in one app, when no token names it.
  static func appTransactionSubject(_ appTransactionID: String) -> String {
    "appstore:app-transaction:" + appTransactionID
  }

  /// The `meta` every imported event starts with.
  func baseMeta(environment: String?) -> [(String, JSONValue)] {
    var meta: [(String, JSONValue)] = [("source", .string("appstore"))]
    if let environment { meta.append(("environment", .string(environment))) }
    // Xcode data is never verified (no Apple chain), in any mode: said in the event itself.
    if environment == AppStoreEnvironment.xcode { meta.append(("verified", .bool(false))) }
    return meta
  }

  /// The full name of a field below `path`.
  static func field(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }
}
