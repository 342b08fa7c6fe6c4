import StoreLedgerCore

/// How a Google Play import assigns subjects and whether it accepts test purchases.
package struct GooglePlayImportOptions: Sendable {
  /// Subject per purchase token (any token of a subscription's chain, or a one-time
  /// product's), used when the purchase has no `obfuscatedExternalAccountId`.
  package var subjects: [String: String]
  /// Whether license testers' purchases (`testPurchase`, `purchaseType` 0) are imported.
  package var allowsTestPurchases: Bool
  /// Subscription tokens an earlier import already wrote to the log, with the original
  /// transaction and subject they got there (`LedgerKnowledge.googlePlayTokens`): a chain that reaches one
  /// of them continues it, even when its older tokens are not in this import.
  package var knownTokens: [String: GooglePlayKnownToken]
  /// The import's clock: the knowledge time (`recorded`) of what a document without its own
  /// (`publishTime`, `fetchTime`) says; nil leaves `recorded` out (known from `at`).
  package var importedAt: Timestamp?
  /// Whether a notification alone may revoke (`SUBSCRIPTION_REVOKED`,
  /// `voidedPurchaseNotification` without the `voidedpurchases.list` entry): notifications
  /// carry no signature of their own, so by default only fetched resources change access.
  package var trustsNotifications: Bool
  /// Whether a renewal without its `SUBSCRIPTION_RENEWED`/`RECOVERED` notification begins where
  /// the previous period ended (`--renewals-from-resources`, for a backend that polls resources
  /// and receives no notifications) instead of waiting for it: a recovery after an account hold
  /// then begins too early, and the answers depend on the order documents arrive in.
  package var startsRenewalsAtPreviousEnd: Bool

  /// Creates options; by default test purchases are refused, subjects default to
  /// `googleplay:<first purchase token>` and notifications alone revoke nothing.
  package init(
    subjects: [String: String] = [:], allowsTestPurchases: Bool = false,
    knownTokens: [String: GooglePlayKnownToken] = [:], importedAt: Timestamp? = nil,
    trustsNotifications: Bool = false, startsRenewalsAtPreviousEnd: Bool = false
  ) {
    self.subjects = subjects
    self.allowsTestPurchases = allowsTestPurchases
    self.knownTokens = knownTokens
    self.importedAt = importedAt
    self.trustsNotifications = trustsNotifications
    self.startsRenewalsAtPreviousEnd = startsRenewalsAtPreviousEnd
  }
}

/// How an earlier import identified a subscription token: its chain's first token and subject.
package struct GooglePlayKnownToken: Sendable, Equatable {
  /// The `original_transaction` of the token's events.
  package var originalTransaction: String
  /// The `subject` of the token's events.
  package var subject: String

  /// Creates a known token.
  package init(originalTransaction: String, subject: String) {
    self.originalTransaction = originalTransaction
    self.subject = subject
  }
}

