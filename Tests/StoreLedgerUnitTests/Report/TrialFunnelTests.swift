import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The usage-based trial's funnel on a log worked out by hand from Docs/semantics.md ("The
/// usage-based trial": P21D, 50 interactions or 3 patterns, then PT48H of grace) and Docs/reports.md.
@Suite("Report: the usage-based trial funnel, hand-derived")
struct TrialFunnelTests {
  static func plus(_ id: String, _ subject: String, _ at: String, expires: String, recorded: String? = nil) -> String {
    let event = NewEvent.purchase(
      id: EventID(rawValue: id), subject: SubjectID(rawValue: subject), at: ts(at), product: "plus.monthly",
      transaction: TransactionID(rawValue: id), expires: ts(expires))
    return EventLines.line(recorded.map(event.recordedAt) ?? event)
  }

  static let log = [
    // a: the worked timeline: the 50th interaction matures the trial at 3 Apr 19:43; grace to
    // 5 Apr 19:43; plus bought 10 Apr: ended by interaction, converted after the grace.
    use("a1", "a", "2026-04-01T10:00:00Z", quantity: 49), use("a2", "a", "2026-04-03T19:43:00Z"),
    plus("a3", "a", "2026-04-10T09:00:00Z", expires: "2026-05-10T09:00:00Z"),
    // b: subscribes during the trial.
    use("b1", "b", "2026-04-02T00:00:00Z"), plus("b2", "b", "2026-04-05T00:00:00Z", expires: "2026-05-05T00:00:00Z"),
    // c: the third pattern matures it on 4 Apr; plus bought within the 48 hours of grace.
    use("c1", "c", "2026-04-02T00:00:00Z", "pattern"), use("c2", "c", "2026-04-03T00:00:00Z", "pattern"),
    use("c3", "c", "2026-04-04T00:00:00Z", "pattern"), plus("c4", "c", "2026-04-05T00:00:00Z", expires: "2026-05-05T00:00:00Z"),
    // d: 21 days pass (22 Apr, before the report's end): ended by duration.
    use("d1", "d", "2026-04-01T00:00:00Z"),
    // e: matures on 11 May, after the report's end: started only.
    use("e1", "e", "2026-04-20T00:00:00Z"),
    // f: started in March, before the window: in no cohort of the report.
    use("f1", "f", "2026-03-15T00:00:00Z"), plus("f2", "f", "2026-04-02T00:00:00Z", expires: "2026-05-02T00:00:00Z"),
    // g: converts on 2 May, after the report's end: started only.
    use("g1", "g", "2026-04-25T00:00:00Z"), plus("g2", "g", "2026-05-02T00:00:00Z", expires: "2026-06-02T00:00:00Z"),
  ].joined(separator: "\n")

  @Test("started, converted during the trial, ended by which threshold, converted in grace or after, by start cohort")
  func funnel() throws {
    let report = try ReportBuilder.report(
      ledger: try ledger(Self.log, catalogText: policyCatalogText()),
      buckets: try ReportBuckets(from: ts("2026-04-01T00:00:00Z"), to: ts("2026-05-01T00:00:00Z"), every: .month),
      asOf: nil)
    let april = report.buckets[0]
    #expect(april["usage_trials_started"] == .count(6))  // a b c d e g
    #expect(april["usage_trials_converted_in_trial"] == .count(1))  // b
    #expect(
      april["usage_trials_ended"]
        == .keyed([(key: "duration", value: 1), (key: "interaction", value: 1), (key: "pattern", value: 1)]))
    #expect(april["usage_trials_converted_in_grace"] == .count(1))  // c
    #expect(april["usage_trials_converted_after"] == .count(1))  // a
  }

  @Test("as known earlier, a conversion not yet recorded is not counted")
  func knowledgeTime() throws {
    let late = Self.log.replacingOccurrences(
      of: Self.plus("b2", "b", "2026-04-05T00:00:00Z", expires: "2026-05-05T00:00:00Z"),
      with: Self.plus("b2", "b", "2026-04-05T00:00:00Z", expires: "2026-05-05T00:00:00Z", recorded: "2026-04-30T00:00:00Z"))
    #expect(late != Self.log, "b2 is recorded late")
    let report = try ReportBuilder.report(
      ledger: try ledger(late, catalogText: policyCatalogText()),
      buckets: try ReportBuckets(from: ts("2026-04-01T00:00:00Z"), to: ts("2026-05-01T00:00:00Z"), every: .month),
      asOf: ts("2026-04-20T00:00:00Z"))
    // As known on 20 Apr: b has not converted; e (first event 20 Apr, exactly R) has started,
    // g (25 Apr) not yet. The report still runs to 1 May, so b's trial (to 23 Apr) has ended.
    #expect(report.buckets[0]["usage_trials_converted_in_trial"] == .count(0))
    #expect(report.buckets[0]["usage_trials_started"] == .count(5))
    #expect(
      report.buckets[0]["usage_trials_ended"]
        == .keyed([(key: "duration", value: 2), (key: "interaction", value: 1), (key: "pattern", value: 1)]))
  }
}

@Suite("Report: subscriber feature usage, hand-derived")
struct SubscriberUsesTests {
  @Test("uses by subjects with a subscription giving access at the use, per feature; releases and non-subscribers left out")
  func subscriberUses() throws {
    let log = [
      // sam subscribes 2 Apr to 2 May: uses 1 + 2 interactions and 1 pattern then; a release is
      // not a use; the use at exactly the period's end (2 May, another bucket) has no access.
      TrialFunnelTests.plus("s1", "sam", "2026-04-02T00:00:00Z", expires: "2026-05-02T00:00:00Z"),
      use("s2", "sam", "2026-04-03T00:00:00Z"), use("s3", "sam", "2026-04-04T00:00:00Z", quantity: 2),
      use("s4", "sam", "2026-04-05T00:00:00Z", "pattern"), use("s5", "sam", "2026-04-06T00:00:00Z", "saved_trip"),
      use("s6", "sam", "2026-04-07T00:00:00Z", "saved_trip", quantity: -1),
      use("s7", "sam", "2026-05-02T00:00:00Z"),
      // fay never subscribes: her 4 interactions are not subscriber uses.
      use("f1", "fay", "2026-04-03T00:00:00Z", quantity: 4),
    ].joined(separator: "\n")
    let report = try ReportBuilder.report(
      ledger: try ledger(log, catalogText: policyCatalogText()),
      buckets: try ReportBuckets(from: ts("2026-04-01T00:00:00Z"), to: ts("2026-06-01T00:00:00Z"), every: .month),
      asOf: nil)
    #expect(
      report.buckets[0]["subscriber_uses"]
        == .keyed([(key: "interaction", value: 3), (key: "pattern", value: 1), (key: "saved_trip", value: 1)]))
    #expect(report.buckets[1]["subscriber_uses"] == .keyed([]))
    // The HTML row: 3 interactions ÷ 1 subscriber at the end of April.
    #expect(report.html(log: "log").contains("<td>3.00</td>"))
  }
}
