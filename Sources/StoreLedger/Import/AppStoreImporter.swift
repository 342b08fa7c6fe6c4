/// How an App Store import assigns subjects and which environments it accepts.
package struct AppStoreImportOptions: Sendable {
  /// Subject per `originalTransactionId`, used when a transaction has no `appAccountToken`.
  package var subjects: [String: String]
  /// Whether Sandbox, Xcode and LocalTesting data (and data without an environment) is imported.
  package var allowsSandbox: Bool

  /// Creates options; by default only Production data is imported and subjects default to
  /// `appstore:<originalTransactionId>`.
  package init(subjects: [String: String] = [:], allowsSandbox: Bool = false) {
    self.subjects = subjects
    self.allowsSandbox = allowsSandbox
  }
}

/// Imports App Store data (StoreKit 2 transactions, App Store Server Notifications V2, App Store
/// Server API responses) as ledger events. Pure: no files, no clock, no environment.
///
/// JWS signatures are **not verified**: the toolchain has no ECDSA on Linux and the package takes
/// no dependencies. Import only data fetched from Apple over TLS or verified upstream.
package enum AppStoreImporter {
  /// Translates every payload of `inputText` into ledger event lines.
  ///
  /// `inputText` holds one JSON document or JWS per line, a JSON array of them, or a single
  /// (pretty-printed) document: decoded transactions (`JWSTransactionDecodedPayload`, StoreKit 2's
  /// `jsonRepresentation`), notifications (`ResponseBodyV2DecodedPayload` or
  /// `{"signedPayload": JWS}`), Get Transaction History, Get Refund History, Get All
  /// Subscription Statuses, Get Notification History and Get Transaction Info responses.
  /// The result depends neither on the order of the payloads nor on repeats of them.
  /// Events `knowledge` already holds (an earlier import into the same log) are left out, so
  /// importing payloads one run at a time, in any order, adds what one run of them adds.
  /// - Throws: every error found (with `file`, input line and field); nothing is returned
  ///   partially. Warnings found along the way are included in the thrown list.
  /// - Complexity: O(n log n) in the number of payloads.
  package static func importEvents(
    _ inputText: String, file: String, catalog: Catalog, options: AppStoreImportOptions,
    knowledge: LedgerKnowledge = LedgerKnowledge()
  ) throws(DiagnosticList) -> ImportResult {
    var problems = ImportProblems(file: file)
    let (documents, syntaxErrors) = ImportInput.documents(in: inputText, file: file)
    problems.errors += syntaxErrors
    let payloads = AppStoreDocuments.payloads(in: documents, &problems)
    var mapper = AppStoreMapper(catalog: catalog, options: options, problems: problems)
    for payload in payloads { mapper.map(payload) }
    problems = mapper.problems
    return try ImportResult.assemble(
      events: mapper.events, skipped: mapper.skipped, problems: &problems, knowledge: knowledge)
  }
}
