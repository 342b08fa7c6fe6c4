import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Report: usage-policy metrics (trials, limit hits, leaks)")
struct PolicyReportTests {
  /// u1 and u2 mature their usage trial on 1 March (50 interactions), so on 10 March they are in
  /// the free tier (5 interactions a day). u1 reaches the limit with its second use (3 + 2) and
  /// goes over it with its third (a leak), then subscribes 1.6 days later; u2 reaches it in one
  /// use of 6 and subscribes 15 days later. u3's deep comparison is offered by no tier it is in.
  static let log = [
    use("a1", "u1", "2026-03-01T00:00:00Z", quantity: 50),
    use("a2", "u1", "2026-03-10T09:00:00Z", quantity: 3),
    use("a3", "u1", "2026-03-10T10:00:00Z", quantity: 2),
    use("a4", "u1", "2026-03-10T11:00:00Z"),
    EventLines.line(.purchase(id: "a5", subject: "u1", at: ts("2026-03-12T00:00:00Z"), product: "plus.monthly", transaction: "t1", expires: ts("2026-04-12T00:00:00Z"))),
    use("b1", "u2", "2026-03-01T00:00:00Z", quantity: 50),
    use("b2", "u2", "2026-03-10T09:00:00Z", quantity: 6),
    EventLines.line(.purchase(id: "b3", subject: "u2", at: ts("2026-03-25T09:00:00Z"), product: "plus.monthly", transaction: "t2", expires: ts("2026-04-25T09:00:00Z"))),
    use("c1", "u3", "2026-03-10T12:00:00Z", "deep_compare"),
  ].joined(separator: "\n")

