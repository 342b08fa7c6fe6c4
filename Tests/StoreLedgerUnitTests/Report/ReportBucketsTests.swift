import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Report buckets: calendar days, ISO weeks and months in UTC")
struct ReportBucketsTests {
  @Test(
    "the first bucket starts at --from's bucket and the last ends at or after --to",
    arguments: [
      (ReportInterval.day, "2026-03-05T13:00:00Z", "2026-03-07T00:00:00Z", ["2026-03-05T00:00:00Z", "2026-03-06T00:00:00Z", "2026-03-07T00:00:00Z"]),
      (.day, "2026-03-05T00:00:00Z", "2026-03-05T00:00:00Z", ["2026-03-05T00:00:00Z", "2026-03-06T00:00:00Z"]),
      (.day, "2026-03-05T00:00:00Z", "2026-03-06T00:00:00.001Z", ["2026-03-05T00:00:00Z", "2026-03-06T00:00:00Z", "2026-03-07T00:00:00Z"]),
      // 1 March 2026 is a Sunday: its ISO week starts on Monday 23 February.
      (.week, "2026-03-01T23:59:59.999Z", "2026-03-03T00:00:00Z", ["2026-02-23T00:00:00Z", "2026-03-02T00:00:00Z", "2026-03-09T00:00:00Z"]),
      (.week, "2026-03-02T00:00:00Z", "2026-03-09T00:00:00Z", ["2026-03-02T00:00:00Z", "2026-03-09T00:00:00Z"]),
      // 1 January 1970 was a Thursday; a week before the epoch still starts on a Monday.
      (.week, "1969-12-31T12:00:00Z", "1970-01-01T00:00:00Z", ["1969-12-29T00:00:00Z", "1970-01-05T00:00:00Z"]),
      (.month, "2024-01-31T10:00:00Z", "2024-03-01T00:00:00Z", ["2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z"]),
      (.month, "2025-12-15T00:00:00Z", "2026-01-15T00:00:00Z", ["2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"]),
    ] as [(ReportInterval, String, String, [String])])
  func boundaries(interval: ReportInterval, from: String, to: String, expected: [String]) throws {
    let buckets = try ReportBuckets(from: ts(from), to: ts(to), every: interval)
    #expect(buckets.boundaries.map(\.rfc3339) == expected)
  }

  @Test("an instant belongs to the bucket whose start is at or before it and whose end is after it")
  func index() throws {
    let buckets = try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month)
    #expect(buckets.index(of: ts("2025-12-31T23:59:59.999Z")) == nil)
    #expect(buckets.index(of: ts("2026-01-01T00:00:00Z")) == 0)
    #expect(buckets.index(of: ts("2026-02-28T23:59:59.999Z")) == 1)
    #expect(buckets.index(of: ts("2026-03-01T00:00:00Z")) == 2)
    #expect(buckets.index(of: ts("2026-04-01T00:00:00Z")) == nil)
  }

  @Test("--from after --to is a usage error naming both")
  func reversed() {
    #expect(throws: Diagnostic.self) {
      try ReportBuckets(from: ts("2026-03-02T00:00:00Z"), to: ts("2026-03-01T00:00:00Z"), every: .day)
    }
  }

  @Test("more buckets than the limit is a usage error, not an exhausted memory")
  func limit() throws {
    do {
      _ = try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2206-01-01T00:00:00Z"), every: .day)
      Issue.record("no error past the bucket limit")
    } catch {
      #expect(error.exitCode == 64)
      #expect(error.message.contains("\(Limits.reportBucketsMax)"))
    }
    let longest = try ReportBuckets(
      from: ts("2026-01-01T00:00:00Z"),
      to: ts("2026-01-01T00:00:00Z").adding(milliseconds: Int64(Limits.reportBucketsMax) * 86_400_000), every: .day)
    #expect(longest.count == Limits.reportBucketsMax)
  }
}
