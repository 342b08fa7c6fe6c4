import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerReport

/// Reports count owners (contract v1.3, section 9; issue 34 item 3, issue 36 item 2): a unit a
/// transfer gave counts under its owner at each bucket end, a transfer is neither a new
/// subscription nor churn nor money, and customers are the subjects joined by the transfers known
/// at R. Every figure is worked out by hand in the comments (USD; thousandths).
@Suite("Reports count owners: a transfer moves stocks and customers, never flows")
struct OwnersReportTests {
  /// ann buys monthly Pro (1000) on 10 January, gives it to ben on 25 January; ben renews it on
  /// 10 February and 10 March. One subscription throughout, one customer {ann, ben}.
  static let handOver = [
    EventLines.line(.purchase(id: "a1", subject: "ann", at: ts("2026-01-10T00:00:00Z"), product: "pro.monthly", transaction: "m1", expires: ts("2026-02-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.transfer(id: "t1", subject: "ann", at: ts("2026-01-25T00:00:00Z"), to: "ben", originalTransaction: "m1")),
    EventLines.line(.renewal(id: "b1", subject: "ben", at: ts("2026-02-10T00:00:00Z"), product: "pro.monthly", transaction: "m2", originalTransaction: "m1", expires: ts("2026-03-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewal(id: "b2", subject: "ben", at: ts("2026-03-10T00:00:00Z"), product: "pro.monthly", transaction: "m3", originalTransaction: "m1", expires: ts("2026-04-10T00:00:00Z"), price: 1000, currency: "USD")),
  ]

  /// The same story told to a receiver with no line of its own (`dan`): the store keeps
  /// sending the renewals under ann, and they are dan's from the transfer on.
  static let handOverToLineless = [
    handOver[0],
    EventLines.line(.transfer(id: "t1", subject: "ann", at: ts("2026-01-25T00:00:00Z"), to: "dan", originalTransaction: "m1")),
    EventLines.line(.renewal(id: "b1", subject: "ann", at: ts("2026-02-10T00:00:00Z"), product: "pro.monthly", transaction: "m2", originalTransaction: "m1", expires: ts("2026-03-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewal(id: "b2", subject: "ann", at: ts("2026-03-10T00:00:00Z"), product: "pro.monthly", transaction: "m3", originalTransaction: "m1", expires: ts("2026-04-10T00:00:00Z"), price: 1000, currency: "USD")),
  ]

  static let firstQuarter = { try! ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month) }()
  /// December 2025 to February 2026.
  static let winter = { try! ReportBuckets(from: ts("2025-12-01T00:00:00Z"), to: ts("2026-03-01T00:00:00Z"), every: .month) }()

  static func report(_ lines: [String], _ buckets: ReportBuckets, asOf: String? = nil) throws -> Report {
    try ReportBuilder.report(ledger: try ledger(lines.joined(separator: "\n")), buckets: buckets, asOf: asOf.map(ts))
  }

  static func usd(_ amount: Int64) -> MetricValue { amount == 0 ? .keyed([]) : .keyed([(key: "USD", value: amount)]) }

  static func keyed(_ pairs: KeyValuePairs<String, Int64>) -> MetricValue {
    .keyed(pairs.map { (key: $0.key, value: $0.value) })
  }

  /// The five movement metrics of a bucket, in the order new, reactivation, expansion, contraction, churn.
  static func movement(_ bucket: ReportBucket) -> [MetricValue?] {
    ["mrr_new", "mrr_reactivation", "mrr_expansion", "mrr_contraction", "mrr_churn"].map { bucket[$0] }
  }

  static let still: [MetricValue?] = Array(repeating: .keyed([]), count: 5)

  @Test(
    "a subscription handed over mid-period is one subscriber in every bucket, new once, never churned, and moves no MRR",
    arguments: [handOver, handOverToLineless])
  func handedOver(lines: [String]) throws {
    let buckets = try Self.report(lines, Self.firstQuarter).buckets
    for bucket in buckets {
      #expect(bucket["subscribers"] == .count(1))
      #expect(bucket["active"]?["pro"] == 1)
      #expect(bucket["mrr"] == Self.usd(1000))
      #expect(bucket["revenue"] == Self.usd(1000))
      #expect(bucket["charges"] == .count(1))
      #expect(bucket["paying_customers"] == .count(1))
      #expect(bucket["churn"] == .keyed([]))
      #expect(bucket["reactivations"] == .count(0))
    }
    // January: the purchase is new (0 → 1000); February and March: nothing moves.
    #expect(buckets[0]["new_subscriptions"] == Self.keyed(["pro.monthly": 1]))
    #expect(Self.movement(buckets[0]) == [Self.usd(1000), Self.usd(0), Self.usd(0), Self.usd(0), Self.usd(0)])
    for bucket in buckets.dropFirst() {
      #expect(bucket["new_subscriptions"] == .keyed([]))
      #expect(Self.movement(bucket) == Self.still)
    }
    // One first payment, in January; the subscription ann paid for keeps her cohort paying.
    #expect(buckets.map { $0["first_payment_customers"] } == [.count(1), .count(0), .count(0)])
    #expect(buckets[0]["paid_cohort_subjects"] == .count(1))
    #expect(buckets[0]["paid_cohort_retained"] == Self.keyed(["0": 1, "1": 1, "2": 1]))
  }

  /// ben pays voice (500) since 5 December; ann pays Pro (1000) since 10 December and gives it to
  /// ben on 20 January, which the ledger learns on 15 February; ben renews Pro on 10 February.
  static let joined = [
    EventLines.line(.purchase(id: "v1", subject: "ben", at: ts("2025-12-05T00:00:00Z"), product: "voice.monthly", transaction: "v1", expires: ts("2026-01-05T00:00:00Z"), price: 500, currency: "USD")),
    EventLines.line(.renewal(id: "v2", subject: "ben", at: ts("2026-01-05T00:00:00Z"), product: "voice.monthly", transaction: "v2", originalTransaction: "v1", expires: ts("2026-02-05T00:00:00Z"), price: 500, currency: "USD")),
    EventLines.line(.renewal(id: "v3", subject: "ben", at: ts("2026-02-05T00:00:00Z"), product: "voice.monthly", transaction: "v3", originalTransaction: "v1", expires: ts("2026-03-05T00:00:00Z"), price: 500, currency: "USD")),
    EventLines.line(.purchase(id: "m1", subject: "ann", at: ts("2025-12-10T00:00:00Z"), product: "pro.monthly", transaction: "m1", expires: ts("2026-01-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.renewal(id: "m2", subject: "ann", at: ts("2026-01-10T00:00:00Z"), product: "pro.monthly", transaction: "m2", originalTransaction: "m1", expires: ts("2026-02-10T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.transfer(id: "t1", subject: "ann", at: ts("2026-01-20T00:00:00Z"), to: "ben", originalTransaction: "m1").recordedAt("2026-02-15T00:00:00Z")),
    EventLines.line(.renewal(id: "m3", subject: "ben", at: ts("2026-02-10T00:00:00Z"), product: "pro.monthly", transaction: "m3", originalTransaction: "m1", expires: ts("2026-03-10T00:00:00Z"), price: 1000, currency: "USD")),
  ]

  @Test("a receiver already subscribed: subscribers fall from 2 to 1 at the transfer, MRR and its movement do not move")
  func receiverAlreadySubscribed() throws {
    let buckets = try Self.report(Self.joined, Self.winter).buckets
    // 1 Jan: ann holds Pro, ben voice. 1 Feb and 1 Mar: ben holds both (one subject).
    #expect(buckets.map { $0["subscribers"] } == [.count(2), .count(1), .count(1)])
    for bucket in buckets {
      #expect(bucket["active"] == Self.keyed(["pro": 1, "voice": 1]))
      #expect(bucket["mrr"] == Self.usd(1500))
      #expect(bucket["revenue"] == Self.usd(1500))
      #expect(bucket["charges"] == .count(2))
      // One customer {ann, ben}, paying in every month.
      #expect(bucket["paying_customers"] == .count(1))
      #expect(bucket["churn"] == .keyed([]))
      #expect(bucket["reactivations"] == .count(0))
    }
    // December: the customer goes from 0 to 1500, all new; after that nothing moves (1500 → 1500).
    #expect(buckets[0]["new_subscriptions"] == Self.keyed(["pro.monthly": 1, "voice.monthly": 1]))
    #expect(Self.movement(buckets[0]) == [Self.usd(1500), Self.usd(0), Self.usd(0), Self.usd(0), Self.usd(0)])
    #expect(Self.movement(buckets[1]) == Self.still)
    #expect(Self.movement(buckets[2]) == Self.still)
    #expect(buckets.map { $0["new_subscriptions"] }.dropFirst().allSatisfy { $0 == .keyed([]) })
    #expect(buckets[0]["first_payment_customers"] == .count(1))
    // Two subjects first paid in December; from 1 Feb only ben holds a paid subscription.
    #expect(buckets[0]["paid_cohort_subjects"] == .count(2))
    #expect(buckets[0]["paid_cohort_retained"] == Self.keyed(["0": 2, "1": 1, "2": 1]))
  }

  @Test(
    "as of before the transfer is learned, ann and ben are two customers and her Pro lapses: Feb shows 1000 churn and 1000 expansion",
    arguments: ["2026-02-12T00:00:00Z", "2026-02-14T23:59:59.999Z"])
  func learnedLate(asOf: String) throws {
    let buckets = try Self.report(Self.joined, Self.winter, asOf: asOf).buckets
    // 1 Feb: ann still holds Pro (to 10 Feb) and ben voice; 1 Mar: ben holds voice and the Pro
    // renewal m3, which is his own line of an unknown subscription (not new).
    #expect(buckets.map { $0["subscribers"] } == [.count(2), .count(2), .count(1)])
    #expect(buckets.map { $0["mrr"] } == [Self.usd(1500), Self.usd(1500), Self.usd(1500)])
    #expect(buckets.map { $0["paying_customers"] } == [.count(2), .count(2), .count(1)])
    #expect(buckets[0]["first_payment_customers"] == .count(2))
    #expect(Self.movement(buckets[0]) == [Self.usd(1500), Self.usd(0), Self.usd(0), Self.usd(0), Self.usd(0)])
    #expect(Self.movement(buckets[1]) == Self.still)
    // ann 1000 → 0 is churn; ben 500 → 1500 is expansion.
    #expect(Self.movement(buckets[2]) == [Self.usd(0), Self.usd(0), Self.usd(1000), Self.usd(0), Self.usd(1000)])
    #expect(buckets[2]["new_subscriptions"] == .keyed([]))
    #expect(buckets[2]["churn"] == .keyed([]))
    #expect(buckets[0]["paid_cohort_retained"] == Self.keyed(["0": 2, "1": 2, "2": 1]))
    // Money is the same as known later: it stays with each charge.
    #expect(buckets.map { $0["revenue"] } == [Self.usd(1500), Self.usd(1500), Self.usd(1500)])
  }

  @Test("as of the transfer's recorded instant the report is the full-knowledge one")
  func learnedAtRecorded() throws {
    let atRecorded = try Self.report(Self.joined, Self.winter, asOf: "2026-02-15T00:00:00Z")
    let now = try Self.report(Self.joined, Self.winter)
    #expect(atRecorded.buckets == now.buckets)
  }

  @Test("--compare-as-of restates exactly the buckets the late transfer touches")
  func comparison() throws {
    let before = try Self.report(Self.joined, Self.winter, asOf: "2026-02-12T00:00:00Z")
    let after = try Self.report(Self.joined, Self.winter)
    let changes = ReportComparison(before: before, after: after).buckets.map { bucket in
      Dictionary(uniqueKeysWithValues: bucket.changes.map { ($0.name, [$0.before, $0.after]) })
    }
    // December: two customers became one; ben's retention at 1 Feb is now the only one.
    #expect(changes[0]["paying_customers"] == [2, 1])
    #expect(changes[0]["first_payment_customers"] == [2, 1])
    #expect(changes[0]["paid_cohort_retained.1"] == [2, 1])
    #expect(changes[0]["paid_cohort_subjects"] == nil)
    // January: ben holds Pro from 20 January on.
    #expect(changes[1]["subscribers"] == [2, 1])
    #expect(changes[1]["paying_customers"] == [2, 1])
    #expect(changes[1]["mrr.USD"] == nil)
    // February: the churn and expansion were a transfer inside one customer.
    #expect(changes[2]["mrr_churn.USD"] == [1000, 0])
    #expect(changes[2]["mrr_expansion.USD"] == [1000, 0])
    #expect(changes[2]["subscribers"] == nil)
    for bucket in changes { #expect(bucket["revenue.USD"] == nil && bucket["charges"] == nil) }
  }

  /// `joined` with the transfer known at once, at `at`.
  static func joined(transferAt at: String) -> [String] {
    Self.joined.map { line in
      guard line.contains(#""id":"t1""#) else { return line }
      return EventLines.line(.transfer(id: "t1", subject: "ann", at: ts(at), to: "ben", originalTransaction: "m1"))
    }
  }

  @Test(
    "a transfer exactly at a bucket's end counts in that bucket's stocks; 1 ms later it does not",
    arguments: [
      ("2026-01-31T23:59:59.999Z", 1), ("2026-02-01T00:00:00Z", 1), ("2026-02-01T00:00:00.001Z", 2),
    ] as [(String, Int64)])
  func onBucketBound(at: String, subscribersAtJanuaryEnd: Int64) throws {
    let buckets = try Self.report(Self.joined(transferAt: at), Self.winter).buckets
    #expect(buckets.map { $0["subscribers"] } == [.count(2), .count(subscribersAtJanuaryEnd), .count(1)])
    for bucket in buckets.dropFirst() {
      #expect(Self.movement(bucket) == Self.still)
      #expect(bucket["new_subscriptions"] == .keyed([]))
      #expect(bucket["churn"] == .keyed([]))
      #expect(bucket["mrr"] == Self.usd(1500))
    }
  }

  @Test("a transfer back: ann holds Pro again from 20 February; no new subscription, reactivation or churn")
  func transferBack() throws {
    let back = EventLines.line(.transfer(id: "t2", subject: "ben", at: ts("2026-02-20T00:00:00Z"), to: "ann", originalTransaction: "m1"))
    let buckets = try Self.report(Self.joined(transferAt: "2026-01-20T00:00:00Z") + [back], Self.winter).buckets
    // 1 Mar: ann holds Pro (ben's renewal m3 runs to 10 March), ben voice.
    #expect(buckets.map { $0["subscribers"] } == [.count(2), .count(1), .count(2)])
    #expect(buckets[2]["active"] == Self.keyed(["pro": 1, "voice": 1]))
    #expect(buckets[2]["mrr"] == Self.usd(1500))
    #expect(Self.movement(buckets[2]) == Self.still)
    #expect(buckets[2]["new_subscriptions"] == .keyed([]))
    #expect(buckets[2]["reactivations"] == .count(0))
    #expect(buckets[2]["churn"] == .keyed([]))
    #expect(buckets[2]["revenue"] == Self.usd(1500))
    // ann is paying again at 1 Mar, in her December cohort.
    #expect(buckets[0]["paid_cohort_retained"] == Self.keyed(["0": 2, "1": 1, "2": 2]))
  }

  @Test(
    "partial reports of shards that keep a transfer group together merge into the whole report",
    arguments: [nil, "2026-02-12T00:00:00Z"] as [String?])
  func shardsMerge(asOf: String?) throws {
    let cy = [
      EventLines.line(.purchase(id: "c1", subject: "cy", at: ts("2025-12-20T00:00:00Z"), product: "pro.monthly", transaction: "c1", expires: ts("2026-01-20T00:00:00Z"), price: 1000, currency: "USD"))
    ]
    let whole = try Self.report(Self.joined + cy, Self.winter, asOf: asOf)
    let partials = try [Self.joined, cy].map { part in
      let partial = try Self.report(part, Self.winter, asOf: asOf)
      return try Report.parsePartial(Array(JSONWriter.pretty(partial.partialJSONValue).utf8), file: "p")
    }
    #expect(try Report.merging(partials, files: ["a", "b"]) == whole)
  }

  @Test(
    "on a generated log with transfers, active at every bucket end is the count of query answers of every subject and receiver",
    arguments: [nil, "2024-09-01T00:00:00Z", "2025-06-15T00:00:00Z"] as [String?])
  func stocksAreQueryAnswers(asOf: String?) throws {
    let ledger = TransferLog.generated.ledger
    #expect(!ledger.owners.isEmpty)
    let buckets = try ReportBuckets(from: ts("2024-01-01T00:00:00Z"), to: ts("2026-01-01T00:00:00Z"), every: .month)
    let report = try ReportBuilder.report(ledger: ledger, buckets: buckets, asOf: asOf.map(ts))
    let receivers = ledger.owners.partyNames.indices.filter { !ledger.owners.partySubjects[$0].isSome }
    let names = (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
      + receivers.map { ledger.owners.partyNames[$0] }
    var engine = QueryEngine(ledger: ledger)
    for bucket in report.buckets {
      var counted: [String: Int64] = [:]
      for name in names {
        for entitlement in engine.answer(subject: name, at: bucket.end, asOf: asOf.map(ts)).entitlements.keys {
          counted[entitlement, default: 0] += 1
        }
      }
      for entitlement in ledger.catalog.entitlementNames {
        #expect(bucket["active"]?[entitlement] == counted[entitlement] ?? 0, "\(entitlement) at \(bucket.end)")
      }
    }
  }

  @Test(
    "on a generated log with usage and transfers, the usage-based trial funnel agrees with each subject's trial in the answer at the report's end",
    arguments: [nil, "2024-07-01T00:00:00Z"] as [String?])
  func trialFunnelIsTheAnswers(asOf: String?) throws {
    let options = GeneratorOptions(subjects: 120, seed: 5, months: 12, usage: .typical, contract: .v1_3, transfers: true)
    let text = String(decoding: generatedLog(options).bytes, as: UTF8.self)
    let ledger = try buildLedger(text, catalogText: LogGenerator.catalogJSON(for: .typical)).get()
    #expect(!ledger.owners.isEmpty && ledger.catalog.policy?.trial != nil)
    let buckets = try ReportBuckets(from: ts("2024-01-01T00:00:00Z"), to: ts("2025-01-01T00:00:00Z"), every: .month)
    let report = try ReportBuilder.report(ledger: ledger, buckets: buckets, asOf: asOf.map(ts))
    let end = buckets.end
    // Per start bucket: (started, converted before maturity and the end, matured before the end unconverted).
    var want = Array(repeating: [Int64](repeating: 0, count: 3), count: buckets.count)
    var engine = QueryEngine(ledger: ledger)
    for subject in 0..<ledger.subjectCount {
      let name = ledger.symbols.subjects.string(Symbol(rawValue: UInt32(subject)))
      let answer = engine.answer(subject: name, at: end.adding(milliseconds: -1), asOf: asOf.map(ts))
      guard let trial = answer.policy?.trial, let bucket = buckets.index(of: trial.started) else { continue }
      want[bucket][0] += 1
      if trial.endsBy == "subscription" { want[bucket][1] += 1 } else if trial.ends < end { want[bucket][2] += 1 }
    }
    #expect(want.map { $0[0] }.reduce(0, +) > 0)
    for (index, bucket) in report.buckets.enumerated() {
      guard case .keyed(let ended) = bucket["usage_trials_ended"] else { return #expect(Bool(false)) }
      let got = [
        bucket["usage_trials_started"], bucket["usage_trials_converted_in_trial"],
        .count(ended.map(\.value).reduce(0, +)),
      ]
      #expect(got == want[index].map { MetricValue.count($0) }, "bucket \(index)")
    }
  }
}
