import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// Support grants and blocks in reports (issue 34 item 3), on a hand-made log: monthly buckets,
/// January to March 2026.
@Suite("Reports count grants apart from subscriptions and list active blocks by service")
struct GrantsAndBlocksReportTests {
  static let grant =
    EventLines.line(.grant(id: "g1", subject: "gil", at: ts("2026-01-05T00:00:00Z"), entitlements: ["pro"], expires: ts("2026-02-15T00:00:00Z")))
  static let blocked = [
    EventLines.line(.purchase(id: "h1", subject: "hue", at: ts("2026-01-03T00:00:00Z"), product: "pro.monthly", transaction: "h1", expires: ts("2026-02-03T00:00:00Z"), price: 1000, currency: "USD")),
    EventLines.line(.block(id: "h2", subject: "hue", at: ts("2026-01-20T00:00:00Z"), service: "fraud")),
    EventLines.line(.block(id: "h3", subject: "hue", at: ts("2026-01-21T00:00:00Z"), service: "parental", entitlements: ["voice"])),
    EventLines.line(.unblock(id: "h4", subject: "hue", at: ts("2026-02-10T00:00:00Z"), service: "fraud")),
  ]

  static func report(_ lines: [String]) throws -> Report {
    let buckets = try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month)
    return try ReportBuilder.report(ledger: try ledger(lines.joined(separator: "\n")), buckets: buckets, asOf: nil)
  }

  @Test("a grant gives pro in active and granted_active until it ends, and is neither a subscriber nor MRR")
  func grantApart() throws {
    let buckets = try Self.report([Self.grant]).buckets
    #expect(buckets[0]["active"]?["pro"] == 1)
    #expect(buckets[0]["granted_active"]?["pro"] == 1)
    #expect(buckets[1]["granted_active"]?["pro"] == 0)
    #expect(buckets[0]["subscribers"] == .count(0))
    #expect(buckets[0]["mrr"] == .keyed([]))
    #expect(buckets[0]["new_subscriptions"] == .keyed([]))
  }

  @Test("blocks in force at a bucket's end are listed by service; an unblock ends one")
  func blocksByService() throws {
    let buckets = try Self.report(Self.blocked + [Self.grant]).buckets
    #expect(buckets[0]["blocks_active"] == .keyed([(key: "fraud", value: 1), (key: "parental", value: 1)]))
    #expect(buckets[1]["blocks_active"] == .keyed([(key: "parental", value: 1)]))
    // hue is blocked from pro at January's end: only gil's grant gives it.
    #expect(buckets[0]["active"]?["pro"] == 1)
    #expect(buckets[0]["granted_active"]?["pro"] == 1)
  }
}
