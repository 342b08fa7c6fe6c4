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
    // amy: 31-day period of 1000 USD (968 a month), extended without a new charge; lapses; comes
    // back in March under a new original transaction (Google Play's resubscription).
    #"{"id":"a1","type":"purchase","subject":"amy","at":"2026-01-05T00:00:00Z","product":"pro.monthly","transaction":"a1","expires":"2026-02-05T00:00:00Z","price":1000,"currency":"USD"}"#,
    #"{"id":"a2","type":"renewal_extended","subject":"amy","at":"2026-01-20T00:00:00Z","original_transaction":"a1","expires":"2026-02-10T00:00:00Z"}"#,
    #"{"id":"a3","type":"purchase","subject":"amy","at":"2026-03-10T00:00:00Z","product":"pro.monthly","transaction":"a2","expires":"2026-04-10T00:00:00Z","price":1000,"currency":"USD"}"#,
    // ben: 1 thousandth over 60 days is exactly 0.5 thousandth a month: rounds up to 1.
    #"{"id":"b1","type":"purchase","subject":"ben","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"b1","expires":"2026-03-02T00:00:00Z","price":1,"currency":"GBP"}"#,
    // cal, dan: 1 thousandth over 61 days each rounds to 0, so EUR is 0 (not the 1 of rounding the sum).
    #"{"id":"c1","type":"purchase","subject":"cal","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"c1","expires":"2026-03-03T00:00:00Z","price":1,"currency":"EUR"}"#,
    #"{"id":"d1","type":"purchase","subject":"dan","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"d1","expires":"2026-03-03T00:00:00Z","price":1,"currency":"EUR"}"#,
    // eve: a free trial across the January end adds 0 and is not paying; the paid renewal
    // (2000 over 28 days = 2143) starts her paid cohort in February.
    #"{"id":"e1","type":"purchase","subject":"eve","at":"2026-01-25T00:00:00Z","product":"pro.monthly","transaction":"e1","expires":"2026-02-08T00:00:00Z","offer":"trial","price":0,"currency":"USD"}"#,
    #"{"id":"e2","type":"renewal","subject":"eve","at":"2026-02-08T00:00:00Z","product":"pro.monthly","transaction":"e2","original_transaction":"e1","expires":"2026-03-08T00:00:00Z","price":2000,"currency":"USD"}"#,
    // fay: family-shared, left out of MRR and cohorts.
    #"{"id":"f1","type":"purchase","subject":"fay","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"f1","expires":"2026-02-15T00:00:00Z","price":1000,"currency":"USD","ownership":"family_shared"}"#,
    // gus: an annual plan without a price: counted in mrr_unpriced_subscriptions.
    #"{"id":"g1","type":"purchase","subject":"gus","at":"2026-01-15T00:00:00Z","product":"pro.annual","transaction":"g1","expires":"2027-01-15T00:00:00Z"}"#,
    // hal: grace entered at exactly the January end still gives access: 3000 over 31 days = 2903.
    #"{"id":"h1","type":"purchase","subject":"hal","at":"2026-01-01T00:00:00Z","product":"voice.monthly","transaction":"h1","expires":"2026-02-01T00:00:00Z","price":3000,"currency":"USD"}"#,
    #"{"id":"h2","type":"grace_entered","subject":"hal","at":"2026-02-01T00:00:00Z","original_transaction":"h1","grace_expires":"2026-02-16T00:00:00Z"}"#,
    // ivy: billing retry past the period end gives no access: adds nothing.
    #"{"id":"i1","type":"purchase","subject":"ivy","at":"2026-01-01T00:00:00Z","product":"voice.monthly","transaction":"i1","expires":"2026-01-31T00:00:00Z","price":3000,"currency":"USD"}"#,
    #"{"id":"i2","type":"billing_retry","subject":"ivy","at":"2026-01-31T00:00:00Z","original_transaction":"i1"}"#,
    // jon: expires, then resubscribes under the same original transaction (the App Store's way):
    // a reactivation, not a new subscription; 1500 over 28 days = 1607.
    #"{"id":"j1","type":"purchase","subject":"jon","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"j1","expires":"2026-02-01T00:00:00Z","price":1500,"currency":"USD"}"#,
    #"{"id":"j2","type":"expiration","subject":"jon","at":"2026-02-01T00:00:00Z","original_transaction":"j1","reason":"voluntary"}"#,
    #"{"id":"j3","type":"purchase","subject":"jon","at":"2026-02-20T00:00:00Z","product":"pro.monthly","transaction":"j2","original_transaction":"j1","expires":"2026-03-20T00:00:00Z","price":1500,"currency":"USD"}"#,
    // kat: buys an annual (12000 over 365 days = 986) while her unpriced monthly still gives
    // access: a new subscription, not a reactivation; both count while both give access.
    #"{"id":"k1","type":"purchase","subject":"kat","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"k1","expires":"2026-03-01T00:00:00Z"}"#,
    #"{"id":"k2","type":"purchase","subject":"kat","at":"2026-01-15T00:00:00Z","product":"pro.annual","transaction":"k2","expires":"2027-01-15T00:00:00Z","price":12000,"currency":"USD"}"#,
    // lee: a new original transaction at exactly the old period's end (T == expires: no access)
    // is a reactivation, effective in February; at the January end it already holds (1000 over 28 days = 1071).
    #"{"id":"l1","type":"purchase","subject":"lee","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"l1","expires":"2026-02-01T00:00:00Z","price":1000,"currency":"USD"}"#,
    #"{"id":"l2","type":"purchase","subject":"lee","at":"2026-02-01T00:00:00Z","product":"pro.monthly","transaction":"l2","expires":"2026-03-01T00:00:00Z","price":1000,"currency":"USD"}"#,
    // mia: a lapsed voice plan does not make her first pro plan a reactivation (another group).
    #"{"id":"m1","type":"purchase","subject":"mia","at":"2026-01-01T00:00:00Z","product":"voice.monthly","transaction":"m1","expires":"2026-01-10T00:00:00Z"}"#,
    #"{"id":"m2","type":"purchase","subject":"mia","at":"2026-02-05T00:00:00Z","product":"pro.monthly","transaction":"m2","expires":"2026-03-05T00:00:00Z"}"#,
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

  @Test("mrr and the unpriced count at each bucket's end equal the hand-derived figures")
  func recurring() throws {
    let buckets = try Self.report().buckets
    // 31 January: amy 968 + hal 2903 + kat 986 + lee 1071 USD; ben 1 GBP; cal and dan 0 EUR.
    #expect(buckets[0]["mrr"] == Self.keyed(["GBP": 1, "USD": 5928]))
    #expect(buckets[0]["mrr_unpriced_subscriptions"] == .count(2))  // gus, kat's monthly
    // 28 February: eve 2143 + kat 986 + jon 1607 USD; ben 1 GBP.
    #expect(buckets[1]["mrr"] == Self.keyed(["GBP": 1, "USD": 4736]))
    #expect(buckets[1]["mrr_unpriced_subscriptions"] == .count(2))  // gus, mia
    // 31 March: amy 968 + kat 986.
    #expect(buckets[2]["mrr"] == Self.keyed(["USD": 1954]))
    #expect(buckets[2]["mrr_unpriced_subscriptions"] == .count(1))
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

  @Test("a charge's monthly amount is rounded half up to a thousandth", arguments: [
    (1, 60, 1), (1, 61, 0), (1000, 31, 968), (1000, 30, 1000), (49990, 365, 4109), (3, 180, 1), (1, 59, 1),
  ])
  func monthly(price: Int64, days: Int64, thousandths: Int64) {
    let charge = PeriodCharge(
      start: Timestamp(millisecondsSinceEpoch: 0), expires: Timestamp(millisecondsSinceEpoch: days * 86_400_000),
      hasPrice: true, price: price, currency: 0)
    #expect(charge.monthlyThousandths == thousandths)
  }

  @Test("a monthly amount beyond the report's range is refused, not wrapped")
  func monthlyOverflow() {
    let charge = PeriodCharge(
      start: Timestamp(millisecondsSinceEpoch: 0), expires: Timestamp(millisecondsSinceEpoch: 1),
      hasPrice: true, price: 1_000_000_000_000_000, currency: 0)
    #expect(charge.monthlyThousandths == nil)
  }
}
