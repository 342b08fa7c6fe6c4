import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `mrr`, `mrr_unpriced_subscriptions`, `reactivations`, `new_subscriptions` and the paid cohort
/// triangle on a log worked out by hand from Docs/reports.md (monthly buckets, January to March 2026).
@Suite("Recurring revenue, reactivations and paid cohorts, hand-derived")
struct RecurringMetricsTests {
  /// One line per event; the comment after each subject says what it exercises.
  static let log = [
    // amy: 31-day period of 1000 USD (a month: 1000 a month), extended without a new charge; lapses; comes
    // back in March under a new original transaction (Google Play's resubscription).
    EventLines.line(.purchase(id: "a1", subject: "amy", at: ts("2026-01-05T00:00:00Z"), product: "pro.monthly", transaction: "a1", expires: ts("2026-02-05T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewalExtended(id: "a2", subject: "amy", at: ts("2026-01-20T00:00:00Z"), originalTransaction: "a1", expires: ts("2026-02-10T00:00:00Z"))),
    EventLines.line(.purchase(id: "a3", subject: "amy", at: ts("2026-03-10T00:00:00Z"), product: "pro.monthly", transaction: "a2", expires: ts("2026-04-10T00:00:00Z"), price: 1000, currency: "USD")),
    // ben: 1 thousandth over 60 days (nearest nominal period P2M) is exactly 0.5 thousandth a month: rounds up to 1.
    EventLines.line(.purchase(id: "b1", subject: "ben", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "b1", expires: ts("2026-03-02T00:00:00Z"), price: 1, currency: "GBP")),
    // cal, dan: 1 thousandth over 61 days (P2M) each rounds up to 1, so EUR is 2 (not the 1 of rounding the sum).
    EventLines.line(.purchase(id: "c1", subject: "cal", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "c1", expires: ts("2026-03-03T00:00:00Z"), price: 1, currency: "EUR")),
    EventLines.line(.purchase(id: "d1", subject: "dan", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "d1", expires: ts("2026-03-03T00:00:00Z"), price: 1, currency: "EUR")),
    // eve: a free trial across the January end adds 0 and is not paying; the paid renewal
    // (2000 over 28 days, a month: 2000) starts her paid cohort in February.
    EventLines.line(.purchase(id: "e1", subject: "eve", at: ts("2026-01-25T00:00:00Z"), product: "pro.monthly", transaction: "e1", expires: ts("2026-02-08T00:00:00Z"), offer: .trial, price: 0, currency: "USD")),
    EventLines.line(.renewal(id: "e2", subject: "eve", at: ts("2026-02-08T00:00:00Z"), product: "pro.monthly", transaction: "e2", originalTransaction: "e1", expires: ts("2026-03-08T00:00:00Z"), price: 2000, currency: "USD")),
    // fay: family-shared, left out of MRR and cohorts.
    EventLines.line(.purchase(id: "f1", subject: "fay", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "f1", expires: ts("2026-02-15T00:00:00Z"), ownership: .familyShared, price: 1000, currency: "USD")),
    // gus: an annual plan without a price: counted in mrr_unpriced_subscriptions.
    EventLines.line(.purchase(id: "g1", subject: "gus", at: ts("2026-01-15T00:00:00Z"), product: "pro.annual", transaction: "g1", expires: ts("2027-01-15T00:00:00Z"))),
    // hal: grace entered at exactly the January end still gives access: 3000 a month.
    EventLines.line(.purchase(id: "h1", subject: "hal", at: ts("2026-01-01T00:00:00Z"), product: "voice.monthly", transaction: "h1", expires: ts("2026-02-01T00:00:00Z"), price: 3000, currency: "USD")),
    EventLines.line(.graceEntered(id: "h2", subject: "hal", at: ts("2026-02-01T00:00:00Z"), originalTransaction: "h1", graceExpires: ts("2026-02-16T00:00:00Z"))),
    // ivy: billing retry past the period end gives no access: adds nothing.
    EventLines.line(.purchase(id: "i1", subject: "ivy", at: ts("2026-01-01T00:00:00Z"), product: "voice.monthly", transaction: "i1", expires: ts("2026-01-31T00:00:00Z"), price: 3000, currency: "USD")),
    EventLines.line(.billingRetry(id: "i2", subject: "ivy", at: ts("2026-01-31T00:00:00Z"), originalTransaction: "i1")),
    // jon: expires, then resubscribes under the same original transaction (the App Store's way):
    // a reactivation, not a new subscription; 1500 a month.
    EventLines.line(.purchase(id: "j1", subject: "jon", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "j1", expires: ts("2026-02-01T00:00:00Z"), price: 1500, currency: "USD")),
    EventLines.line(.expiration(id: "j2", subject: "jon", at: ts("2026-02-01T00:00:00Z"), originalTransaction: "j1", reason: .voluntary)),
    EventLines.line(.purchase(id: "j3", subject: "jon", at: ts("2026-02-20T00:00:00Z"), product: "pro.monthly", transaction: "j2", originalTransaction: "j1", expires: ts("2026-03-20T00:00:00Z"), price: 1500, currency: "USD")),
    // kat: buys an annual (12000 over 365 days, P1Y: 1000 a month) while her unpriced monthly still gives
    // access: a new subscription, not a reactivation; both count while both give access.
    EventLines.line(.purchase(id: "k1", subject: "kat", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "k1", expires: ts("2026-03-01T00:00:00Z"))),
    EventLines.line(.purchase(id: "k2", subject: "kat", at: ts("2026-01-15T00:00:00Z"), product: "pro.annual", transaction: "k2", expires: ts("2027-01-15T00:00:00Z"), price: 12000, currency: "USD")),
    // lee: a new original transaction at exactly the old period's end (T == expires: no access)
    // is a reactivation, effective in February; at the January end it already holds (1000 over 28 days: 1000).
    EventLines.line(.purchase(id: "l1", subject: "lee", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "l1", expires: ts("2026-02-01T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.purchase(id: "l2", subject: "lee", at: ts("2026-02-01T00:00:00Z"), product: "pro.monthly", transaction: "l2", expires: ts("2026-03-01T00:00:00Z"), price: 1000, currency: "USD")),
    // mia: a lapsed voice plan does not make her first pro plan a reactivation (another group).
    EventLines.line(.purchase(id: "m1", subject: "mia", at: ts("2026-01-01T00:00:00Z"), product: "voice.monthly", transaction: "m1", expires: ts("2026-01-10T00:00:00Z"))),
    EventLines.line(.purchase(id: "m2", subject: "mia", at: ts("2026-02-05T00:00:00Z"), product: "pro.monthly", transaction: "m2", expires: ts("2026-03-05T00:00:00Z"))),
  ].joined(separator: "\n")

  static func report() throws -> Report {
    try ReportBuilder.report(
      ledger: try ledger(log),
      buckets: try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month),
      asOf: nil)
  }

  static func keyed(_ pairs: KeyValuePairs<String, Int64>) -> MetricValue {
    .keyed(pairs.map { (key: $0.key, value: $0.value) })
  }

  @Test("mrr and the priced and unpriced counts at each bucket's end equal the hand-derived figures")
  func recurring() throws {
    let buckets = try Self.report().buckets
    // 31 January: amy 1000 + hal 3000 + kat 1000 + lee 1000 USD; ben 1 GBP; cal and dan 1 EUR each.
    #expect(buckets[0]["mrr"] == Self.keyed(["EUR": 2, "GBP": 1, "USD": 6000]))
    #expect(buckets[0]["mrr_unpriced_subscriptions"] == .count(2))  // gus, kat's monthly
    #expect(buckets[0]["mrr_priced_subscriptions"] == .count(7))  // amy, hal, kat, lee, ben, cal, dan
    // 28 February: eve 2000 + kat 1000 + jon 1500 USD; ben 1 GBP; cal and dan 2 EUR.
    #expect(buckets[1]["mrr"] == Self.keyed(["EUR": 2, "GBP": 1, "USD": 4500]))
    #expect(buckets[1]["mrr_unpriced_subscriptions"] == .count(2))  // gus, mia
    #expect(buckets[1]["mrr_priced_subscriptions"] == .count(6))  // eve, kat, jon, ben, cal, dan
    // 31 March: amy 1000 + kat 1000.
    #expect(buckets[2]["mrr"] == Self.keyed(["USD": 2000]))
    #expect(buckets[2]["mrr_unpriced_subscriptions"] == .count(1))
    #expect(buckets[2]["mrr_priced_subscriptions"] == .count(2))  // amy, kat
  }

  @Test("a reactivation is a purchase back into a lapsed group, and is not also a new subscription")
  func reactivations() throws {
    let buckets = try Self.report().buckets
    #expect(buckets.map { $0["reactivations"] } == [.count(0), .count(2), .count(1)])  // -, lee and jon, amy
    #expect(
      buckets[0]["new_subscriptions"]
        == Self.keyed(["pro.annual": 2, "pro.monthly": 8, "voice.monthly": 3]))
    #expect(buckets[1]["new_subscriptions"] == Self.keyed(["pro.monthly": 1]))  // mia
    #expect(buckets[2]["new_subscriptions"] == Self.keyed([:]))
  }

  @Test("the paid cohort triangle: subjects by the bucket of their first paid period, still paying k bucket ends later")
  func cohorts() throws {
    let buckets = try Self.report().buckets
    // January: amy ben cal dan gus hal ivy jon kat lee mia. Paying on 1 Feb: amy ben cal dan gus
    // hal kat lee; on 1 Mar: ben cal dan gus jon kat mia; on 1 Apr: amy gus kat.
    #expect(buckets.map { $0["paid_cohort_subjects"] } == [.count(11), .count(1), .count(0)])
    #expect(buckets[0]["paid_cohort_retained"] == Self.keyed(["0": 8, "1": 7, "2": 3]))
    #expect(buckets[1]["paid_cohort_retained"] == Self.keyed(["0": 1, "1": 0]))  // eve
    #expect(buckets[2]["paid_cohort_retained"] == Self.keyed(["0": 0]))
  }

  @Test(
    "a charge's monthly amount is its price spread over the nominal period, rounded half up to a thousandth",
    arguments: [
      // February's 28 days are still a month: 4.99, not 5.35.
      (4990, 28, nil, 4990), (4990, 31, nil, 4990), (49990, 365, nil, 4166), (49990, 366, nil, 4166),
      (1000, 7, nil, 4333), (1, 60, nil, 1), (1, 61, nil, 1), (3, 180, nil, 1), (999, 91, nil, 333),
      (1000, 30, NominalPeriod.year, 83), (1000, 365, NominalPeriod.month, 1000), (12000, 3, NominalPeriod.week, 52000),
    ] as [(Int64, Int64, NominalPeriod?, Int64)])
  func monthly(price: Int64, days: Int64, period: NominalPeriod?, thousandths: Int64) {
    let charge = PeriodCharge(
      start: Timestamp(millisecondsSinceEpoch: 0), expires: Timestamp(millisecondsSinceEpoch: days * 86_400_000),
      period: period, hasPrice: true, price: price, currency: 0)
    #expect(charge.monthlyThousandths == thousandths)
  }

  @Test(
    "a charge without a catalog period takes the nominal period nearest its length, the shorter one on a tie",
    arguments: [
      (0, NominalPeriod.week), (7 * 86_400_000, .week), (1872 * 864_000, .week), (1873 * 864_000, .month),
      (28 * 86_400_000, .month), (45 * 86_400_000, .month), (46 * 86_400_000, .twoMonths),
      (76 * 86_400_000, .twoMonths), (77 * 86_400_000, .quarter), (136 * 86_400_000, .quarter),
      (137 * 86_400_000, .halfYear), (273 * 86_400_000, .halfYear), (274 * 86_400_000, .year), (Int64.max, .year),
    ] as [(Int64, NominalPeriod)])
  func nearest(milliseconds: Int64, period: NominalPeriod) {
    #expect(NominalPeriod.nearest(toMilliseconds: milliseconds) == period)
  }

  @Test("a monthly amount beyond the report's range is refused, not wrapped")
  func monthlyOverflow() {
    let charge = PeriodCharge(
      start: Timestamp(millisecondsSinceEpoch: 0), expires: Timestamp(millisecondsSinceEpoch: 1), period: .week,
      hasPrice: true, price: Int64.max, currency: 0)
    #expect(charge.monthlyThousandths == nil)
  }

  @Test("the catalog's period decides MRR over the charge's length, and a wrong one is refused")
  func catalogPeriod() throws {
    let text = #"{"products": {"pro.quarter": {"type": "auto_renewable", "group": "pro", "entitlements": ["pro"], "period": "P3M"}}}"#
    let catalog = try Catalog.parse(text, file: "catalog.json")
    #expect(catalog.products.first?.period == .quarter)
    // A 31-day first period of a quarterly plan is a third of its price a month, not the whole price.
    let line =
      EventLines.line(.purchase(id: "q1", subject: "q", at: ts("2026-01-01T00:00:00Z"), product: "pro.quarter", transaction: "q1", expires: ts("2026-02-01T00:00:00Z"), price: 9000, currency: "USD"))
    let report = try ReportBuilder.report(
      ledger: try ledger(line, catalogText: text),
      buckets: try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-01-02T00:00:00Z"), every: .day), asOf: nil)
    #expect(report.buckets[0]["mrr"] == Self.keyed(["USD": 3000]))
    #expect(throws: DiagnosticList.self) {
      try Catalog.parse(
        #"{"products": {"pro.x": {"type": "auto_renewable", "group": "pro", "entitlements": ["pro"], "period": "P5D"}}}"#,
        file: "catalog.json")
    }
    #expect(throws: DiagnosticList.self) {
      try Catalog.parse(#"{"products": {"c": {"type": "consumable", "period": "P1M"}}}"#, file: "catalog.json")
    }
  }
}
