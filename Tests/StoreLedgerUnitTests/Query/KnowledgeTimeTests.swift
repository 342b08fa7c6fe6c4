import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Effective time and knowledge time (Docs/semantics.md)")
struct KnowledgeTimeTests {
  static let log = EventLines.log([
    .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "t1", expires: ts("2027-01-01T00:00:00Z")),
    .revocation(id: "v1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), transaction: "t1", reason: .refund).recordedAt("2026-03-01T00:00:00Z"),
  ])

  @Test(
    "a late refund is absent as we knew it then and present as we know it now",
    arguments: [
      ("2026-02-15T00:00:00Z", "2026-02-20T00:00:00Z", true),
      ("2026-02-15T00:00:00Z", "2026-02-28T23:59:59.999Z", true),
      ("2026-02-15T00:00:00Z", "2026-03-01T00:00:00Z", false),
      ("2026-02-15T00:00:00Z", nil, false),
      ("2026-01-31T23:59:59.999Z", nil, true),
    ] as [(String, String?, Bool)])
  func lateRefund(at: String, asOf: String?, isPro: Bool) throws {
    var engine = QueryEngine(ledger: try ledger(Self.log))
    #expect(engine.checkedAnswer("u1", at: at, asOf: asOf).entitlements.isEmpty == !isPro)
  }

  @Test("as of a time before an event's at, the event is unknown")
  func knowledgeBeforeEffect() throws {
    var engine = QueryEngine(ledger: try ledger(Self.log))
    #expect(engine.checkedAnswer("u1", at: "2026-06-01T00:00:00Z", asOf: "2025-12-31T00:00:00Z").plans.isEmpty)
  }

  @Test("events at the same instant apply in line order")
  func ties() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")),
      .autoRenewChanged(id: "a1", subject: "u1", at: ts("2026-01-10T00:00:00Z"), originalTransaction: "t1", autoRenew: false),
      .autoRenewChanged(id: "a2", subject: "u1", at: ts("2026-01-10T00:00:00Z"), originalTransaction: "t1", autoRenew: true),
      .autoRenewChanged(id: "a3", subject: "u2", at: ts("2026-01-10T00:00:00Z"), originalTransaction: "t9", autoRenew: true),
    ])))
    #expect(engine.checkedAnswer("u1", at: "2026-01-10T00:00:00Z").plans.byName.first?.value.willRenew == true)
  }

  @Test("events written out of order apply in effective order")
  func outOfOrder() throws {
    var engine = QueryEngine(ledger: try ledger(EventLines.log([
      .renewal(id: "r1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: ts("2026-03-01T00:00:00Z")),
      .billingRetry(id: "b1", subject: "u1", at: ts("2026-01-31T00:00:00Z"), originalTransaction: "t1"),
      .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")),
    ])))
    #expect(engine.checkedAnswer("u1", at: "2026-01-31T12:00:00Z").plans.byName.first?.value.state == .billingRetry)
    #expect(engine.checkedAnswer("u1", at: "2026-02-15T00:00:00Z").plans.byName.first?.value.transaction == "t2")
  }
}
