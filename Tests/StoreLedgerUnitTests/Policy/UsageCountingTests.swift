import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Usage counting, windows and tiers (Docs/semantics.md, Usage)")
struct UsageCountingTests {
  /// Five free uses on 30 March, long after the trial and the intro week.
  static let freeDay = PolicyFixtures.freeDay

  @Test(
    "a use at exactly T is not counted in used; one before it is",
    arguments: [
      ("2026-03-30T09:04:00Z", 4, true), ("2026-03-30T09:04:00.001Z", 5, false),
      ("2026-03-30T09:03:59.999Z", 4, true), ("2026-03-30T09:00:00Z", 0, true),
    ])
  func useAtT(at: String, used: Int64, allowed: Bool) throws {
    var engine = QueryEngine(ledger: try policyLedger(Self.freeDay))
    let interaction = engine.feature("interaction", "ana", at: at)
    #expect(interaction?.used == used)
    #expect(interaction?.allowed == allowed)
    #expect(interaction?.tier == "free")
    #expect(interaction?.limit == 5)
  }

  @Test(
    "the day window begins at local midnight in the policy's utc_offset",
    arguments: [
      // +02:00: local midnight of 31 March is 30 March 22:00Z.
      ("+02:00", "2026-03-30T21:59:59.999Z", Int64(5), "2026-03-30T22:00:00Z"),
      ("+02:00", "2026-03-30T22:00:00Z", Int64(0), "2026-03-31T22:00:00Z"),
      // -05:00: 30 March local ends at 31 March 05:00Z, so all five still count at 04:59.
      ("-05:00", "2026-03-31T04:59:59.999Z", Int64(5), "2026-03-31T05:00:00Z"),
      ("-05:00", "2026-03-31T05:00:00Z", Int64(0), "2026-04-01T05:00:00Z"),
    ])
  func dayWindow(offset: String, at: String, used: Int64, windowEnds: String) throws {
    var engine = QueryEngine(ledger: try policyLedger(Self.freeDay, offset: offset))
    let interaction = engine.feature("interaction", "ana", at: at)
    #expect(interaction?.used == used)
    #expect(interaction?.windowEnds == ts(windowEnds))
  }

  @Test("the week window begins on Monday 00:00 local time and the month on the 1st")
  func weekAndMonthWindows() throws {
    // 2026-03-29 is a Sunday; 2026-03-30 a Monday. Local time +02:00.
    var engine = QueryEngine(
      ledger: try policyLedger(
        [
          use("w0", "bo", "2026-02-01T00:00:00Z", "saved_trip"),
          use("w1", "bo", "2026-03-29T21:59:59.999Z", "weekly"),  // Sunday 23:59:59.999 local
          use("w2", "bo", "2026-03-29T22:00:00Z", "weekly"),  // Monday 00:00 local
          use("m1", "bo", "2026-03-31T21:59:59.999Z", "monthly"),  // 31 March 23:59:59.999 local
          use("m2", "bo", "2026-03-31T22:00:00Z", "monthly"),  // 1 April 00:00 local
        ], offset: "+02:00"))
    let weekly = engine.feature("weekly", "bo", at: "2026-03-30T12:00:00Z")
    #expect(weekly?.used == 1)
    #expect(weekly?.windowEnds == ts("2026-04-05T22:00:00Z"))
    #expect(engine.feature("weekly", "bo", at: "2026-03-29T21:59:59.999Z")?.used == 0)
    // Monday 00:00 local: Sunday's use is last week's, Monday's own use is at T.
    #expect(engine.feature("weekly", "bo", at: "2026-03-29T22:00:00Z")?.used == 0)
    #expect(engine.feature("weekly", "bo", at: "2026-03-29T22:00:00.001Z")?.used == 1)
    let monthly = engine.feature("monthly", "bo", at: "2026-04-01T00:00:00Z")
    #expect(monthly?.used == 1)
    #expect(monthly?.windowEnds == ts("2026-04-30T22:00:00Z"))
    #expect(engine.feature("monthly", "bo", at: "2026-03-31T21:59:59.999Z")?.windowEnds == ts("2026-03-31T22:00:00Z"))
  }

