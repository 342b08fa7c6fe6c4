import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Grants, balances and what an answer reports (Docs/semantics.md)")
struct GrantsAndBalancesTests {
  @Test(
    "non-renewing and time-limited unlocks grant for their duration, with clamping",
    arguments: [
      ("pass.week", "2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z"),
      ("pass.month", "2026-01-31T12:00:00Z", "2026-02-28T12:00:00Z"),
      ("trial.14d", "2026-03-04T00:00:00Z", "2026-03-18T00:00:00Z"),
    ])
  func durations(product: String, at: String, end: String) throws {
    var engine = QueryEngine(
      ledger: try EventLines.ledger([.purchase(id: "p1", subject: "u1", at: ts(at), product: ProductID(rawValue: product), transaction: "t1")]))
    let endTime = ts(end)
    let justBefore = endTime.adding(milliseconds: -1).rfc3339
    #expect(engine.checkedAnswer("u1", at: justBefore).entitlements.byName.first?.value.expires == endTime)
    #expect(engine.checkedAnswer("u1", at: end).entitlements.isEmpty)
  }

  @Test("an explicit expires on a non-renewing purchase wins over the duration")
  func explicitExpiry() throws {
    var engine = QueryEngine(ledger: try ledger(
      EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pass.week", transaction: "t1", expires: ts("2026-03-03T00:00:00Z")))))
    #expect(engine.checkedAnswer("u1", at: "2026-03-02T23:59:59.999Z").entitlements.count == 1)
    #expect(engine.checkedAnswer("u1", at: "2026-03-03T00:00:00Z").entitlements.isEmpty)
  }

  @Test("a revocation ends a grant from its at; a reversal restores it from its at")
  func revokeGrant() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"),
      .revocation(id: "v1", subject: "u1", at: ts("2026-04-01T00:00:00Z"), transaction: "t1", reason: .refund),
      .refundReversed(id: "v2", subject: "u1", at: ts("2026-05-01T00:00:00Z"), transaction: "t1"),
    ])))
    #expect(engine.checkedAnswer("u1", at: "2026-03-31T23:59:59.999Z").entitlements.count == 1)
    #expect(engine.checkedAnswer("u1", at: "2026-04-01T00:00:00Z").entitlements.isEmpty)
    #expect(engine.checkedAnswer("u1", at: "2026-05-01T00:00:00Z").entitlements.byName.first?.value.expires == nil)
  }

  @Test("a never-ending grant wins, else the latest end, then the latest start, then the later line")
  func selection() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pass.month", transaction: "t1"),
      .purchase(id: "p2", subject: "u1", at: ts("2026-03-02T00:00:00Z"), product: "pass.week", transaction: "t2", expires: ts("2026-04-01T00:00:00Z"), offer: .promo),
      .purchase(id: "p3", subject: "u1", at: ts("2026-03-03T00:00:00Z"), product: "pro.monthly", transaction: "t3", expires: ts("2026-03-20T00:00:00Z")),
      .purchase(id: "p4", subject: "u1", at: ts("2026-03-10T00:00:00Z"), product: "trial.14d", transaction: "t4", offer: .trial),
      .purchase(id: "p5", subject: "u2", at: ts("2026-03-01T00:00:00Z"), product: "pass.week", transaction: "t5", expires: ts("2026-04-01T00:00:00Z")),
      .purchase(id: "p6", subject: "u2", at: ts("2026-03-01T00:00:00Z"), product: "pass.month", transaction: "t6"),
      .purchase(id: "p7", subject: "u3", at: ts("2026-03-01T00:00:00Z"), product: "pro.monthly", transaction: "t7", expires: ts("2026-04-01T00:00:00Z")),
      .purchase(id: "p8", subject: "u3", at: ts("2026-03-05T00:00:00Z"), product: "pro.lifetime", transaction: "t8"),
    ])))
    // Latest end (1 Apr) ties between pass.month and pass.week; pass.week started later.
    let u1 = engine.checkedAnswer("u1", at: "2026-03-12T00:00:00Z").entitlements.byName.first?.value
    #expect(u1?.product == "pass.week")
    #expect(u1?.period == .promo)
    // Same end and same start: the later line wins.
    #expect(engine.checkedAnswer("u2", at: "2026-03-02T00:00:00Z").entitlements.byName.first?.value.product == "pass.month")
    // A never-ending grant beats a subscription.
    let u3 = engine.checkedAnswer("u3", at: "2026-03-06T00:00:00Z")
    #expect(u3.entitlements.byName.first?.value.product == "pro.lifetime")
    #expect(u3.entitlements.byName.first?.value.expires == nil)
    #expect(u3.plans.byName.first?.value.product == "pro.monthly")
  }

  @Test("a plan is the subscription with access whose period started last, else the latest start")
  func planSelection() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .purchase(id: "a1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "a", expires: ts("2027-01-01T00:00:00Z")),
      .purchase(id: "b1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.monthly", transaction: "b", expires: ts("2026-04-01T00:00:00Z")),
    ])))
    #expect(engine.checkedAnswer("u1", at: "2026-03-15T00:00:00Z").plans.byName.first?.value.originalTransaction == "b")
    #expect(engine.checkedAnswer("u1", at: "2026-05-01T00:00:00Z").plans.byName.first?.value.originalTransaction == "a")
    #expect(engine.checkedAnswer("u1", at: "2027-05-01T00:00:00Z").plans.byName.first?.value.originalTransaction == "b")
    #expect(engine.checkedAnswer("u1", at: "2027-05-01T00:00:00Z").plans.byName.first?.value.state == .expired)
  }

  @Test("consumables credit quantity × units; a refund after spending goes negative; a reversal credits again")
  func balances() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .purchase(id: "c1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t1", quantity: 2),
      .purchase(id: "c2", subject: "u1", at: ts("2026-03-01T01:00:00Z"), product: "coins.500", transaction: "t2"),
      .consumption(id: "s1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "coins", quantity: 650),
      .revocation(id: "v1", subject: "u1", at: ts("2026-03-03T00:00:00Z"), transaction: "t2", reason: .refund),
      .revocation(id: "v2", subject: "u1", at: ts("2026-03-03T01:00:00Z"), transaction: "t2", reason: .refund),
      .refundReversed(id: "v3", subject: "u1", at: ts("2026-03-04T00:00:00Z"), transaction: "t2"),
    ])))
    func coins(_ at: String) -> Int64? {
      engine.checkedAnswer("u1", at: at).balances["coins"]
    }
    #expect(coins("2026-02-28T00:00:00Z") == nil)
    #expect(coins("2026-03-01T00:00:00Z") == 200)
    #expect(coins("2026-03-01T01:00:00Z") == 700)
    #expect(coins("2026-03-02T00:00:00Z") == 50)
    #expect(coins("2026-03-03T02:00:00Z") == -450)
    #expect(coins("2026-03-04T00:00:00Z") == 50)
  }

  @Test("purchase_pending grants nothing, and a subject never seen gets empty objects")
  func pendingAndUnknown() throws {
    var engine = QueryEngine(ledger: try ledger(
      EventLines.line(.purchasePending(id: "d0", subject: "u1", at: ts("2026-01-09T00:00:00Z"), product: "pro.annual"))))
    let pending = engine.checkedAnswer("u1", at: "2026-02-01T00:00:00Z")
    #expect(pending.entitlements.isEmpty && pending.plans.isEmpty && pending.balances.isEmpty)
    let nobody = engine.checkedAnswer("nobody", at: "2026-02-01T00:00:00Z")
    #expect(nobody.subject == "nobody")
    #expect(nobody.entitlements.isEmpty && nobody.plans.isEmpty && nobody.balances.isEmpty)
  }

  @Test("explain names the events that decided each part of the answer")
  func explain() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")),
      .purchase(id: "c1", subject: "u1", at: ts("2026-01-02T00:00:00Z"), product: "coins.100", transaction: "t2"),
      .graceEntered(id: "g1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), originalTransaction: "t1", graceExpires: ts("2026-02-10T00:00:00Z")),
      .consumption(id: "s1", subject: "u1", at: ts("2026-01-03T00:00:00Z"), currency: "coins", quantity: 10),
    ])))
    let answer = engine.answer(subject: "u1", at: ts("2026-02-05T00:00:00Z"), asOf: nil, explain: true)
    let explanation = try #require(answer.explanation)
    #expect(explanation.entitlements.byName.first?.value == [Holdings.EventReference(id: "p1", line: 1), Holdings.EventReference(id: "g1", line: 3)])
    #expect(explanation.balances.byName.first?.value == [Holdings.EventReference(id: "c1", line: 2), Holdings.EventReference(id: "s1", line: 4)])
  }
}