/// Imports Google Play data (real-time developer notifications, stored
/// `purchases.subscriptionsv2` and `purchases.products` resources, `voidedpurchases.list`
/// responses) as ledger events. Pure: no files, no clock, no environment.
///
/// Nothing is signed: fetched resources are trusted for grants and voided purchase lists for
/// revocations; a notification alone grants nothing and revokes only with
/// `trustsNotifications` (Docs/import-googleplay.md, "What each input is trusted for").
package enum GooglePlayImporter {
  /// Translates every payload of `inputText` into ledger event lines.
  ///
  /// `inputText` holds one JSON document per line, a JSON array of them, or a single
  /// (pretty-printed) document, in any mix and order: Pub/Sub push envelopes or pull
  /// responses, decoded `DeveloperNotification`s, `{"packageName", "purchaseToken",
  /// "subscriptionPurchaseV2"}` and `{"packageName", "purchaseToken", "productId",
  /// "productPurchase"}` resources, and `voidedpurchases.list` responses. The result depends
  /// neither on the order of the payloads nor on repeats of them. What `knowledge` holds (an
  /// earlier import into the same log) continues here: known tokens keep their subscription,
  /// known orders their periods, and known events are not written again. The documents
  /// kept beside the log (`documentStore`, see `GooglePlayDocumentStore`) that are about the
  /// input's purchase tokens are imported with it, and `documentLines` says what the store
  /// gains.
  /// - Throws: every error found (with `file`, input line and field); nothing is returned
  ///   partially. Warnings found along the way are included in the thrown list.
  /// - Complexity: O(n log n) in the number of payloads.
  package static func importEvents(
    _ inputText: String, file: String, catalog: Catalog, options: GooglePlayImportOptions,
    knowledge: LedgerKnowledge = LedgerKnowledge(), documentStore: [UInt8] = []
  ) throws(DiagnosticList) -> ImportResult {
    var options = options
    options.knownTokens.merge(knowledge.googlePlayTokens) { given, _ in given }
    var problems = ImportProblems(file: file)
    let (documents, syntaxErrors) = ImportInput.documents(
      in: inputText, file: file, acceptsJWS: false)
    problems.errors += syntaxErrors
    var payloads = GooglePlayDocuments.payloads(in: documents, &problems)
    // Documents kept from earlier imports come after the input's own lines.
    let firstKeptLine = (documents.map(\.line).max() ?? 0) + 1
    let kept = keptDocuments(for: payloads, store: documentStore, firstLine: firstKeptLine)
    payloads += kept.payloads
    var mapper = GooglePlayMapper(
      catalog: catalog, options: options, problems: problems, knowledge: knowledge)
    mapper.map(payloads)
    problems = mapper.problems
    // What a kept document says was reported when it was first imported.
    problems.warnings.removeAll { ($0.line ?? 0) >= firstKeptLine }
    // Only where documents are kept: a log whose lists are never polled misses refunds.
    if !documentStore.isEmpty,
      let stale = staleVoidedListWarning(
        documents: documents, payloads: payloads.filter { $0.line < firstKeptLine }, store: documentStore,
        importedAt: options.importedAt)
    {
      problems.warning(stale.line, stale.message)
    }
    var result = try ImportResult.assemble(
      events: mapper.events, skipped: mapper.skipped, problems: &problems, knowledge: knowledge)
    result.documentLines = storeLines(documents, payloads: payloads, kept: kept.lines)
    // Each list poll is kept too (an empty list says nothing was voided, as of then).
    let keptPolls = Set(GooglePlayDocumentStore.lines(in: documentStore, tokens: [voidedPollToken]))
    for poll in voidedPolls(in: documents) {
      let line = GooglePlayDocumentStore.line(token: voidedPollToken, document: poll.document)
      if !keptPolls.contains(line), !result.documentLines.contains(line) { result.documentLines.append(line) }
    }
    // Plans are product configuration, about no token: kept under their own pseudo token.
    let keptPlans = Set(GooglePlayDocumentStore.lines(in: documentStore, tokens: [plansToken]))
    for document in documents {
      for part in GooglePlayDocuments.storedParts(of: document.value) where part["basePlans"] != nil {
        let line = GooglePlayDocumentStore.line(token: plansToken, document: part)
        if !keptPlans.contains(line), !result.documentLines.contains(line) { result.documentLines.append(line) }
      }
    }
    result.priceChanges = mapper.priceChanges.mapValues(\.count)
    result.waitingDocuments = mapper.deferredLines.count
    result.alreadyKnown += mapper.knownCharges
    result.knownPurchaseTokens = knowledge.googlePlayTokens.count
    result.transfers = mapper.transferNotes.filter { knowledge.events[EventID(rawValue: $0.key)] == nil }.values.sorted()
    return result
  }

  /// The payloads of the kept documents about the tokens `payloads` name, and the tokens
  /// they link to (until no new token appears), numbered from `firstLine`; and their lines.
  /// - Complexity: O(r · s) for r rounds of links over a store of s bytes (r is 1 unless
  ///   kept resources link to tokens not named yet).
  private static func keptDocuments(
    for payloads: [GooglePlayPayload], store: [UInt8], firstLine: Int
  ) -> (payloads: [GooglePlayPayload], lines: Set<String>) {
    guard !store.isEmpty else { return ([], []) }
    var tokens = Set(payloads.flatMap(\.tokens))
    var lines: [String] = []
    var found: [GooglePlayPayload] = []
    var scratch = ImportProblems(file: "")
    while true {
      let more = GooglePlayDocumentStore.lines(in: store, tokens: tokens)
        .filter { !Set(lines).contains($0) }
      guard !more.isEmpty else { break }
      let documents = more.enumerated().compactMap { index, line in
        GooglePlayDocumentStore.document(ofLine: line).map {
          InputDocument(line: firstLine + lines.count + index, value: $0)
        }
      }
      lines += more
      let parsed = GooglePlayDocuments.payloads(in: documents, &scratch)
      found += parsed
      let linked = Set(parsed.flatMap(\.tokens)).subtracting(tokens)
      guard !linked.isEmpty else { break }
      tokens.formUnion(linked)
    }
    return (found, Set(lines))
  }

  /// The lines the store gains from this import: each input document (a pull response per
  /// message, a voided purchases list per entry) under each token it is about, unless kept.
  /// - Complexity: O(n) in the size of the input.
  private static func storeLines(
    _ documents: [InputDocument], payloads: [GooglePlayPayload], kept: Set<String>
  ) -> [String] {
    var tokensByLine: [Int: [String]] = [:]
    for payload in payloads { tokensByLine[payload.line, default: []] += payload.ownTokens }
    var scratch = ImportProblems(file: "")
    var added: Set<String> = []
    var lines: [String] = []
    for document in documents {
      let parts = GooglePlayDocuments.storedParts(of: document.value)
      for part in parts {
        let tokens =
          parts.count == 1
          ? tokensByLine[document.line] ?? []
          : GooglePlayDocuments.payloads(
            in: [InputDocument(line: document.line, value: part)], &scratch
          ).flatMap(\.ownTokens)
        for token in Set(tokens).sorted() {
          let line = GooglePlayDocumentStore.line(token: token, document: part)
          if !kept.contains(line) && added.insert(line).inserted { lines.append(line) }
        }
      }
    }
    return lines
  }
}
