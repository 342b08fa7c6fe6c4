import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// Contract v1.3, section 5: an entitlement or plan in state `grace` carries `grace_expires`;
/// no other state has the key.
@Suite("grace_expires in answers (contract v1.3, section 5)")
struct GraceExpiresTests {
  static let log = EventLines.log([
    .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")),
    .graceEntered(id: "g1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), originalTransaction: "t1", graceExpires: ts("2026-02-17T00:00:00Z")),
    .graceEntered(id: "g2", subject: "u1", at: ts("2026-02-03T00:00:00Z"), originalTransaction: "t1", graceExpires: ts("2026-02-20T00:00:00Z")),
  ])

  /// (instant asked, the state the plan reports, the `grace_expires` expected or nil for no key).
  static let cases: [(String, String, String?)] = [
    ("2026-01-31T23:59:59.999Z", "active", nil),
    ("2026-02-01T00:00:00Z", "grace", "2026-02-17T00:00:00Z"),
    ("2026-02-03T00:00:00Z", "grace", "2026-02-20T00:00:00Z"),
    ("2026-02-19T23:59:59.999Z", "grace", "2026-02-20T00:00:00Z"),
    ("2026-02-20T00:00:00Z", "billing_retry", nil),
  ]

  @Test("the key is on the entitlement and the plan exactly while the state is grace, from the latest grace_entered", arguments: cases)
  func graceKey(at: String, state: String, graceExpires: String?) throws {
    var engine = QueryEngine(ledger: try ledger(Self.log))
    let answer = engine.checkedAnswer("u1", at: at, asOf: nil).jsonValue
    let plan = answer["plans"]?["pro"]
    #expect(plan?["state"]?.stringValue == state)
    #expect(plan?["grace_expires"]?.stringValue == graceExpires)
    #expect((plan?["grace_expires"] != nil) == (graceExpires != nil))
    let entitlement = answer["entitlements"]?["pro"]
    if state == "billing_retry" {
      // Past the grace end the period end is long gone: no access, no entitlement.
      #expect(entitlement == nil)
    } else {
      #expect(entitlement?["grace_expires"]?.stringValue == graceExpires)
      #expect((entitlement?["grace_expires"] != nil) == (graceExpires != nil))
    }
  }

  @Test("Holdings carries graceExpires and codes it as the CLI's key")
  func holdings() throws {
    let store = LedgerStore(inMemory: try LedgerCatalog(json: exampleCatalogText))
    _ = try store.append(lines: Self.log)
    let holdings = store.answer(for: "u1", at: Timestamp.parseRFC3339("2026-02-10T00:00:00Z")!)
    #expect(holdings.plans["pro"]?.graceExpires == Timestamp.parseRFC3339("2026-02-20T00:00:00Z"))
    #expect(holdings.entitlements["pro"]?.graceExpires == Timestamp.parseRFC3339("2026-02-20T00:00:00Z"))
    let decoded = try JSONDecoder().decode(Holdings.self, from: try JSONEncoder().encode(holdings))
    #expect(decoded == holdings)
  }
}
