import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// `report --tz`: buckets start at local midnight, across summer-time changes.
@Suite("Report buckets in a time zone")
struct ReportZoneTests {
  /// Paris in 2026: +01:00, +02:00 from 29 March 01:00 UTC to 25 October 01:00 UTC.
  static let paris = CustomerZone { time in
    time >= ts("2026-03-29T01:00:00Z") && time < ts("2026-10-25T01:00:00Z") ? 7200 : 3600
  }
  /// A zone whose clocks jump from 00:00 to 01:00 on 1 November 2026 (-03:00 to -02:00): that day has no midnight.
  static let noMidnight = CustomerZone { time in time >= ts("2026-11-01T03:00:00Z") ? -7200 : -10800 }

  @Test(
    "local days, weeks and months start at local midnight, and a summer-time day is 23 or 25 hours",
    arguments: [
      ("2026-03-28T23:00:00Z", "2026-03-30T00:00:00Z", ReportInterval.day, ["2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z", "2026-03-30T22:00:00Z"]),
      ("2026-10-24T22:00:00Z", "2026-10-26T00:00:00Z", .day, ["2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z", "2026-10-26T23:00:00Z"]),
      ("2026-03-15T00:00:00Z", "2026-04-15T00:00:00Z", .month, ["2026-02-28T23:00:00Z", "2026-03-31T22:00:00Z", "2026-04-30T22:00:00Z"]),
      ("2026-03-25T00:00:00Z", "2026-03-31T00:00:00Z", .week, ["2026-03-22T23:00:00Z", "2026-03-29T22:00:00Z", "2026-04-05T22:00:00Z"]),
    ])
  func parisBuckets(from: String, to: String, interval: ReportInterval, boundaries: [String]) throws {
    let buckets = try ReportBuckets(from: ts(from), to: ts(to), every: interval, zone: Self.paris)
    #expect(buckets.boundaries.map(\.rfc3339) == boundaries)
  }

  @Test("a local day without a midnight starts at its first instant, when the clocks jump")
  func dayWithoutMidnight() throws {
    let buckets = try ReportBuckets(
      from: ts("2026-10-31T12:00:00Z"), to: ts("2026-11-02T00:00:00Z"), every: .day, zone: Self.noMidnight)
    #expect(buckets.boundaries.map(\.rfc3339) == ["2026-10-31T03:00:00Z", "2026-11-01T03:00:00Z", "2026-11-02T02:00:00Z"])
  }

  @Test("in a zone, an event just after local midnight on the summer-time day counts in the local day, not the UTC one")
  func eventsAcrossSummerTime() throws {
    let lines = [
      // 23:30 on 29 March in Paris (+02:00): the 29th, a 23-hour day.
      EventLines.line(.purchase(id: "p1", subject: "a", at: ts("2026-03-29T21:30:00Z"), product: "pro.lifetime", transaction: "p1", price: 1000, currency: "EUR")),
      // 00:30 on 30 March in Paris: the 30th, though still the 29th in UTC.
      EventLines.line(.purchase(id: "p2", subject: "b", at: ts("2026-03-29T22:30:00Z"), product: "pro.lifetime", transaction: "p2", price: 2000, currency: "EUR")),
      // 00:30 on 29 March in Paris (+01:00): the 29th, though still the 28th in UTC.
      EventLines.line(.purchase(id: "p3", subject: "c", at: ts("2026-03-28T23:30:00Z"), product: "pro.lifetime", transaction: "p3", price: 4000, currency: "EUR")),
    ].joined(separator: "\n")
    let buckets = try ReportBuckets(
      from: ts("2026-03-28T23:00:00Z"), to: ts("2026-03-30T22:00:00Z"), every: .day, zone: Self.paris)
    let report = try ReportBuilder.report(ledger: try ledger(lines), buckets: buckets, asOf: nil)
    #expect(report.buckets.map { $0["revenue"]?["EUR"] } == [5000, 2000])
    #expect(report.buckets.map(\.start.rfc3339) == ["2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"])
    // The HTML labels the buckets by their local dates.
    #expect(report.localStarts?.map { String($0.rfc3339.prefix(10)) } == ["2026-03-29", "2026-03-30"])
    #expect(report.html(log: "t").contains(">2026-03-29<"))
  }

  @Test("a fixed offset shifts every bucket by it, and UTC keeps the UTC buckets")
  func fixedOffset() throws {
    let shifted = try ReportBuckets(
      from: ts("2026-01-01T00:00:00Z"), to: ts("2026-03-01T00:00:00Z"), every: .month, zone: CustomerZone(fixedMinutes: -300))
    #expect(shifted.boundaries.map(\.rfc3339) == ["2025-12-01T05:00:00Z", "2026-01-01T05:00:00Z", "2026-02-01T05:00:00Z", "2026-03-01T05:00:00Z"])
    let utc = try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-03-01T00:00:00Z"), every: .month)
    #expect(utc.boundaries.map(\.rfc3339) == ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"])
  }
}
