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

  /// Creates options; by default test purchases are refused, subjects default to
  /// `googleplay:<first purchase token>` and notifications alone revoke nothing.
  package init(
    subjects: [String: String] = [:], allowsTestPurchases: Bool = false,
    knownTokens: [String: GooglePlayKnownToken] = [:], importedAt: Timestamp? = nil,
    trustsNotifications: Bool = false
  ) {
    self.subjects = subjects
    self.allowsTestPurchases = allowsTestPurchases
    self.knownTokens = knownTokens
    self.importedAt = importedAt
    self.trustsNotifications = trustsNotifications
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
  /// known orders their periods, and known events are not written again.
  /// - Throws: every error found (with `file`, input line and field); nothing is returned
  ///   partially. Warnings found along the way are included in the thrown list.
  /// - Complexity: O(n log n) in the number of payloads.
  package static func importEvents(
    _ inputText: String, file: String, catalog: Catalog, options: GooglePlayImportOptions,
    knowledge: LedgerKnowledge = LedgerKnowledge()
  ) throws(DiagnosticList) -> ImportResult {
    var options = options
    options.knownTokens.merge(knowledge.googlePlayTokens) { given, _ in given }
    var problems = ImportProblems(file: file)
    let (documents, syntaxErrors) = ImportInput.documents(
      in: inputText, file: file, acceptsJWS: false)
    problems.errors += syntaxErrors
    let payloads = GooglePlayDocuments.payloads(in: documents, &problems)
    var mapper = GooglePlayMapper(
      catalog: catalog, options: options, problems: problems, knowledge: knowledge)
    mapper.map(payloads)
    problems = mapper.problems
    return try ImportResult.assemble(
      events: mapper.events, skipped: mapper.skipped, problems: &problems, knowledge: knowledge)
  }
}
