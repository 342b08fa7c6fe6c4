import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A purchase of pro.monthly t1 on 1 Jan 2026, expiring 1 Feb 2026 10:00.
private let bought =
  EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T10:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T10:00:00Z")))

private func plan(_ log: String, at: String, asOf: String? = nil) throws -> Holdings.Plan? {
  var engine = QueryEngine(ledger: try ledger(log))
  return engine.checkedAnswer("u1", at: at, asOf: asOf).plans.byName.first?.value
}

private func hasPro(_ log: String, at: String, asOf: String? = nil) throws -> Bool {
  var engine = QueryEngine(ledger: try ledger(log))
  return engine.checkedAnswer("u1", at: at, asOf: asOf).entitlements["pro"] != nil
}

@Suite("The subscription state machine (Docs/semantics.md)")
struct SubscriptionFoldTests {
  @Test("access is half-open: T == expires has none, T == expires - 1 ms has it")
  func boundaries() throws {
    #expect(try hasPro(bought, at: "2026-02-01T09:59:59.999Z"))
    #expect(try !hasPro(bought, at: "2026-02-01T10:00:00Z"))
    #expect(try hasPro(bought, at: "2026-01-01T10:00:00Z"))
    #expect(try !hasPro(bought, at: "2026-01-01T09:59:59.999Z"))
    #expect(try plan(bought, at: "2026-02-01T10:00:00Z")?.state == .expired)
    #expect(try plan(bought, at: "2026-01-01T09:59:59.999Z") == nil)
  }

