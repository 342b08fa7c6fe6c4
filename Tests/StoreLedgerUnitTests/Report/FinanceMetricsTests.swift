import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// MRR movement, refund requests, net revenue with a prorated refund, ARPPU and realized LTV on a
/// log worked out by hand from Docs/reports.md (monthly buckets, January to March 2026; USD only).
@Suite("Finance metrics: MRR movement, refund requests, ARPPU and lifetime value, hand-derived")
struct FinanceMetricsTests {
  /// One line per event; the comment before each subject gives its MRR at 1 Jan, 1 Feb, 1 Mar, 1 Apr.
  static let lines = [
    // ann 0, 1000, 1000, 1000: new in January.
    EventLines.line(.purchase(id: "a1", subject: "ann", at: ts("2026-01-10T00:00:00Z"), product: "pro.monthly", transaction: "a1", expires: ts("2026-02-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewal(id: "a2", subject: "ann", at: ts("2026-02-10T00:00:00Z"), product: "pro.monthly", transaction: "a2", originalTransaction: "a1", expires: ts("2026-03-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewal(id: "a3", subject: "ann", at: ts("2026-03-10T00:00:00Z"), product: "pro.monthly", transaction: "a3", originalTransaction: "a1", expires: ts("2026-04-10T00:00:00Z"), price: 1000, currency: "USD")),
    // bob 1000, 1000, 2000, 2000: paying since December (no cohort here); an upgrade to an annual plan of 24000 is expansion.
    EventLines.line(.purchase(id: "b1", subject: "bob", at: ts("2025-12-15T00:00:00Z"), product: "pro.monthly", transaction: "b1", expires: ts("2026-01-15T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewal(id: "b2", subject: "bob", at: ts("2026-01-15T00:00:00Z"), product: "pro.monthly", transaction: "b2", originalTransaction: "b1", expires: ts("2026-02-15T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.purchase(id: "b3", subject: "bob", at: ts("2026-02-05T00:00:00Z"), product: "pro.annual", transaction: "b3", originalTransaction: "b1", expires: ts("2027-02-05T00:00:00Z"), price: 24000, currency: "USD")),
    // cat 0, 1500, 1000, 0: two plans; the voice plan lapses (contraction), then the pro plan (churn).
    EventLines.line(.purchase(id: "c1", subject: "cat", at: ts("2026-01-05T00:00:00Z"), product: "pro.monthly", transaction: "c1", expires: ts("2026-02-05T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.purchase(id: "c2", subject: "cat", at: ts("2026-01-05T00:00:00Z"), product: "voice.monthly", transaction: "c2", expires: ts("2026-02-05T00:00:00Z"), price: 500, currency: "USD")),
    EventLines.line(.renewal(id: "c3", subject: "cat", at: ts("2026-02-05T00:00:00Z"), product: "pro.monthly", transaction: "c3", originalTransaction: "c1", expires: ts("2026-03-05T00:00:00Z"), price: 1000, currency: "USD")),
    // dan 1000, 0, 0, 1000: churns in January, back in March (a reactivation: he had MRR before).
    EventLines.line(.purchase(id: "d1", subject: "dan", at: ts("2025-12-20T00:00:00Z"), product: "pro.monthly", transaction: "d1", expires: ts("2026-01-20T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.purchase(id: "d2", subject: "dan", at: ts("2026-03-03T00:00:00Z"), product: "pro.monthly", transaction: "d2", expires: ts("2026-04-03T00:00:00Z"), price: 1000, currency: "USD")),
    // eve 0, 0, 0, 1000: asks for a refund, is refunded 400 of 1000 (access revoked, so no MRR at
    // 1 Mar), buys again in March (a reactivation: MRR above 0 from 3 to 10 February); the store
    // reverses the refund in March (+400; the grant stays counted in February).
    EventLines.line(.purchase(id: "e1", subject: "eve", at: ts("2026-02-03T00:00:00Z"), product: "pro.monthly", transaction: "e1", expires: ts("2026-03-03T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.refundRequested(id: "e2", subject: "eve", at: ts("2026-02-08T00:00:00Z"), transaction: "e1", reason: .unsatisfied)),
    EventLines.line(.revocation(id: "e3", subject: "eve", at: ts("2026-02-10T00:00:00Z"), transaction: "e1", reason: .refund, refunded: 400)),
    EventLines.line(.purchase(id: "e4", subject: "eve", at: ts("2026-03-15T00:00:00Z"), product: "pro.monthly", transaction: "e4", expires: ts("2026-04-15T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.refundReversed(id: "e5", subject: "eve", at: ts("2026-03-20T00:00:00Z"), transaction: "e1")),
    // fay 0, 1000, 0, 0: her refund request is declined; the plan lapses in February.
    EventLines.line(.purchase(id: "f1", subject: "fay", at: ts("2026-01-20T00:00:00Z"), product: "pro.monthly", transaction: "f1", expires: ts("2026-02-20T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.refundRequested(id: "f2", subject: "fay", at: ts("2026-02-02T00:00:00Z"), transaction: "f1")),
    EventLines.line(.refundDeclined(id: "f3", subject: "fay", at: ts("2026-02-04T00:00:00Z"), transaction: "f1")),
    // gus: a consumable for 2000 in March: paying, no MRR.
    EventLines.line(.purchase(id: "g1", subject: "gus", at: ts("2026-03-05T00:00:00Z"), product: "coins.100", transaction: "g1", price: 2000, currency: "USD")),
    // hal: a lifetime unlock revoked with reason other after a request: a refund, not a granted request.
    EventLines.line(.purchase(id: "h1", subject: "hal", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "h1", price: 5000, currency: "USD")),
    EventLines.line(.refundRequested(id: "h2", subject: "hal", at: ts("2026-02-02T00:00:00Z"), transaction: "h1")),
    EventLines.line(.revocation(id: "h3", subject: "hal", at: ts("2026-02-03T00:00:00Z"), transaction: "h1", reason: .other)),
  ]

  static let buckets = { try! ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month) }()

  static func report(_ lines: [String] = lines) throws -> Report {
    try ReportBuilder.report(ledger: try ledger(lines.joined(separator: "\n")), buckets: buckets, asOf: nil)
  }

  static func usd(_ amount: Int64) -> MetricValue { amount == 0 ? .keyed([]) : .keyed([(key: "USD", value: amount)]) }

  @Test(
    "MRR movement per bucket: new, reactivation, expansion, contraction and churn, and the identity holds",
    arguments: [
      // (bucket, opening, new, reactivation, expansion, contraction, churn, closing)
      (0, 2000, 3500, 0, 0, 0, 1000, 4500), (1, 4500, 0, 0, 1000, 500, 1000, 4000), (2, 4000, 0, 2000, 0, 0, 1000, 5000),
    ] as [(Int, Int64, Int64, Int64, Int64, Int64, Int64, Int64)])
  func movement(
    bucket: Int, opening: Int64, new: Int64, reactivation: Int64, expansion: Int64, contraction: Int64, churn: Int64,
    closing: Int64
  ) throws {
    let b = try Self.report().buckets[bucket]
    #expect(b["mrr_opening"] == Self.usd(opening))
    #expect(b["mrr_new"] == Self.usd(new))
    #expect(b["mrr_reactivation"] == Self.usd(reactivation))
    #expect(b["mrr_expansion"] == Self.usd(expansion))
    #expect(b["mrr_contraction"] == Self.usd(contraction))
    #expect(b["mrr_churn"] == Self.usd(churn))
    #expect(b["mrr"] == Self.usd(closing))
    #expect(opening + new + reactivation + expansion - contraction - churn == closing)
  }

  @Test("a bucket's opening MRR is the previous bucket's closing MRR")
  func openingIsPreviousClosing() throws {
    let buckets = try Self.report().buckets
    for index in 1..<buckets.count { #expect(buckets[index]["mrr_opening"] == buckets[index - 1]["mrr"]) }
  }

  @Test("revenue is net of the refunded share and gets it back on the reversal; refunded and reversed are those amounts")
  func netRevenue() throws {
    let buckets = try Self.report().buckets
    #expect(buckets.map { $0["revenue"] } == [Self.usd(4500), Self.usd(26600), Self.usd(5400)])
    #expect(buckets.map { $0["refunded"] } == [Self.usd(0), Self.usd(5400), Self.usd(0)])
    #expect(buckets.map { $0["reversed"] } == [Self.usd(0), Self.usd(0), Self.usd(400)])
  }

  @Test("refund requests, declines and grants count in their own buckets, and the share granted of the decided ones")
  func refundRequests() throws {
    let buckets = try Self.report().buckets
    #expect(buckets.map { $0["refund_requests"] } == [.count(0), .count(3), .count(0)])
    #expect(buckets.map { $0["refunds_declined"] } == [.count(0), .count(1), .count(0)])
    // eve's refund follows her request; hal's revocation has reason other; the March reversal undoes nothing.
    #expect(buckets.map { $0["refunds_granted"] } == [.count(0), .count(1), .count(0)])
    #expect(buckets[1]["refund_grant_rate"]?.rateTenThousandths == 5000)
    #expect(buckets[0]["refund_grant_rate"]?.rateTenThousandths == nil)
  }

  @Test("ARPPU is net revenue over the customers with a paid charge in the bucket, rounded half up")
  func arppu() throws {
    let buckets = try Self.report().buckets
    // January: ann bob cat fay; February: ann bob cat eve hal; March: ann dan eve gus.
    #expect(buckets.map { $0["paying_customers"] } == [.count(4), .count(5), .count(4)])
    #expect(buckets.map { $0["arppu"] } == [Self.usd(1125), Self.usd(5320), Self.usd(1350)])
  }

  @Test("realized LTV: each first-payment cohort's cumulative net revenue per customer, month by month")
  func lifetimeValue() throws {
    let buckets = try Self.report().buckets
    func keyed(_ pairs: KeyValuePairs<String, Int64>) -> MetricValue { .keyed(pairs.map { (key: $0.key, value: $0.value) }) }
    // January: ann cat fay (bob and dan first paid in December); February: eve hal; March: gus.
    #expect(buckets.map { $0["first_payment_customers"] } == [.count(3), .count(2), .count(1)])
    #expect(buckets[0]["first_payment_revenue"] == keyed(["USD/0": 3500, "USD/1": 5500, "USD/2": 6500]))
    #expect(buckets[0]["ltv"] == keyed(["USD/0": 1167, "USD/1": 1833, "USD/2": 2167]))
    #expect(buckets[1]["first_payment_revenue"] == keyed(["USD/0": 600, "USD/1": 2000]))
    #expect(buckets[1]["ltv"] == keyed(["USD/0": 300, "USD/1": 1000]))
    #expect(buckets[2]["ltv"] == keyed(["USD/0": 2000]))
  }

  @Test("shards' partial reports merge back into the whole report exactly, derived metrics divided again")
  func shardsMerge() throws {
    let whole = try Self.report()
    let odd = Set(["ann", "cat", "eve", "gus"])
    let parts = [
      Self.lines.filter { line in odd.contains(where: { line.contains(#""subject":"\#($0)""#) }) },
      Self.lines.filter { line in !odd.contains(where: { line.contains(#""subject":"\#($0)""#) }) },
    ]
    let partials = try parts.map { part in
      try Report.parsePartial(Array(JSONWriter.pretty(try Self.report(part).partialJSONValue).utf8), file: "p")
    }
    #expect(try Report.merging(partials, files: ["a", "b"]) == whole)
  }

  @Test("cohort keys order by currency, then offset as a number", arguments: [
    ("USD/2", "USD/10", true), ("USD/10", "USD/2", false), ("EUR/9", "USD/0", true),
  ])
  func cohortKeyOrder(a: String, b: String, precedes: Bool) {
    #expect(ReportMetric.ltv.keyPrecedes(a, b) == precedes)
  }

  @Test("a quotient rounds half up, towards +∞, for negative amounts too", arguments: [
    (Int64(3500), Int64(3), Int64(1167)), (5500, 3, 1833), (5, 2, 3), (-5, 2, -2), (-7, 2, -3), (0, 4, 0),
  ])
  func quotient(amount: Int64, count: Int64, result: Int64) {
    #expect(ReportDerivation.quotient(amount, count) == result)
  }
}
