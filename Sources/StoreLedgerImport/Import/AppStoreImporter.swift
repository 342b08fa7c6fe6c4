import StoreLedgerCore

/// How an App Store import assigns subjects and which environments it accepts.
package struct AppStoreImportOptions: Sendable {
  /// Subject per `originalTransactionId` (or `appTransactionId`), used when a transaction has no
  /// `appAccountToken`.
  package var subjects: [String: String]
  /// Whether Sandbox and LocalTesting data (and data without an environment) is imported.
  package var allowsSandbox: Bool
  /// Whether Xcode data (StoreKit Testing in Xcode, signed by Xcode's own key) is imported,
  /// unverified and marked `meta.verified: false` (`--allow-xcode`).
  package var allowsXcode: Bool
  /// Whether and against what signatures are verified; no default, so that skipping
  /// verification is always written out.
  package var verification: AppStoreVerification

  /// Creates options; by default only Production data is imported and subjects default to
  /// `appstore:<originalTransactionId>`.
  package init(
    subjects: [String: String] = [:], allowsSandbox: Bool = false, allowsXcode: Bool = false,
    verification: AppStoreVerification
  ) {
    self.subjects = subjects
    self.allowsSandbox = allowsSandbox
    self.allowsXcode = allowsXcode
    self.verification = verification
  }
}

/// Imports App Store data (StoreKit 2 transactions, App Store Server Notifications V2, App Store
/// Server API responses) as ledger events. Pure: no files, no clock, no environment.
///
/// With `.verify`, every JWS is checked as Apple's libraries check it (Docs/verification.md) and
/// decoded payloads are refused; with `.skip`, JWS are decoded unverified.
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
    var verifier: AppStoreSignatureVerifier?
    if case .verify(let trust) = options.verification { verifier = AppStoreSignatureVerifier(trust: trust) }
    let payloads = AppStoreDocuments(verifier: verifier).payloads(in: documents, &problems)
    var mapper = AppStoreMapper(catalog: catalog, options: options, problems: problems)
    for payload in payloads { mapper.map(payload) }
    mapper.settleOwners(knowledge)
    mapper.blockWithdrawnConsents()
    problems = mapper.problems
    var result = try ImportResult.assemble(
      events: mapper.events, skipped: mapper.skipped, problems: &problems, knowledge: knowledge)
    // Xcode payloads are never verified, whatever the mode (Apple's verifier skips them too).
    let xcodePayloads = payloads.filter { $0.environment == AppStoreEnvironment.xcode }.count
    result.verification = ImportVerification(
      verifiedPayloads: verifier == nil ? 0 : payloads.count - xcodePayloads,
      unverifiedPayloads: verifier == nil ? payloads.count - xcodePayloads : 0,
      verifiedSignatures: verifier?.verifiedSignatures ?? 0,
      rootsUsed: verifier?.rootsUsed.sorted() ?? [], xcodePayloads: xcodePayloads)
    result.priceChanges = mapper.priceChanges.mapValues(\.count)
    // A transfer the log holds already is not written again, so not reported either.
    result.transfers = mapper.transferNotes.filter { knowledge.events[EventID(rawValue: $0.key)] == nil }.values.sorted()
    return result
  }
}
