import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// Whole lifecycles: token chains, order independence, idempotency and the answers after folding.
@Suite("Google Play import: lifecycles, chains and answers")
struct GooglePlayImportLifecycleTests: GooglePlayLifecycleStory {
  typealias G = GP

  private func engine(_ lines: [String]) throws -> QueryEngine {
    QueryEngine(ledger: try ledger(lines.joined(separator: "\n"), catalogText: G.catalogText))
  }

  @Test(
    "linked purchase tokens chain into one original_transaction; the replaced token's expiry is not the subscription's"
  )
  func chain() throws {
    let result = try #require(G.importEvents(Self.story))
    let events = G.events(result)
    #expect(events["googleplay:\(G.orderB):purchase"]?["original_transaction"] == .string(G.tokenA))
    #expect(events["googleplay:\(G.orderB):purchase"]?["product"] == .string("pro:annual"))
    #expect(events["googleplay:\(G.orderA)..1:expiration"] == nil)
    #expect(
      events["googleplay:\(G.orderA)..1:renewal"]?["expires"] == .string("2026-04-03T12:00:00Z"))
    #expect(events["googleplay:\(G.orderB):expiration"]?["reason"] == .string("voluntary"))
    #expect(Set(events.values.compactMap { $0["subject"]?.stringValue }) == [G.account])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
  }

  @Test(
    "answers: grace keeps access, recovery renews, the upgrade shows at once, cancel stops renewing, expiry ends access"
  )
  func answers() throws {
    var engine = try engine(try #require(G.importEvents(Self.story)).eventLines)
    let inGrace = engine.checkedAnswer(G.account, at: "2026-03-02T00:00:00Z")
    #expect(inGrace.plans.byName.first?.value.state == .grace)
    #expect(inGrace.entitlements.keys.sorted() == ["pro"])
    let recovered = engine.checkedAnswer(G.account, at: "2026-03-10T00:00:00Z")
    #expect(recovered.plans.byName.first?.value.transaction.rawValue == G.orderA + "..1")
    let upgraded = engine.checkedAnswer(G.account, at: "2026-03-15T09:00:00Z")
    #expect(upgraded.plans.byName.first?.value.product == "pro:annual")
    #expect(upgraded.plans.byName.first?.value.willRenew == true)
    let canceled = engine.checkedAnswer(G.account, at: "2026-06-01T00:00:00Z")
    #expect(canceled.plans.byName.first?.value.willRenew == false)
    #expect(canceled.plans.byName.first?.value.state == .active)
    #expect(engine.checkedAnswer(G.account, at: "2027-03-15T08:59:59.999Z").entitlements.count == 1)
    let expired = engine.checkedAnswer(G.account, at: "2027-03-15T09:00:00Z")
    #expect(expired.entitlements.isEmpty)
    #expect(expired.plans.byName.first?.value.state == .expired)
    // The lifetime unlock (a grant that never ends wins) counts until it was voided.
    #expect(
      engine.checkedAnswer(G.account, at: "2026-04-02T00:00:00Z").entitlements.byName.first?.value.product
        == "lifetime")
    #expect(
      engine.checkedAnswer(G.account, at: "2026-04-05T00:00:00Z").entitlements.byName.first?.value.product
        == "pro:annual")
  }

  @Test("on hold: no access after the period end although the subscription is not expired")
  func onHoldHasNoAccess() throws {
    let result = try #require(
      G.importEvents([
        G.subscription(expiry: "2026-02-01T10:00:00Z"),
        G.notification(5, at: "2026-02-01T10:00:05Z"),
        G.subscription(state: "ON_HOLD", expiry: "2026-02-01T10:00:00Z"),
      ]))
    var engine = try engine(result.eventLines)
    let held = engine.checkedAnswer(G.account, at: "2026-02-03T00:00:00Z")
    #expect(held.plans.byName.first?.value.state == .billingRetry)
    #expect(held.entitlements.isEmpty)
    #expect(engine.checkedAnswer(G.account, at: "2026-02-01T09:59:59.999Z").entitlements.count == 1)
  }

  @Test("paused: no access from the period end; the resumed renewal brings it back")
  func pausedThenResumed() throws {
    let result = try #require(
      G.importEvents([
        G.subscription(expiry: "2026-02-01T10:00:00Z"),
        G.notification(10, at: "2026-02-01T10:00:04Z"),
        G.subscription(state: "PAUSED", expiry: "2026-02-01T10:00:00Z"),
        G.notification(1, at: "2026-03-01T10:00:00Z"),
        G.subscription(order: G.orderA + "..0", expiry: "2026-04-01T10:00:00Z"),
      ]))
    var engine = try engine(result.eventLines)
    #expect(engine.checkedAnswer(G.account, at: "2026-02-15T00:00:00Z").entitlements.isEmpty)
    let resumed = engine.checkedAnswer(G.account, at: "2026-03-02T00:00:00Z")
    #expect(resumed.plans.byName.first?.value.state == .active)
    #expect(resumed.plans.byName.first?.value.willRenew == true)
  }

  @Test(
    "shuffled, duplicated and re-encoded input gives identical lines and identical answers",
    arguments: [1, 2, 3] as [UInt64])
  func orderIndependence(seed: UInt64) throws {
    let reference = try #require(G.importEvents(Self.story))
    var random = SplitMix64(state: seed)
    let doubled = (Self.story + Self.story).map { line in
      // Re-deliver decoded notifications as Pub/Sub pushes now and then.
      line.hasPrefix(#"{"version""#) && Bool.random(using: &random)
        ? G.push(line, messageID: "9") : line
    }
    let shuffled = try #require(G.importEvents(doubled.shuffled(using: &random)))
    // A pushed copy carries its publishTime, a decoded one does not: the same facts, known
    // at different times.
    #expect(G.contents(shuffled.eventLines) == G.contents(reference.eventLines))
    var a = try engine(reference.eventLines)
    var b = try engine(shuffled.eventLines)
    for day in stride(from: 0, to: 460, by: 5) {
      let at = ts("2026-01-01T00:00:00Z").adding(milliseconds: Int64(day) * 86_400_000)
      #expect(
        a.answer(subject: G.account, at: at, asOf: nil)
          == b.answer(subject: G.account, at: at, asOf: nil))
    }
  }

  @Test(
    "subjects: the account id, else --subjects by any token of the chain, else googleplay:<first token>"
  )
  func subjects() throws {
    let chain = [
      G.subscription(expiry: "2026-02-01T10:00:00Z", account: nil),
      G.subscription(
        G.tokenB, order: G.orderB, start: "2026-01-15T00:00:00Z", expiry: "2027-01-15T00:00:00Z",
        linked: G.tokenA, account: nil),
    ]
    let mapped = G.events(G.importEvents(chain, subjects: [G.tokenB: "u-mapped"]))
    #expect(mapped["googleplay:\(G.orderA):purchase"]?["subject"] == .string("u-mapped"))
    let fallback = G.events(G.importEvents(chain))
    #expect(
      fallback["googleplay:\(G.orderB):purchase"]?["subject"] == .string("googleplay:" + G.tokenA))
  }

  @Test(
    "a chain continues across imports: a token an earlier import logged keeps its original_transaction and subject"
  )
  func chainAcrossImports() throws {
    let first = try #require(
      G.importEvents([
        G.subscription(expiry: "2026-02-01T10:00:00Z", account: "u-first"),
        G.subscription(
          G.tokenB, order: G.orderB, start: "2026-01-15T00:00:00Z", expiry: "2026-02-15T00:00:00Z",
          linked: G.tokenA, account: nil),
      ]))
    let knowledge = LedgerKnowledge.read(log: Array(first.eventLines.joined(separator: "\n").utf8))
    #expect(
      knowledge.googlePlayTokens[G.tokenB]
        == GooglePlayKnownToken(originalTransaction: G.tokenA, subject: "u-first"))
    let third = G.subscription(
      G.tokenC, order: "GPA.3300-0000-0000-00042", start: "2026-02-01T00:00:00Z",
      expiry: "2026-03-01T00:00:00Z",
      plan: "annual", linked: G.tokenB, account: nil)
    let alone = G.events(G.importEvents([third]))
    #expect(
      alone["googleplay:GPA.3300-0000-0000-00042:purchase"]?["original_transaction"]
        == .string(G.tokenB))
    let result = try GooglePlayImporter.importEvents(
      third, file: "input.jsonl", catalog: G.catalog,
      options: GooglePlayImportOptions(), knowledge: knowledge)
    let event = try #require(G.events(result)["googleplay:GPA.3300-0000-0000-00042:purchase"])
    #expect(event["original_transaction"] == .string(G.tokenA))
    #expect(event["subject"] == .string("u-first"))
  }

  @Test("a JSON array (pretty-printed, CRLF line ends) imports like JSON Lines")
  func arrayLayout() throws {
    let reference = try #require(G.importEvents(Self.story))
    let array = "[\r\n  " + Self.story.joined(separator: ",\r\n  ") + "\r\n]\r\n"
    let result = try GooglePlayImporter.importEvents(
      array, file: "export.json", catalog: G.catalog, options: GooglePlayImportOptions())
    #expect(result.eventLines == reference.eventLines)
  }

  @Test("test purchases are refused unless allowed, then marked environment test")
  func testPurchases() throws {
    let line = G.subscription(expiry: "2026-02-01T10:00:00Z", test: true)
    let errors = G.importErrors([line])
    #expect(errors.count == 1)
    #expect(errors.first?.contains("input.jsonl:1: error:") == true)
    #expect(errors.first?.contains("--allow-test") == true)
    let allowed = G.importEvents([line], allowsTest: true)
    #expect(allowed?.environments == ["test": 1])
  }

  @Test(
    "a voided purchase imported before its purchase waits beside the log and revokes it once the purchase arrives in a later import"
  )
  func voidedBeforePurchase() throws {
    let product = G.product(productID: "lifetime", at: "2026-04-01T00:00:00Z")
    let voided = G.voidedList(
      G.tokenC, order: "GPA.3301-0001-0002-00003", at: "2026-04-05T00:00:00Z", reason: 1)
    let first = try GooglePlayImporter.importEvents(
      voided, file: "a.jsonl", catalog: G.catalog, options: GooglePlayImportOptions())
    #expect(first.warnings.contains { $0.message.contains("no resource for its purchase token") })
    #expect(first.eventLines.isEmpty)
    #expect(first.waitingDocuments == 1)
    // The voided purchase waits in the document store beside the log until its purchase comes.
    let store = Array(first.documentLines.map { $0 + "\n" }.joined().utf8)
    let knowledge = LedgerKnowledge.read(log: Array(first.eventLines.joined(separator: "\n").utf8))
    let second = try GooglePlayImporter.importEvents(
      product, file: "b.jsonl", catalog: G.catalog, options: GooglePlayImportOptions(),
      knowledge: knowledge, documentStore: store)
    #expect(second.waitingDocuments == 0)
    var engine = try engine(first.eventLines + second.eventLines)
    #expect(engine.checkedAnswer(G.account, at: "2026-04-02T00:00:00Z").entitlements.count == 1)
    #expect(engine.checkedAnswer(G.account, at: "2026-04-06T00:00:00Z").entitlements.isEmpty)
  }

  @Test(
    "a copy fetched after a deferral imported first: the later run corrects the period end at the charge, and the answers are one import's at every edge"
  )
  func periodEndCorrected() throws {
    let deferred = G.subscription(expiry: "2026-03-01T10:00:00Z")
    let later = [
      G.push(G.notification(9, at: "2026-01-20T00:00:00Z"), messageID: "9"),
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
    ]
    let first = try #require(G.importEvents([deferred]))
    let store = Array(first.documentLines.map { $0 + "\n" }.joined().utf8)
    let second = try GooglePlayImporter.importEvents(
      later.joined(separator: "\n"), file: "b.jsonl", catalog: G.catalog,
      options: GooglePlayImportOptions(),
      knowledge: LedgerKnowledge.read(log: Array(first.eventLines.joined(separator: "\n").utf8)),
      documentStore: store)
    let correction = try #require(
      G.events(second).first { $0.key.contains(":period_end:") }?.value)
    #expect(correction["type"] == .string("renewal_extended"))
    #expect(correction["at"] == .string("2026-01-01T10:00:00Z"))
    #expect(correction["expires"] == .string("2026-02-01T10:00:00Z"))
    let once = try #require(G.importEvents([deferred] + later))
    var incremental = try engine(first.eventLines + second.eventLines)
    var reference = try engine(once.eventLines)
    for at in [
      "2026-01-01T10:00:00Z", "2026-01-10T00:00:00Z", "2026-01-19T23:59:59.999Z",
      "2026-01-20T00:00:00Z", "2026-02-01T10:00:00Z", "2026-03-01T09:59:59.999Z",
      "2026-03-01T10:00:00Z",
    ] {
      #expect(
        incremental.checkedAnswer(G.account, at: at) == reference.checkedAnswer(G.account, at: at),
        "at \(at)")
    }
    #expect(
      incremental.checkedAnswer(G.account, at: "2026-01-10T00:00:00Z").plans.byName.first?.value.expires
        == Timestamp.parseRFC3339("2026-02-01T10:00:00Z"))
    // Importing everything again adds nothing: the period end is already right.
    let again = try GooglePlayImporter.importEvents(
      ([deferred] + later).joined(separator: "\n"), file: "c.jsonl", catalog: G.catalog,
      options: GooglePlayImportOptions(),
      knowledge: LedgerKnowledge.read(
        log: Array((first.eventLines + second.eventLines).joined(separator: "\n").utf8)),
      documentStore: store + Array(second.documentLines.map { $0 + "\n" }.joined().utf8))
    #expect(again.eventLines.isEmpty)
  }
}
