import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// Price increases accepted and declined per bucket (Docs/reports.md, `price_increases_accepted`,
/// `price_increases_declined`, `price_increase_acceptance_rate`) on a log worked out by hand
/// (monthly buckets, January to March 2026).
@Suite("Report: price increases accepted and declined, hand-derived")
struct PriceIncreaseReportTests {
  static func charge(
    _ id: String, _ type: String, _ subject: String, at day: String, until end: String, price: Int64,
    currency: String = "USD", product: String = "pro.monthly", original: String? = nil, offer: Offer? = nil
  ) -> String {
    let (at, expires) = (ts("\(day)T00:00:00Z"), ts("\(end)T00:00:00Z"))
    let event: NewEvent =
      if type == "renewal", let original {
        .renewal(
          id: "\(id)", subject: "\(subject)", at: at, product: "\(product)", transaction: "\(id)", originalTransaction: "\(original)",
          expires: expires, offer: offer, price: price, currency: currency)
      } else {
        .purchase(
          id: "\(id)", subject: "\(subject)", at: at, product: "\(product)", transaction: "\(id)",
          originalTransaction: original.map(TransactionID.init(rawValue:)), expires: expires, offer: offer, price: price, currency: currency)
      }
    precondition(event.kind.name == type, "\(id) is a \(type)")
    return EventLines.line(event)
  }

  static func expiration(_ id: String, _ subject: String, at day: String, original: String, reason: NewEvent.ExpirationReason) -> String {
    EventLines.line(.expiration(id: "\(id)", subject: "\(subject)", at: ts("\(day)T00:00:00Z"), originalTransaction: "\(original)", reason: reason))
  }

  static let lines = [
    // ann: 10.00, then 12.00 from February (accepted in February), 12.00 again in March (no change).
    charge("a1", "purchase", "ann", at: "2026-01-10", until: "2026-02-10", price: 1000),
    charge("a2", "renewal", "ann", at: "2026-02-10", until: "2026-03-10", price: 1200, original: "a1"),
    charge("a3", "renewal", "ann", at: "2026-03-10", until: "2026-04-10", price: 1200, original: "a1"),
    // bob: an intro price of 5.00, then the regular 10.00: an offer ending, not an increase.
    charge("b1", "purchase", "bob", at: "2026-01-05", until: "2026-02-05", price: 500, offer: .intro),
    charge("b2", "renewal", "bob", at: "2026-02-05", until: "2026-03-05", price: 1000, original: "b1"),
    // cat: does not accept the increase; the subscription ends in February (declined).
    charge("c1", "purchase", "cat", at: "2026-01-12", until: "2026-02-12", price: 1000),
    expiration("c2", "cat", at: "2026-02-12", original: "c1", reason: .priceIncrease),
    // dan: renews in another currency (a storefront change): not an increase.
    charge("d1", "purchase", "dan", at: "2026-01-15", until: "2026-02-15", price: 1000),
    charge("d2", "renewal", "dan", at: "2026-02-15", until: "2026-03-15", price: 1100, currency: "EUR", original: "d1"),
    // eve: renews into the annual plan: a plan change, not an increase.
    charge("e1", "purchase", "eve", at: "2026-01-20", until: "2026-02-20", price: 1000),
    charge("e2", "renewal", "eve", at: "2026-02-20", until: "2027-02-20", price: 12000, product: "pro.annual", original: "e1"),
    // fay: lapses in February, comes back on the same original transaction at a higher price in March: a resubscription.
    charge("f1", "purchase", "fay", at: "2026-01-03", until: "2026-02-03", price: 1000),
    expiration("f2", "fay", at: "2026-02-03", original: "f1", reason: .voluntary),
    charge("f3", "renewal", "fay", at: "2026-03-03", until: "2026-04-03", price: 1300, original: "f1"),
    // gus: a free trial, the regular 10.00, then 11.00 in March (accepted in March).
    charge("g1", "purchase", "gus", at: "2026-01-01", until: "2026-02-01", price: 0, offer: .trial),
    charge("g2", "renewal", "gus", at: "2026-02-01", until: "2026-03-01", price: 1000, original: "g1"),
    charge("g3", "renewal", "gus", at: "2026-03-01", until: "2026-04-01", price: 1100, original: "g1"),
    // hal: ends for a price increase in March (declined); ivy accepts one in March.
    charge("h1", "purchase", "hal", at: "2026-02-01", until: "2026-03-01", price: 1000),
    expiration("h2", "hal", at: "2026-03-01", original: "h1", reason: .priceIncrease),
    charge("i1", "purchase", "ivy", at: "2026-02-08", until: "2026-03-08", price: 1000),
    charge("i2", "renewal", "ivy", at: "2026-03-08", until: "2026-04-08", price: 1500, original: "i1"),
  ]

  static func report(_ lines: [String] = lines) throws -> Report {
    try ReportBuilder.report(
      ledger: try ledger(lines.joined(separator: "\n")), buckets: FinanceMetricsTests.buckets, asOf: nil)
  }

  @Test("accepted increases, declined ones and the share accepted, per bucket")
  func perBucket() throws {
    let buckets = try Self.report().buckets
    #expect(buckets.map { $0["price_increases_accepted"] } == [.count(0), .count(1), .count(2)])
    #expect(buckets.map { $0["price_increases_declined"] } == [.count(0), .count(1), .count(1)])
    #expect(buckets.map { $0["price_increase_acceptance_rate"]?.rateTenThousandths } == [nil, 5000, 6667])
    // Declined is churn's price_increase, nothing else.
    #expect(buckets.map { $0["churn"]?.entry("price_increase") ?? 0 } == [0, 1, 1])
  }

  @Test("without the higher renewals nothing is accepted: the count comes from the price raised, not from renewals")
  func honest() throws {
    let raised: Set<String> = ["a2", "a3", "g3", "i2"]
    let flat = Self.lines.map { line in
      raised.contains { line.contains(#""id":"\#($0)""#) }
        ? line.replacingOccurrences(of: #""price":1200"#, with: #""price":1000"#)
          .replacingOccurrences(of: #""price":1100"#, with: #""price":1000"#)
          .replacingOccurrences(of: #""price":1500"#, with: #""price":1000"#)
        : line
    }
    let buckets = try Self.report(flat).buckets
    #expect(buckets.map { $0["price_increases_accepted"] } == [.count(0), .count(0), .count(0)])
    #expect(buckets.map { $0["price_increase_acceptance_rate"]?.rateTenThousandths } == [nil, 0, 0])
  }

  @Test("a lower renewal price is no increase")
  func decrease() throws {
    let lines = [
      Self.charge("a1", "purchase", "ann", at: "2026-01-10", until: "2026-02-10", price: 1000),
      Self.charge("a2", "renewal", "ann", at: "2026-02-10", until: "2026-03-10", price: 999, original: "a1"),
    ]
    #expect(try Self.report(lines).buckets.map { $0["price_increases_accepted"] } == [.count(0), .count(0), .count(0)])
  }

  @Test("the HTML report has a section with both outcomes and the share accepted")
  func html() throws {
    let page = try Self.report().html(log: "test.jsonl", now: ts("2026-04-02T00:00:00Z"))
    #expect(page.contains("Price increases: accepted and declined"))
    #expect(page.contains(ReportDefinitions.priceIncreases.replacingOccurrences(of: "'", with: "&#39;")))
    #expect(page.contains("share of decided price increases accepted"))
  }
}