  @Test("used is a plain sum: releases are not clamped, so a save is allowed again after a delete")
  func releases() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("s1", "cy", "2026-07-01T00:00:00Z", "saved_trip"),
        use("s2", "cy", "2026-07-02T00:00:00Z", "saved_trip", quantity: -1),
        use("s3", "cy", "2026-07-03T00:00:00Z", "saved_trip", quantity: -1),
      ]))
    let saved = engine.feature("saved_trip", "cy", at: "2026-08-01T00:00:00Z")
    #expect(saved?.used == -1)
    #expect(saved?.allowed == true)
    #expect(saved?.tier == "free")
  }

  @Test("the first matching tier that allows a feature is reported, else the first that lists it")
  func tierOrder() throws {
    // In the first week after the trial: intro (150 ever) allows interaction; when it is spent,
    // free's 5 a day still allow a use and free is reported.
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("i1", "di", "2026-05-01T09:00:00Z", quantity: 150), use("i2", "di", "2026-05-01T12:00:00Z", quantity: 2),
      ]))
    let answer = engine.policyAnswer("di", at: "2026-05-04T10:00:00Z")
    #expect(answer.policy?.tier == "intro")
    let interaction = answer.policy?.usage["interaction"]
    #expect(interaction?.tier == "free")
    #expect(interaction?.allowed == true)
    #expect(interaction?.used == 0)
    // deep_compare: no matching tier lists it: tier null, limit 0, used over the feature's own window.
    let deep = answer.policy?.usage["deep_compare"]
    #expect(deep == Holdings.FeatureUsage(
      allowed: false, tier: nil, used: 0, limit: 0, windowEnds: ts("2026-05-05T00:00:00Z")))
    // After the intro week (T == first + P7D exactly) the intro tier no longer matches.
    #expect(engine.policyAnswer("di", at: "2026-05-08T09:00:00Z").policy?.tier == "free")
    #expect(engine.policyAnswer("di", at: "2026-05-08T08:59:59.999Z").policy?.tier == "intro")
  }

  @Test("a subject with no counted events is in the first unconditional tier, with no trial")
  func emptySubject() throws {
    var engine = QueryEngine(ledger: try policyLedger([use("l1", "late", "2026-03-10T00:00:00Z")]))
    for subject in ["late", "nobody"] {
      let answer = engine.policyAnswer(subject, at: "2026-03-05T00:00:00Z")
      #expect(answer.policy?.tier == "free")
      #expect(answer.policy?.trial == nil)
    }
    #expect(engine.policyAnswer("late", at: "2026-03-12T00:00:00Z").policy?.tier == "trial")
    // As known before the use was recorded, it does not count either.
    let late = [use("l1", "late", "2026-03-10T00:00:00Z", recorded: "2026-03-11T00:00:00Z")]
    var known = QueryEngine(ledger: try policyLedger(late))
    #expect(known.policyAnswer("late", at: "2026-03-12T00:00:00Z", asOf: "2026-03-10T12:00:00Z").policy?.tier == "free")
  }

  @Test("a catalog without a policy answers exactly the v1 keys")
  func noPolicy() throws {
    var engine = QueryEngine(ledger: try ledger(EventLineParserTests.valid))
    let answer = engine.checkedAnswer("u1", at: "2026-03-05T00:00:00Z")
    guard case .object(let members) = answer.jsonValue else { return }
    #expect(Set(members.map(\.0)) == ["subject", "at", "as_of", "entitlements", "plans", "balances"])
  }

  @Test("a subscriber's premium features and limits come from the plus tier")
  func subscriber() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        EventLines.line(.purchase(id: "p1", subject: "ed", at: ts("2026-04-01T00:00:00Z"), product: "plus.monthly", transaction: "t1", expires: ts("2026-05-01T00:00:00Z"))),
        use("d1", "ed", "2026-04-02T10:00:00Z", "deep_compare"),
      ]))
    let answer = engine.policyAnswer("ed", at: "2026-04-02T12:00:00Z")
    #expect(answer.policy?.tier == "plus")
    let deep = answer.policy?.usage["deep_compare"]
    #expect(deep?.allowed == true && deep?.limit == nil && deep?.used == 1 && deep?.tier == "plus")
    // At expires exactly, plus no longer matches.
    #expect(engine.policyAnswer("ed", at: "2026-05-01T00:00:00Z").policy?.tier == "free")
    #expect(engine.policyAnswer("ed", at: "2026-04-30T23:59:59.999Z").policy?.tier == "plus")
  }
}
