import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The usage-based trial and cached answers (Docs/semantics.md)")
struct UsageTrialTests {
  /// 49 interactions on 1 April, the 50th at 3 April 19:43.
  static let matureByUse: [String] =
    (1...49).map { use("m\($0)", "wy", "2026-04-01T10:\($0 < 10 ? "0" : "")\($0):00Z") }
    + [use("m50", "wy", "2026-04-03T19:43:00Z")]

  @Test("the trial matures on the threshold event's own instant, then grace until M + grace")
  func maturityByUsage() throws {
    var engine = QueryEngine(ledger: try policyLedger(Self.matureByUse))
    let cases: [(String, TrialState, String)] = [
      ("2026-04-03T19:42:59.999Z", .trial, "2026-04-22T10:01:00Z"),
      ("2026-04-03T19:43:00Z", .grace, "2026-04-03T19:43:00Z"),
      ("2026-04-05T19:42:59.999Z", .grace, "2026-04-03T19:43:00Z"),
      ("2026-04-05T19:43:00Z", .expired, "2026-04-03T19:43:00Z"),
    ]
    for (at, state, ends) in cases {
      let trial = engine.policyAnswer("wy", at: at).policy?.trial
      #expect(trial?.state == state, "at \(at)")
      #expect(trial?.ends == ts(ends), "at \(at)")
      #expect(trial?.started == ts("2026-04-01T10:01:00Z"))
    }
    let matured = engine.policyAnswer("wy", at: "2026-04-04T00:00:00Z").policy?.trial
    #expect(matured?.endsBy == "interaction")
    #expect(matured?.graceEnds == ts("2026-04-05T19:43:00Z"))
    // Before maturity, what is known so far: the duration.
    #expect(engine.policyAnswer("wy", at: "2026-04-02T00:00:00Z").policy?.trial?.endsBy == "duration")
    // In grace the trial tier still matches; after it, the intro week (first + P7D) does.
    #expect(engine.policyAnswer("wy", at: "2026-04-05T19:42:59.999Z").policy?.tier == "trial")
    #expect(engine.policyAnswer("wy", at: "2026-04-05T19:43:00Z").policy?.tier == "intro")
  }

  @Test("the trial matures by duration, and on equal instants duration is named first")
  func maturityByDuration() throws {
    let lines = [
      use("p1", "pa", "2026-06-01T00:00:00Z", "pattern"), use("p2", "pa", "2026-06-10T00:00:00Z", "pattern"),
      use("p3", "pa", "2026-06-22T00:00:00Z", "pattern"),  // exactly started + P21D
    ]
    var engine = QueryEngine(ledger: try policyLedger(lines))
    let trial = engine.policyAnswer("pa", at: "2026-06-23T00:00:00Z").policy?.trial
    #expect(trial?.endsBy == "duration")
    #expect(trial?.ends == ts("2026-06-22T00:00:00Z"))
    // A third pattern one day earlier matures it by pattern.
    var early = QueryEngine(
      ledger: try policyLedger(Array(lines.prefix(2)) + [use("p3", "pa", "2026-06-21T00:00:00Z", "pattern")]))
    #expect(early.policyAnswer("pa", at: "2026-06-23T00:00:00Z").policy?.trial?.endsBy == "pattern")
  }