  @Test("limit hits, their 7- and 30-day conversion, leaks by feature and tier, and usage trials, by hand")
  func handDerived() throws {
    let ledger = try ledger(Self.log, catalogText: policyCatalogText())
    let report = try ReportBuilder.report(
      ledger: ledger, buckets: try ReportBuckets(from: ts("2026-03-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month),
      asOf: nil)
    let march = report.buckets[0]
    #expect(march["usage_trials_started"] == .count(3))
    #expect(march["limit_hits"] == .keyed([("interaction", 2)]))
    #expect(march["limit_hit_subjects"] == .count(2))
    #expect(march["limit_hit_conversions_7d"] == .count(1))
    #expect(march["limit_hit_conversions_30d"] == .count(2))
    #expect(march["limit_hit_conversion_rate_7d"]?.rateTenThousandths == 5000)
    #expect(march["leaks"] == .keyed([("deep_compare.none", 1), ("interaction.free", 1)]))
    let html = report.html(log: "policy")
    #expect(xmlError(html) == nil)
    #expect(html.contains("Usage policy") && html.contains("leaks interaction.free"))
  }

  @Test("leaks are those check reports: the engine's own leak list, bucket by bucket")
  func leaksMatchEngine() throws {
    let ledger = try ledger(Self.log, catalogText: policyCatalogText())
    var engine = QueryEngine(ledger: ledger)
    var expected: [String: Int64] = [:]
    engine.forEachLeak { expected[$0.feature + "." + ($0.tier ?? "none"), default: 0] += 1 }
    let report = try ReportBuilder.report(
      ledger: ledger, buckets: try ReportBuckets(from: ts("2026-03-01T00:00:00Z"), to: ts("2026-03-31T00:00:00Z"), every: .day),
      asOf: nil)
    var counted: [String: Int64] = [:]
    for bucket in report.buckets {
      if case .keyed(let entries)? = bucket["leaks"] {
        for entry in entries { counted[entry.key, default: 0] += entry.value }
      }
    }
    #expect(counted == expected)
    #expect(!expected.isEmpty)
  }

  @Test(
    "policy metrics as of R equal those of the log cut down to the lines recorded by R",
    arguments: testSeeds([51, 52, 53]))
  func policyAsOfIsACutLog(seed: UInt64) throws {
    let lines = PolicySnapshotTests.usageLog(seed: seed)
    let times = try lines.map { line -> Timestamp in
      let value = try JSONValue.parse(line)
      return Timestamp.parseRFC3339((value["recorded"] ?? value["at"])!.stringValue!)!
    }
    let (start, end) = (times.min()!, times.max()!)
    let cut = start.adding(milliseconds: (end.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 2)
    let known = zip(lines, times).filter { $0.1 <= cut }.map(\.0)
    let buckets = try ReportBuckets(from: start, to: end.adding(milliseconds: 1), every: .day)
    let full = try ledger(lines.joined(separator: "\n"), catalogText: policyCatalogText(offset: "-05:00"))
    let truncated = try ledger(known.joined(separator: "\n"), catalogText: policyCatalogText(offset: "-05:00"))
    let asOf = try ReportBuilder.report(ledger: full, buckets: buckets, asOf: cut)
    let cutReport = try ReportBuilder.report(ledger: truncated, buckets: buckets, asOf: nil)
    var compared = 0
    for (a, b) in zip(asOf.buckets, cutReport.buckets) {
      for name in ["limit_hits", "limit_hit_subjects", "leaks"] where a[name] != nil || b[name] != nil {
        #expect(a[name] == b[name], "seed \(seed) \(a.start.rfc3339): \(name)")
        compared += 1
      }
    }
    #expect(compared > 0)
  }

  @Test("a limit hit is the one as known at R: a use learned later moves it")
  func hitAsKnownThen() throws {
    let lines = [
      use("h0", "h", "2026-01-01T00:00:00Z", "saved_trip"),
      use("h1", "h", "2026-03-10T09:00:00Z", quantity: 4),
      use("h2", "h", "2026-03-10T10:00:00Z", recorded: "2026-03-12T00:00:00Z"),
      use("h3", "h", "2026-03-10T11:00:00Z"),
    ].joined(separator: "\n")
    let ledger = try ledger(lines, catalogText: policyCatalogText())
    let buckets = try ReportBuckets(from: ts("2026-03-10T00:00:00Z"), to: ts("2026-03-11T00:00:00Z"), every: .day)
    // As known on 10 March noon, h3 takes free's 5 a day from 4 to 5; as known now, h2 did.
    let then = try ReportBuilder.report(ledger: ledger, buckets: buckets, asOf: ts("2026-03-10T12:00:00Z"))
    let now = try ReportBuilder.report(ledger: ledger, buckets: buckets, asOf: nil)
    #expect(then.buckets[0]["limit_hits"] == .keyed([("interaction", 1)]))
    #expect(now.buckets[0]["limit_hits"] == .keyed([("interaction", 1)]))
    // h3 is over the limit as known now, but a leak is judged as known when it was recorded (h2 unknown then).
    #expect(now.buckets[0]["leaks"] == .keyed([]))
  }

  @Test("a catalog without a policy leaves the policy metrics out")
  func noPolicy() throws {
    let report = try ReportBuilder.report(
      ledger: try ledger(""), buckets: try ReportBuckets(from: ts("2026-03-01T00:00:00Z"), to: ts("2026-03-02T00:00:00Z"), every: .day),
      asOf: nil)
    #expect(report.buckets[0]["leaks"] == nil && report.buckets[0]["limit_hits"] == nil)
    #expect(report.buckets[0]["revenue"] != nil)
  }
}

@Suite("Customer timeline with a usage policy")
struct PolicyTimelineTests {
  @Test("the usage lane sums each local day's uses and shows that day's limit from the answer")
  func usageLane() throws {
    let ledger = try ledger(PolicyReportTests.log, catalogText: policyCatalogText())
    let timeline = try CustomerTimeline.build(ledger: ledger, subject: "u1", asOf: nil)
    #expect(timeline.usage.map(\.feature) == ["interaction"])
    let days = timeline.usage[0].days
    // 1 March: 50 uses in the trial (unlimited). 10 March: 3 + 2 + 1 in the free tier, limit 5 a day.
    #expect(days.map(\.date) == ["2026-03-01", "2026-03-10"])
    #expect(days.map(\.used) == [50, 6])
    #expect(days.map(\.limit) == [nil, 5])
    #expect(days.map(\.tier) == ["trial", "free"])
    let html = timeline.html()
    #expect(xmlError(html) == nil)
    #expect(occurrences(of: #"data-kind="usage""#, in: html) == 1)
    #expect(occurrences(of: #"class="usage-day""#, in: html) == 2)
    #expect(occurrences(of: #"class="limit""#, in: html) == 1)
    #expect(timeline.text.contains("USAGE"))
  }
}
