import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// Estimated proceeds from the catalog's `store_fees` (Docs/reports.md, "Estimated proceeds"),
/// on logs worked out by hand (USD, monthly buckets).
@Suite("Estimated proceeds: the catalog's store fees for charges stating no proceeds, kept apart from stated ones")
struct EstimatedProceedsTests {
  static let catalogText = #"""
    {
      "products": {
        "pro.monthly": {"type": "auto_renewable", "group": "pro", "entitlements": ["pro"]},
        "pro.lifetime": {"type": "non_consumable", "entitlements": ["pro"]}
      },
      "store_fees": {
        "appstore": {"rate": "0.30", "subscription_after_year_rate": "0.15"},
        "googleplay": {"rate": "0.30", "subscription_rate": "0.15"},
        "small": {"rate": "0.3", "program_rate": "0.15"}
      }
    }
    """#

  static let lines = [
    // gus, Google Play: a subscription at 15% from day one (fee 750) and an unlock at 30% (fee 900).
    EventLines.line(.purchase(id: "g1", subject: "gus", at: ts("2026-01-05T00:00:00Z"), product: "pro.monthly", transaction: "g1", expires: ts("2026-02-05T00:00:00Z"), price: 5000, currency: "USD", store: "googleplay")),
    EventLines.line(.purchase(id: "g2", subject: "gus", at: ts("2026-01-06T00:00:00Z"), product: "pro.lifetime", transaction: "g2", price: 3000, currency: "USD", store: "googleplay")),
    // sam, in a small-business programme: 15% of 999 is 149.85, rounded to 150.
    EventLines.line(.purchase(id: "s1", subject: "sam", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "s1", price: 999, currency: "USD", store: "small")),
    // zed's store has no rates, xia's charge names no store: both stay unknown.
    EventLines.line(.purchase(id: "z1", subject: "zed", at: ts("2026-02-02T00:00:00Z"), product: "pro.lifetime", transaction: "z1", price: 2000, currency: "USD", store: "amazon")),
    EventLines.line(.purchase(id: "x1", subject: "xia", at: ts("2026-02-03T00:00:00Z"), product: "pro.lifetime", transaction: "x1", price: 1000, currency: "USD", country: "FR")),
    // stan states his proceeds: never estimated.
    EventLines.line(.purchase(id: "t1", subject: "stan", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1", price: 1000, currency: "USD", store: "appstore", proceeds: 700)),
    // gus's unlock refunded 1500 of 3000: estimated proceeds less 2100 × 1500 ÷ 3000 = 1050.
    EventLines.line(.revocation(id: "g3", subject: "gus", at: ts("2026-03-10T00:00:00Z"), transaction: "g2", reason: .refund, refunded: 1500)),
  ]

  static func facts(_ lines: [String], ledger: Ledger) -> ChargeFacts {
    var facts = ChargeFacts()
    for (index, line) in lines.enumerated() { facts.note(line: UInt32(index + 1), bytes: Array(line.utf8)) }
    facts.estimate(ledger: ledger)
    return facts
  }

  static func usd(_ amount: Int64) -> MetricValue { amount == 0 ? .keyed([]) : .keyed([(key: "USD", value: amount)]) }

  @Test(
    "stated, estimated and unknown proceeds add up to revenue in every bucket",
    arguments: [
      // (bucket, revenue, proceeds, store fees, estimated proceeds, estimated fees, unknown revenue, unknown charges)
      (0, 8000, 0, 0, 6350, 1650, 0, 0), (1, 3999, 0, 0, 849, 150, 3000, 2), (2, -500, 700, 300, -1050, -450, 0, 0),
    ] as [(Int, Int64, Int64, Int64, Int64, Int64, Int64, Int64)])
  func buckets(
    bucket: Int, revenue: Int64, proceeds: Int64, fees: Int64, estimated: Int64, estimatedFees: Int64, unknownRevenue: Int64,
    unknown: Int64
  ) throws {
    let built = try ledger(Self.lines.joined(separator: "\n"), catalogText: Self.catalogText)
    let buckets = try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month)
    let b = try ReportBuilder.report(ledger: built, buckets: buckets, asOf: nil, facts: Self.facts(Self.lines, ledger: built)).buckets[bucket]
    #expect(b["revenue"] == Self.usd(revenue))
    #expect(b["proceeds"] == Self.usd(proceeds))
    #expect(b["store_fees"] == Self.usd(fees))
    #expect(b["proceeds_estimated"] == Self.usd(estimated))
    #expect(b["store_fees_estimated"] == Self.usd(estimatedFees))
    #expect(b["proceeds_unknown_revenue"] == Self.usd(unknownRevenue))
    #expect(b["proceeds_unknown"] == .count(unknown))
    #expect(proceeds + fees + estimated + estimatedFees + unknownRevenue == revenue)
  }

  @Test("without store_fees in the catalog there is no estimate and no estimated metric")
  func withoutStoreFees() throws {
    let catalogText = Self.catalogText.replacingOccurrences(of: #""appstore": {"rate": "0.30", "subscription_after_year_rate": "0.15"},"#, with: "")
      .replacingOccurrences(of: #""googleplay": {"rate": "0.30", "subscription_rate": "0.15"},"#, with: "")
    #expect(catalogText.contains("small"))
    let plain = #"{"products": {"pro.monthly": {"type": "auto_renewable", "group": "pro", "entitlements": ["pro"]}, "pro.lifetime": {"type": "non_consumable", "entitlements": ["pro"]}}}"#
    let built = try ledger(Self.lines.joined(separator: "\n"), catalogText: plain)
    let buckets = try ReportBuckets(from: ts("2026-01-01T00:00:00Z"), to: ts("2026-02-01T00:00:00Z"), every: .month)
    let b = try ReportBuilder.report(ledger: built, buckets: buckets, asOf: nil, facts: Self.facts(Self.lines, ledger: built)).buckets[0]
    #expect(b["proceeds_estimated"] == nil && b["store_fees_estimated"] == nil)
    #expect(b["proceeds_unknown"] == .count(2) && b["proceeds_unknown_revenue"] == Self.usd(8000))
  }

  @Test(
    "the App Store's after-a-year rate starts when 365 days of paid service are reached, not a millisecond before",
    arguments: [
      // The first period's end (and the renewal's instant), and the renewal's estimated proceeds.
      ("2026-03-01T00:00:00Z", 8500), ("2026-02-28T23:59:59.999Z", 7000),
    ] as [(String, Int64)])
  func paidYearBoundary(renewalAt: String, renewalProceeds: Int64) throws {
    // 1 Mar 2025 to 1 Mar 2026 is 365 days; 1 ms less is not a year.
    let lines = [
      EventLines.line(.purchase(id: "a1", subject: "amy", at: ts("2025-03-01T00:00:00Z"), product: "pro.monthly", transaction: "a1", expires: ts(renewalAt), price: 10000, currency: "USD", store: "appstore")),
      EventLines.line(.renewal(id: "a2", subject: "amy", at: ts(renewalAt), product: "pro.monthly", transaction: "a2", originalTransaction: "a1", expires: ts("2026-04-01T00:00:00Z"), price: 10000, currency: "USD", store: "appstore")),
    ]
    let built = try ledger(lines.joined(separator: "\n"), catalogText: Self.catalogText)
    let facts = Self.facts(lines, ledger: built)
    #expect(facts.facts(line: 1)?.estimatedProceeds == 7000)
    #expect(facts.facts(line: 2)?.estimatedProceeds == renewalProceeds)
  }

  @Test("monthly renewals: the twelfth paid month is at 30%, the thirteenth (365 days of service) at 15%; a trial is not paid service")
  func monthlyRenewals() throws {
    var lines = [
      EventLines.line(.purchase(id: "tr", subject: "amy", at: ts("2024-12-01T00:00:00Z"), product: "pro.monthly", transaction: "m0", expires: ts("2025-01-01T00:00:00Z"), offer: .trial, price: 0, currency: "USD", store: "appstore"))
    ]
    for month in 1...13 {
      let start = String(format: "%04d-%02d-01T00:00:00Z", month <= 12 ? 2025 : 2026, (month - 1) % 12 + 1)
      let end = String(format: "%04d-%02d-01T00:00:00Z", month < 12 ? 2025 : 2026, month % 12 + 1)
      lines.append(
        EventLines.line(
          .renewal(
            id: "m\(month)", subject: "amy", at: ts(start), product: "pro.monthly", transaction: "m\(month)", originalTransaction: "m0",
            expires: ts(end), price: 10000, currency: "USD", store: "appstore")))
    }
    let built = try ledger(lines.joined(separator: "\n"), catalogText: Self.catalogText)
    let facts = Self.facts(lines, ledger: built)
    #expect((2...13).map { facts.facts(line: UInt32($0))?.estimatedProceeds } == Array(repeating: 7000, count: 12))
    #expect(facts.facts(line: 14)?.estimatedProceeds == 8500)
  }

  @Test("a lapse of more than 60 days starts the paid service again", arguments: [(60, 8500), (61, 7000)] as [(Int64, Int64)])
  func lapse(days: Int64, proceeds: Int64) throws {
    let back = Timestamp(millisecondsSinceEpoch: ts("2026-03-01T00:00:00Z").millisecondsSinceEpoch + days * 86_400_000)
    let lines = [
      EventLines.line(.purchase(id: "a1", subject: "amy", at: ts("2025-03-01T00:00:00Z"), product: "pro.monthly", transaction: "a1", expires: ts("2026-03-01T00:00:00Z"), price: 10000, currency: "USD", store: "appstore")),
      EventLines.line(.purchase(id: "a2", subject: "amy", at: back, product: "pro.monthly", transaction: "a2", originalTransaction: "a1", expires: ts("2027-01-01T00:00:00Z"), price: 10000, currency: "USD", store: "appstore")),
    ]
    let built = try ledger(lines.joined(separator: "\n"), catalogText: Self.catalogText)
    #expect(Self.facts(lines, ledger: built).facts(line: 2)?.estimatedProceeds == proceeds)
  }

  @Test(
    "a bad store_fees section is a catalog error naming file, line and field",
    arguments: [
      (#"{"products": {},\n "store_fees": {"appstore": {"rate": "30%"}}}"#, "catalog.json:2: error: bad catalog: field 'store_fees.appstore.rate': expected a rate"),
      (#"{"products": {},\n "store_fees": {\n  "appstore": {"program_rate": "0.15"}}}"#, "catalog.json:3: error: bad catalog: field 'store_fees.appstore.rate': required"),
      (#"{"products": {},\n "store_fees": {"appstore": {"rate": "1.5"}}}"#, "catalog.json:2: error: bad catalog: field 'store_fees.appstore.rate': expected a rate"),
      (#"{"products": {},\n "store_fees": {"App Store": {"rate": "0.3"}}}"#, "catalog.json:2: error: bad catalog: field 'store_fees.App Store': a store name"),
      (#"{"products": {},\n "store_fees": {"appstore": {"rate": "0.3", "rates": "0.1"}}}"#, "catalog.json:2: error: bad catalog: field 'store_fees.appstore.rates': unknown field"),
      (#"{"products": {}, "store_fees": []}"#, "catalog.json:1: error: bad catalog: field 'store_fees': expected an object"),
    ] as [(String, String)])
  func badSection(text: String, message: String) throws {
    do {
      _ = try Catalog.parse(text.replacingOccurrences(of: "\\n", with: "\n"), file: "catalog.json")
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.count == 1)
      #expect(error.diagnostics.first?.description.hasPrefix(message) == true, "\(error.diagnostics.map(\.description))")
      #expect(error.diagnostics.first?.exitCode == 65)
    }
  }

  @Test("rates are read exactly: parts per million, at most 6 decimals", arguments: [
    ("0.30", 300_000), ("0.3", 300_000), ("0", 0), ("1", 1_000_000), ("1.000000", 1_000_000), ("0.123456", 123_456),
  ] as [(String, Int64)])
  func rates(text: String, ppm: Int64) {
    #expect(StoreFees.ratePpm(text) == ppm)
  }

  @Test("a rate that is not a decimal from 0 to 1 with at most 6 decimals is refused", arguments: ["0.1234567", "1.01", "-0.1", ".5", "5.", "0,3", "", "2"])
  func badRates(text: String) {
    #expect(StoreFees.ratePpm(text) == nil)
  }
}