  @Test("a renewal starts a new period keeping the ownership; a renewal of an unknown original starts tracking")
  func renewal() throws {
    let log = EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T10:00:00Z"), product: "pro.annual", transaction: "t1", expires: ts("2027-01-01T10:00:00Z"), ownership: .familyShared, offer: .trial),
      .renewal(id: "r1", subject: "u1", at: ts("2027-01-01T10:00:00Z"), product: "pro.annual", transaction: "t2", originalTransaction: "t1", expires: ts("2028-01-01T10:00:00Z")),
      .renewal(id: "x1", subject: "u1", at: ts("2026-06-01T00:00:00Z"), product: "voice.monthly", transaction: "v9", originalTransaction: "v1", expires: ts("2026-07-01T00:00:00Z")),
    ])
    let p = try #require(try plan(log, at: "2027-06-01T00:00:00Z"))
    #expect(p.transaction == "t2")
    #expect(p.ownership == .familyShared)
    #expect(p.period == .normal)
    #expect(try plan(log, at: "2026-06-01T00:00:00Z")?.period == .trial)
    var engine = QueryEngine(ledger: try ledger(log))
    let voice = engine.checkedAnswer("u1", at: "2026-06-15T00:00:00Z").plans["voice"]
    #expect(voice?.originalTransaction == "v1")
    #expect(voice?.state == .active)
  }

  @Test("billing retry keeps access until the period end, then none")
  func billingRetry() throws {
    let log = bought + "\n" + EventLines.line(.billingRetry(id: "b1", subject: "u1", at: ts("2026-01-30T00:00:00Z"), originalTransaction: "t1"))
    #expect(try plan(log, at: "2026-01-31T00:00:00Z")?.state == .billingRetry)
    #expect(try hasPro(log, at: "2026-02-01T09:59:59.999Z"))
    #expect(try !hasPro(log, at: "2026-02-01T10:00:00Z"))
    #expect(try plan(log, at: "2026-03-01T00:00:00Z")?.state == .billingRetry)
  }

  @Test("grace gives access until grace_expires, then is reported as billing retry")
  func grace() throws {
    let log = bought + "\n" + EventLines.line(.graceEntered(id: "g1", subject: "u1", at: ts("2026-02-01T10:00:00Z"), originalTransaction: "t1", graceExpires: ts("2026-02-17T10:00:00Z")))
    #expect(try plan(log, at: "2026-02-10T00:00:00Z")?.state == .grace)
    #expect(try hasPro(log, at: "2026-02-17T09:59:59.999Z"))
    #expect(try !hasPro(log, at: "2026-02-17T10:00:00Z"))
    #expect(try plan(log, at: "2026-02-17T10:00:00Z")?.state == .billingRetry)
    #expect(try plan(log, at: "2026-02-10T00:00:00Z")?.expires == ts("2026-02-01T10:00:00Z"))
  }

  @Test("expiration ends access and renewal intent; later retry, grace and extension change nothing")
  func expiration() throws {
    let log = bought + "\n" + EventLines.log([
      .expiration(id: "x1", subject: "u1", at: ts("2026-01-20T00:00:00Z"), originalTransaction: "t1", reason: .voluntary),
      .billingRetry(id: "x2", subject: "u1", at: ts("2026-01-21T00:00:00Z"), originalTransaction: "t1"),
      .graceEntered(id: "x3", subject: "u1", at: ts("2026-01-22T00:00:00Z"), originalTransaction: "t1", graceExpires: ts("2026-03-01T00:00:00Z")),
      .renewalExtended(id: "x4", subject: "u1", at: ts("2026-01-23T00:00:00Z"), originalTransaction: "t1", expires: ts("2026-06-01T00:00:00Z")),
    ])
    let p = try #require(try plan(log, at: "2026-01-25T00:00:00Z"))
    #expect(p.state == .expired)
    #expect(p.willRenew == false)
    #expect(p.expires == ts("2026-02-01T10:00:00Z"))
    #expect(try !hasPro(log, at: "2026-01-25T00:00:00Z"))
    let built = try ledger(log)
    #expect(built.warnings.isEmpty)
  }

  @Test("auto_renew_changed sets will_renew; plan_changed sets renews_to, cleared by the matching renewal")
  func renewIntent() throws {
    let log = bought + "\n" + EventLines.log([
      .autoRenewChanged(id: "a1", subject: "u1", at: ts("2026-01-05T00:00:00Z"), originalTransaction: "t1", autoRenew: false),
      .autoRenewChanged(id: "a2", subject: "u1", at: ts("2026-01-06T00:00:00Z"), originalTransaction: "t1", autoRenew: true),
      .planChanged(id: "c1", subject: "u1", at: ts("2026-01-07T00:00:00Z"), originalTransaction: "t1", product: "pro.annual"),
      .renewal(id: "r1", subject: "u1", at: ts("2026-02-01T10:00:00Z"), product: "pro.annual", transaction: "t2", originalTransaction: "t1", expires: ts("2027-02-01T10:00:00Z")),
    ])
    #expect(try plan(log, at: "2026-01-05T12:00:00Z")?.willRenew == false)
    #expect(try plan(log, at: "2026-01-06T12:00:00Z")?.willRenew == true)
    #expect(try plan(log, at: "2026-01-08T00:00:00Z")?.renewsTo == "pro.annual")
    #expect(try plan(log, at: "2026-01-08T00:00:00Z")?.product == "pro.monthly")
    #expect(try plan(log, at: "2026-02-01T10:00:00Z")?.renewsTo == nil)
    #expect(try plan(log, at: "2026-02-01T10:00:00Z")?.product == "pro.annual")
  }

  @Test("a plan change back to the current product cancels the pending change")
  func cancelDowngrade() throws {
    let log = bought + "\n" + EventLines.log([
      .planChanged(id: "c1", subject: "u1", at: ts("2026-01-07T00:00:00Z"), originalTransaction: "t1", product: "pro.annual"),
      .planChanged(id: "c2", subject: "u1", at: ts("2026-01-08T00:00:00Z"), originalTransaction: "t1", product: "pro.monthly"),
    ])
    #expect(try plan(log, at: "2026-01-09T00:00:00Z")?.renewsTo == nil)
  }

  @Test("a purchase under a known original transaction is an immediate upgrade")
  func upgrade() throws {
    let log = bought + "\n" + EventLines.line(.purchase(id: "u2", subject: "u1", at: ts("2026-01-15T00:00:00Z"), product: "pro.annual", transaction: "t2", originalTransaction: "t1", expires: ts("2027-01-15T00:00:00Z"), offer: .promo))
    let p = try #require(try plan(log, at: "2026-01-15T00:00:00Z"))
    #expect(p.product == "pro.annual")
    #expect(p.originalTransaction == "t1")
    #expect(p.period == .promo)
    #expect(try plan(log, at: "2026-01-14T23:59:59.999Z")?.product == "pro.monthly")
  }

  @Test("renewal_extended moves the period end and returns retry or grace to active")
  func extended() throws {
    let log = bought + "\n" + EventLines.log([
      .billingRetry(id: "b1", subject: "u1", at: ts("2026-02-01T10:00:00Z"), originalTransaction: "t1"),
      .renewalExtended(id: "e1", subject: "u1", at: ts("2026-02-03T00:00:00Z"), originalTransaction: "t1", expires: ts("2026-02-15T00:00:00Z")),
    ])
    #expect(try plan(log, at: "2026-02-02T00:00:00Z")?.state == .billingRetry)
    #expect(try !hasPro(log, at: "2026-02-02T00:00:00Z"))
    #expect(try plan(log, at: "2026-02-04T00:00:00Z")?.state == .active)
    #expect(try hasPro(log, at: "2026-02-14T23:59:59.999Z"))
    #expect(try !hasPro(log, at: "2026-02-15T00:00:00Z"))
  }

  @Test("revoking the current transaction revokes; reversing restores access within the period")
  func revokeAndReverse() throws {
    let log = bought + "\n" + EventLines.log([
      .revocation(id: "v1", subject: "u1", at: ts("2026-01-10T00:00:00Z"), transaction: "t1", reason: .refund),
      .refundReversed(id: "v2", subject: "u1", at: ts("2026-01-20T00:00:00Z"), transaction: "t1"),
    ])
    #expect(try plan(log, at: "2026-01-10T00:00:00Z")?.state == .revoked)
    #expect(try !hasPro(log, at: "2026-01-15T00:00:00Z"))
    #expect(try plan(log, at: "2026-01-20T00:00:00Z")?.state == .active)
    #expect(try hasPro(log, at: "2026-01-25T00:00:00Z"))
    #expect(try !hasPro(log, at: "2026-02-01T10:00:00Z"))
  }

  @Test("revoking an older, finished period's transaction leaves the current period alone")
  func refundOlderPeriod() throws {
    let log = bought + "\n" + EventLines.log([
      .renewal(id: "r1", subject: "u1", at: ts("2026-02-01T10:00:00Z"), product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: ts("2026-03-01T10:00:00Z")),
      .revocation(id: "v1", subject: "u1", at: ts("2026-02-10T00:00:00Z"), transaction: "t1", reason: .refund),
    ])
    #expect(try plan(log, at: "2026-02-11T00:00:00Z")?.state == .active)
    #expect(try hasPro(log, at: "2026-02-11T00:00:00Z"))
  }

  @Test("from revoked only a new purchase, renewal or reversal brings it back")
  func revokedIsClosed() throws {
    let log = bought + "\n" + EventLines.log([
      .revocation(id: "v1", subject: "u1", at: ts("2026-01-10T00:00:00Z"), transaction: "t1", reason: .refund),
      .renewalExtended(id: "x1", subject: "u1", at: ts("2026-01-11T00:00:00Z"), originalTransaction: "t1", expires: ts("2026-05-01T00:00:00Z")),
      .renewal(id: "r1", subject: "u1", at: ts("2026-01-12T00:00:00Z"), product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: ts("2026-02-12T00:00:00Z")),
    ])
    #expect(try plan(log, at: "2026-01-11T12:00:00Z")?.state == .revoked)
    #expect(try plan(log, at: "2026-01-11T12:00:00Z")?.expires == ts("2026-02-01T10:00:00Z"))
    #expect(try plan(log, at: "2026-01-12T00:00:00Z")?.state == .active)
  }
}
