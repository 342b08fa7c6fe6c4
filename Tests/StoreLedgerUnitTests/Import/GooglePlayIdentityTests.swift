import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Google Play identity (issue 35, contract v1.3 section 9): a purchase keeps the subject it was
/// first imported under; a new `obfuscatedExternalAccountId` is a `transfer` from the earliest
/// instant the store data shows it; a Play Store resubscription (`outOfAppPurchaseContext`)
/// joins its expired purchase's subject; a deferred plan change is a `plan_changed`.
@Suite("Google Play import: one customer stays one subject")
struct GooglePlayIdentityTests: GooglePlayIdentityFixture {
  typealias G = GP

  static let catalog = fixtureCatalog(catalogText)

  /// `document` with `fetchTime` first.
  static func fetched(_ document: String, _ time: String) -> String {
    #"{"fetchTime":"\#(time)","# + document.dropFirst()
  }

  /// `document` (a stored subscription resource) with `outOfAppPurchaseContext`.
  static func resubscribed(_ document: String, expired: String, account: String?) -> String {
    let ids = account.map { #","expiredExternalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#($0)"}"# } ?? ""
    return document.replacingOccurrences(
      of: #""subscriptionPurchaseV2":{"#,
      with: #""subscriptionPurchaseV2":{"outOfAppPurchaseContext":{"expiredPurchaseToken":"\#(expired)"\#(ids)},"#)
  }

  /// `document` (a stored subscription resource) whose line item will be replaced by `product`.
  static func replaced(_ document: String, by product: String) -> String {
    document.replacingOccurrences(
      of: #""lineItems":[{"#, with: #""lineItems":[{"deferredItemReplacement":{"productId":"\#(product)"},"#)
  }

  /// Imports `lines` in one run with the identity catalog.
  static func importEvents(_ lines: [String]) throws -> ImportResult {
    try GooglePlayImporter.importEvents(
      lines.joined(separator: "\n"), file: "input.jsonl", catalog: catalog, options: GooglePlayImportOptions())
  }

  /// Imports `runs` one after another into one log as `import --append` does (the log's
  /// knowledge, the kept documents, the append's checks); returns the log's lines.
  static func appendRuns(_ runs: [[String]]) throws -> [String] {
    let space = try Workspace()
    var store: [UInt8] = []
    for (index, run) in runs.enumerated() {
      let known = LedgerKnowledge.read(log: (try? Array(Data(contentsOf: URL(fileURLWithPath: space.log)))) ?? [])
      let result = try GooglePlayImporter.importEvents(
        run.joined(separator: "\n"), file: "run.jsonl", catalog: catalog, options: GooglePlayImportOptions(),
        knowledge: known, documentStore: store)
      _ = try LogAppender.append(
        input: Array(result.eventLines.map { $0 + "\n" }.joined().utf8), inputName: "run \(index)",
        logPath: space.log, catalog: catalog, now: nil)
      store += Array(result.documentLines.map { $0 + "\n" }.joined().utf8)
    }
    let text = (try? String(contentsOfFile: space.log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  static func engine(_ lines: [String]) throws -> QueryEngine {
    QueryEngine(ledger: try ledger(lines.joined(separator: "\n"), catalogText: catalogText))
  }

  static func transfers(_ lines: [String]) -> [JSONValue] {
    lines.compactMap { try? JSONValue.parse($0) }.filter { $0["type"] == .string("transfer") }
  }

  // MARK: - A new account on a subscription

  @Test(
    "a re-fetched copy naming another obfuscatedExternalAccountId moves the subscription from its fetchTime: the old account has it until then, the new one from then",
    arguments: [
      ("user-42", "2026-01-09T23:59:59.999Z", true), ("user-42", "2026-01-10T00:00:00Z", false),
      ("user-77", "2026-01-09T23:59:59.999Z", false), ("user-77", "2026-01-10T00:00:00Z", true),
      ("user-77", "2026-01-31T10:00:00Z", true), ("user-77", "2026-02-01T10:00:00Z", false),
    ])
  func refetchedAccount(subject: String, at instant: String, isEntitled: Bool) throws {
    let result = try Self.importEvents(Self.refetched)
    var engine = try Self.engine(result.eventLines)
    #expect((engine.checkedAnswer(subject, at: instant).entitlements["pro"] != nil) == isEntitled)
    // Every line of the subscription keeps its first subject; one transfer moves it.
    let purchase = try #require(G.events(result)["googleplay:\(G.orderA):purchase"])
    #expect(purchase["subject"] == .string(G.account))
    let transfers = Self.transfers(result.eventLines)
    #expect(transfers.count == 1)
    #expect(transfers.first?["subject"] == .string(G.account))
    #expect(transfers.first?["to"] == .string("user-77"))
    #expect(transfers.first?["at"] == .string("2026-01-10T00:00:00Z"))
    #expect(transfers.first?["original_transaction"] == .string(G.tokenA))
    #expect(result.transfers.count == 1)
    #expect(result.transfers.first?.contains("to 'user-77' at 2026-01-10T00:00:00Z") == true)
    #expect(!result.warnings.contains { $0.description.contains("different obfuscatedExternalAccountId") })
  }

  @Test(
    "the transfer is known from the copy's fetchTime, not before",
    arguments: [("2026-01-10T00:00:00Z", "2026-01-09T23:59:59.999Z", false), ("2026-01-10T00:00:00Z", "2026-01-10T00:00:00Z", true)])
  func knownFromFetchTime(at instant: String, asOf: String, isMoved: Bool) throws {
    // The new account's copy fetched a day after the instant it names: the account moved at some
    // time before the fetch, so the transfer is at the fetch (never before the evidence).
    let result = try Self.importEvents(Self.refetched)
    var engine = try Self.engine(result.eventLines)
    #expect((engine.checkedAnswer("user-77", at: instant, asOf: asOf).entitlements["pro"] != nil) == isMoved)
    #expect((engine.checkedAnswer(G.account, at: instant, asOf: asOf).entitlements["pro"] != nil) == !isMoved)
  }

  @Test(
    "a new token (an upgrade) under another account moves the subscription at its startTime; the replaced token's later copies move nothing",
    arguments: [("2026-01-15T09:59:59.999Z", G.account), ("2026-01-15T10:00:00Z", "user-77")])
  func upgradeUnderAnotherAccount(at instant: String, owner: String) throws {
    let lines = [
      G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:01Z"),
      G.subscription(
        G.tokenB, order: G.orderB, start: "2026-01-15T10:00:00Z", expiry: "2026-02-15T10:00:00Z",
        plan: "annual", linked: G.tokenA, account: "user-77", fetched: "2026-01-15T10:00:01Z"),
      // Token A fetched after the replacement, still under user-42: the old purchase.
      G.subscription(
        state: "EXPIRED", expiry: "2026-01-15T10:00:00Z", cancel: #"{"replacementCancellation":{}}"#,
        fetched: "2026-01-16T00:00:00Z"),
    ]
    let result = try Self.importEvents(lines)
    var engine = try Self.engine(result.eventLines)
    let other = owner == G.account ? "user-77" : G.account
    #expect(engine.checkedAnswer(owner, at: instant).entitlements["pro"] != nil)
    #expect((engine.checkedAnswer(other, at: instant).entitlements["pro"] != nil) == false)
    #expect(Self.transfers(result.eventLines).map { $0["at"] } == [.string("2026-01-15T10:00:00Z")])
  }

  @Test("a copy without fetchTime naming another account moves nothing, with a warning that says why")
  func unfetchedCopy() throws {
    let result = try Self.importEvents([
      Self.refetched[0], G.subscription(expiry: "2026-02-01T10:00:00Z", account: "user-77"),
    ])
    #expect(Self.transfers(result.eventLines).isEmpty)
    #expect(result.warnings.contains { $0.description.contains("'user-77' on a copy without fetchTime") })
  }

  @Test(
    "split into runs in any order: the answers of one import (a late, earlier copy adds the transfers that make them so); imported again, nothing is added",
    arguments: [0, 1, 2])
  func refetchedSplit(arrangement: Int) throws {
    let runs: [[String]] = [
      [Self.refetched], [[Self.refetched[0]], [Self.refetched[1]]], [[Self.refetched[1]], [Self.refetched[0]]],
    ][arrangement]
    let once = try Self.importEvents(Self.refetched).eventLines
    let log = try Self.appendRuns(runs)
    var a = try Self.engine(once)
    var b = try Self.engine(log)
    for subject in [G.account, "user-77"] {
      for instant in ["2026-01-01T09:59:59.999Z", "2026-01-01T10:00:00Z", "2026-01-09T23:59:59.999Z", "2026-01-10T00:00:00Z"] {
        #expect(a.checkedAnswer(subject, at: instant) == b.checkedAnswer(subject, at: instant))
      }
    }
    #expect(try Self.appendRuns(runs + runs).count == log.count)
  }

  // MARK: - One-time purchases

  @Test(
    "a one-time non-consumable re-fetched under another account moves from the fetchTime; a consumable's credit stays with its buyer",
    arguments: [("lifetime", 1), ("coins", 0)])
  func oneTimePurchase(product: String, transfers: Int) throws {
    let first = Self.fetched(G.product(productID: product, account: G.account), "2026-02-01T12:00:01Z")
    let later = Self.fetched(G.product(productID: product, account: "user-88"), "2026-02-20T00:00:00Z")
    let result = try Self.importEvents([later, first])
    let moved = Self.transfers(result.eventLines)
    #expect(moved.count == transfers)
    #expect(moved.allSatisfy { $0["transaction"] == .string("GPA.3301-0001-0002-00003") && $0["at"] == .string("2026-02-20T00:00:00Z") })
    // The purchase keeps its first subject whichever copy comes first.
    let purchase = try #require(G.events(result)["googleplay:GPA.3301-0001-0002-00003:purchase"])
    #expect(purchase["subject"] == .string(G.account))
    if transfers == 1 {
      var engine = try Self.engine(result.eventLines)
      #expect(engine.checkedAnswer(G.account, at: "2026-02-19T23:59:59.999Z").entitlements["pro"] != nil)
      #expect((engine.checkedAnswer(G.account, at: "2026-02-20T00:00:00Z").entitlements["pro"] != nil) == false)
      #expect(engine.checkedAnswer("user-88", at: "2026-02-20T00:00:00Z").entitlements["pro"] != nil)
    }
  }

  // MARK: - Play Store resubscriptions

  /// user-42's subscription (token A, January) and the Play Store resubscription in March
  /// (token B, no account id, no linkedPurchaseToken).
  static let expired = G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:01Z")
  static func comeback(account: String?) -> String {
    resubscribed(
      G.subscription(
        G.tokenB, order: G.orderB, start: "2026-03-01T10:00:00Z", expiry: "2026-04-01T10:00:00Z",
        account: nil, fetched: "2026-03-01T10:00:01Z"),
      expired: G.tokenA, account: account)
  }

  @Test(
    "a resubscription with outOfAppPurchaseContext joins the expired purchase's subject: from the import (or the log), else the expired account ids, else its own fallback",
    arguments: [
      (true, nil, G.account), (false, "user-42", G.account), (true, "user-99", G.account),
      (false, nil, "googleplay:" + G.tokenB),
    ] as [(Bool, String?, String)])
  func resubscriptionJoins(withExpired: Bool, expiredAccount: String?, subject: String) throws {
    let result = try Self.importEvents((withExpired ? [Self.expired] : []) + [Self.comeback(account: expiredAccount)])
    let purchase = try #require(G.events(result)["googleplay:\(G.orderB):purchase"])
    #expect(purchase["subject"] == .string(subject))
    #expect(purchase["original_transaction"] == .string(G.tokenB))
    #expect(Self.transfers(result.eventLines).isEmpty)
    var engine = try Self.engine(result.eventLines)
    #expect(engine.checkedAnswer(subject, at: "2026-03-01T09:59:59.999Z").entitlements.isEmpty)
    #expect(engine.checkedAnswer(subject, at: "2026-03-01T10:00:00Z").entitlements["pro"] != nil)
  }

  @Test("the resubscription imported before its expired purchase: the later import moves it to the expired purchase's subject from its startTime, and MRR movement counts a reactivation")
  func resubscriptionBeforeExpired() throws {
    let log = try Self.appendRuns([[Self.comeback(account: nil)], [Self.expired], [Self.expired, Self.comeback(account: nil)]])
    let moved = Self.transfers(log)
    #expect(moved.count == 1)
    #expect(moved.first?["subject"] == .string("googleplay:" + G.tokenB))
    #expect(moved.first?["to"] == .string(G.account))
    #expect(moved.first?["at"] == .string("2026-03-01T10:00:00Z"))
    var engine = try Self.engine(log)
    #expect(engine.checkedAnswer(G.account, at: "2026-03-01T09:59:59.999Z").entitlements.isEmpty)
    #expect(engine.checkedAnswer(G.account, at: "2026-03-01T10:00:00Z").entitlements["pro"] != nil)
    #expect(engine.checkedAnswer("googleplay:" + G.tokenB, at: "2026-03-01T10:00:00Z").entitlements.isEmpty)
    let report = try ReportBuilder.report(
      ledger: try ledger(log.joined(separator: "\n"), catalogText: Self.catalogText),
      buckets: try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month),
      asOf: nil)
    // MRR movement counts customers by transfer groups: the March charge is a reactivation.
    // (`reactivations` folds each subject's own lines: see Docs/decisions.md, play35.)
    #expect(report.buckets[2]["mrr_reactivation"] == .keyed([(key: "EUR", value: 4990)]))
    #expect(report.buckets[2]["mrr_new"] == .keyed([(key: String, value: Int64)]()))
  }

  @Test("report: the resubscription is a reactivation of the same customer, not a new subscription")
  func resubscriptionIsReactivation() throws {
    let result = try Self.importEvents([Self.expired, Self.comeback(account: nil)])
    let report = try ReportBuilder.report(
      ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: Self.catalogText),
      buckets: try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month),
      asOf: nil)
    #expect(report.buckets.map { $0["reactivations"] } == [.count(0), .count(0), .count(1)])
    #expect(report.buckets[2]["new_subscriptions"] == .keyed([(key: String, value: Int64)]()))
    #expect(report.buckets[0]["new_subscriptions"] == .keyed([(key: "pro:monthly", value: 1)]))
  }

  // MARK: - Deferred plan changes

  /// Token A's copies: active, then with a deferred replacement by `max`, then without it.
  static let deferred = [
    G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:01Z"),
    replaced(G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-10T00:00:00Z"), by: "max"),
    G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-20T00:00:00Z"),
  ]

  @Test(
    "deferredItemReplacement is a plan_changed (renews_to) from the fetchTime of the first copy showing it; a later copy without it changes back",
    arguments: [
      ("2026-01-09T23:59:59.999Z", nil), ("2026-01-10T00:00:00Z", "max:monthly"),
      ("2026-01-19T23:59:59.999Z", "max:monthly"), ("2026-01-20T00:00:00Z", nil),
    ] as [(String, String?)])
  func deferredReplacement(at instant: String, renewsTo: String?) throws {
    let result = try Self.importEvents(Self.deferred.reversed())
    var engine = try Self.engine(result.eventLines)
    let plan = try #require(engine.checkedAnswer(G.account, at: instant).plans["pro"])
    #expect(plan.renewsTo?.rawValue == renewsTo)
    #expect(plan.product == "pro:monthly")
    #expect(result.eventLines.filter { $0.contains(#""type":"plan_changed""#) }.count == 2)
  }

  @Test(
    "the renewal that charges the replacing product makes it the plan's product and clears renews_to",
    arguments: [
      ("2026-01-31T10:00:00Z", "pro:monthly", "max:monthly"), ("2026-02-01T10:00:03Z", "max:monthly", nil),
    ] as [(String, String, String?)])
  func deferredReplacementRenews(at instant: String, product: String, renewsTo: String?) throws {
    let result = try Self.importEvents([
      Self.deferred[0], Self.deferred[1], G.notification(2, at: "2026-02-01T10:00:03Z"),
      G.subscription(
        order: G.orderA + "..0", expiry: "2026-03-01T10:00:03Z", product: "max", fetched: "2026-02-01T10:00:04Z"),
    ])
    var engine = try Self.engine(result.eventLines)
    let plan = try #require(engine.checkedAnswer(G.account, at: instant).plans["pro"])
    #expect(plan.product.rawValue == product)
    #expect(plan.renewsTo?.rawValue == renewsTo)
  }

  @Test(
    "a deferred replacement the ledger cannot record is counted in skipped with its reason and warned about",
    arguments: [
      ("pro", "2026-01-10T00:00:00Z", "deferredItemReplacement without a catalog plan"),
      ("max", nil, "deferredItemReplacement without fetchTime"),
    ] as [(String, String?, String)])
  func deferredReplacementSkipped(product: String, fetched: String?, reason: String) throws {
    let result = try Self.importEvents([
      Self.deferred[0], Self.replaced(G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: fetched), by: product),
    ])
    #expect(!result.eventLines.contains { $0.contains(#""type":"plan_changed""#) })
    #expect(result.skipped[reason] == 1)
    #expect(result.warnings.contains { $0.description.contains("deferredItemReplacement") })
  }

  /// Every shape of this suite, one document each, in the order produced: the property
  /// (ImportPropertyTests) imports them split, shuffled and redelivered. One copy per new
  /// account: a second, later-fetched copy of it imported in an earlier run than the first one
  /// is what the property does not cover (Docs/import-googleplay.md).
  static let story: [String] = [
    G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:01Z"),
    replaced(
      G.subscription(expiry: "2026-02-01T10:00:00Z", account: "user-77", fetched: "2026-01-05T00:00:00Z"), by: "max"),
    fetched(G.product(productID: "lifetime", account: G.account), "2026-02-01T12:00:01Z"),
    fetched(G.product(productID: "lifetime", account: "user-88"), "2026-02-20T00:00:00Z"),
    comeback(account: nil),
  ]

  @Test(
    "a second copy of a new account fetched later but imported first: the transfer stays at its fetchTime, and the earlier copy's claim is warned about (the owner chain cannot move it earlier)"
  )
  func laterCopyFirst() throws {
    let early = G.subscription(expiry: "2026-02-01T10:00:00Z", account: "user-77", fetched: "2026-01-05T00:00:00Z")
    let late = G.subscription(expiry: "2026-02-01T10:00:00Z", account: "user-77", fetched: "2026-01-08T00:00:00Z")
    let log = try Self.appendRuns([[Self.refetched[0], late]])
    #expect(Self.transfers(log).map { $0["at"] } == [.string("2026-01-08T00:00:00Z")])
    let known = LedgerKnowledge.read(log: Array(log.map { $0 + "\n" }.joined().utf8))
    let store = try GooglePlayImporter.importEvents(
      [Self.refetched[0], late].joined(separator: "\n"), file: "a", catalog: Self.catalog,
      options: GooglePlayImportOptions()
    ).documentLines.map { $0 + "\n" }.joined()
    let result = try GooglePlayImporter.importEvents(
      early, file: "b", catalog: Self.catalog, options: GooglePlayImportOptions(), knowledge: known,
      documentStore: Array(store.utf8))
    #expect(Self.transfers(result.eventLines).isEmpty)
    #expect(result.warnings.contains { $0.description.contains("the log moves it later from another subject") })
  }
}