  @Test("subscribing during the trial ends it by subscription, with no grace; a trial is used once")
  func subscribeDuring() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("e1", "ea", "2026-04-01T10:00:00Z", quantity: 3),
        EventLines.line(.purchase(id: "e2", subject: "ea", at: ts("2026-04-03T10:00:00Z"), product: "plus.monthly", transaction: "t1", expires: ts("2026-05-03T10:00:00Z"))),
      ]))
    let during = engine.policyAnswer("ea", at: "2026-04-04T00:00:00Z").policy?.trial
    #expect(during == Holdings.Trial(
      state: .subscribed, started: ts("2026-04-01T10:00:00Z"), ends: ts("2026-04-03T10:00:00Z"),
      endsBy: "subscription", graceEnds: nil))
    #expect(engine.policyAnswer("ea", at: "2026-04-03T09:59:59.999Z").policy?.trial?.state == .trial)
    #expect(engine.policyAnswer("ea", at: "2026-05-03T10:00:00Z").policy?.trial?.state == .expired)
  }

  @Test("subscribing exactly at maturity is not before it: the trial ends by its maturity")
  func subscribeAtMaturity() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("t1", "ti", "2026-06-01T00:00:00Z"),
        EventLines.line(.purchase(id: "t2", subject: "ti", at: ts("2026-06-22T00:00:00Z"), product: "plus.monthly", transaction: "x1", expires: ts("2026-07-22T00:00:00Z"))),
      ]))
    let trial = engine.policyAnswer("ti", at: "2026-06-23T00:00:00Z").policy?.trial
    #expect(trial?.state == .subscribed)
    #expect(trial?.endsBy == "duration")
    #expect(trial?.graceEnds == ts("2026-06-24T00:00:00Z"))
  }

  @Test("without grace, grace_ends equals the maturity and the trial expires at it")
  func noGrace() throws {
    var engine = QueryEngine(ledger: try policyLedger(Self.matureByUse, trialGrace: nil))
    let trial = engine.policyAnswer("wy", at: "2026-04-03T19:43:00Z").policy?.trial
    #expect(trial?.state == .expired)
    #expect(trial?.graceEnds == ts("2026-04-03T19:43:00Z"))
  }

  @Test("a refunded purchase is a conversion only while it gave access")
  func conversionIsAccess() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("r1", "re", "2026-04-01T00:00:00Z"),
        EventLines.line(.purchasePending(id: "r2", subject: "re", at: ts("2026-04-02T00:00:00Z"), product: "plus.lifetime")),
        EventLines.line(.purchase(id: "r3", subject: "re", at: ts("2026-04-05T00:00:00Z"), product: "plus.lifetime", transaction: "l1")),
        EventLines.line(.revocation(id: "r4", subject: "re", at: ts("2026-04-06T00:00:00Z"), transaction: "l1", reason: .refund)),
      ]))
    #expect(engine.policyAnswer("re", at: "2026-04-04T00:00:00Z").policy?.trial?.state == .trial)
    let after = engine.policyAnswer("re", at: "2026-04-07T00:00:00Z").policy?.trial
    #expect(after?.state == .expired)
    #expect(after?.ends == ts("2026-04-05T00:00:00Z"))
    #expect(after?.endsBy == "subscription")
  }

  @Test(
    "a cached answer is fresh up to exactly V + S and stale 1 ms later",
    arguments: [
      ("2026-04-19T08:00:00Z", "PT24H", "2026-04-20T08:00:00Z", false),
      ("2026-04-19T08:00:00Z", "PT24H", "2026-04-20T08:00:00.001Z", true),
      ("2026-01-31T10:00:00Z", "P1M", "2026-02-28T10:00:00Z", false),
      ("2026-01-31T10:00:00Z", "P1M", "2026-02-28T10:00:00.001Z", true),
    ])
  func staleness(verifiedAt: String, budget: String, at: String, isStale: Bool) throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("c1", "ca", "2026-01-01T10:00:00Z"),
        EventLines.line(.purchase(id: "c2", subject: "ca", at: ts("2026-01-02T10:00:00Z"), product: "plus.lifetime", transaction: "l1")),
      ]))
    let cache = CacheRequest(verifiedAt: ts(verifiedAt), maxStaleness: ISODuration(budget)!)
    let answer = engine.policyAnswer("ca", at: at, cache: cache)
    #expect(answer.cache == Holdings.Cache(verifiedAt: ts(verifiedAt), isStale: isStale))
    #expect(answer.asOf == ts(verifiedAt))
    #expect(answer.entitlements.isEmpty == isStale)
    #expect(answer.policy?.tier == (isStale ? "free" : "plus"))
    #expect(answer.policy?.trial?.state == (isStale ? .expired : .subscribed))
    #expect(answer.policy?.trial?.ends == ts("2026-01-02T10:00:00Z"))
  }

  @Test("a cached answer shows what was known at V, not what is known now")
  func cachedKnowledge() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        EventLines.line(.purchase(id: "k1", subject: "ka", at: ts("2026-01-01T00:00:00Z"), product: "plus.lifetime", transaction: "l1")),
        EventLines.line(.revocation(id: "k2", subject: "ka", at: ts("2026-01-02T00:00:00Z"), transaction: "l1").recordedAt("2026-01-03T00:00:00Z")),
      ]))
    let cache = CacheRequest(verifiedAt: ts("2026-01-02T12:00:00Z"))
    #expect(engine.policyAnswer("ka", at: "2026-01-03T00:00:00Z", cache: cache).policy?.tier == "plus")
    #expect(engine.policyAnswer("ka", at: "2026-01-03T00:00:00Z").policy?.tier != "plus")
  }

  @Test("leaks are the uses not allowed at their own instant as known at their own recorded time")
  func leaks() throws {
    var lines = UsageCountingTests.freeDay
    lines.append(use("u6", "ana", "2026-03-30T09:05:00Z"))  // the 6th: a leak
    lines.append(use("u7", "ana", "2026-03-30T09:05:00Z"))  // same instant: not counted against u6, a leak too
    lines.append(use("d1", "ana", "2026-03-30T10:00:00Z", "deep_compare"))  // no tier offers it
    lines.append(use("t1", "ana", "2026-03-01T08:30:00Z", "saved_trip"))  // in the trial: unlimited
    var engine = QueryEngine(ledger: try policyLedger(lines))
    var found: [String] = []
    engine.forEachLeak { found.append($0.id) }
    #expect(found == ["u6", "u7", "d1"])
  }

  @Test("a release at or over a limit is not a leak")
  func releaseIsNoLeak() throws {
    var engine = QueryEngine(
      ledger: try policyLedger([
        use("s0", "sv", "2026-03-01T00:00:00Z", "deep_compare", quantity: 1),  // in the trial, but only plus lists deep_compare: a leak
        use("s1", "sv", "2026-05-01T00:00:00Z", "saved_trip"), use("s2", "sv", "2026-05-01T01:00:00Z", "saved_trip"),
        use("s3", "sv", "2026-05-02T00:00:00Z", "saved_trip", quantity: -1),
      ]))
    var found: [String] = []
    engine.forEachLeak { found.append($0.id) }
    #expect(found == ["s0", "s2"])
  }
}
