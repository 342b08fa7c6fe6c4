import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerReport

@Suite("The report a product manager reads: headline, definitions, formats, rates, print")
struct PMReportTests {
  @Test("a bucket still running is not the headline's: as of mid-March, February is the last complete month")
  func lastCompleteBucket() throws {
    let report = try ReportOutputTests.demoReport()
    let headline = ReportHeadline(report, now: ts("2026-03-15T00:00:00Z"), rates: nil)
    #expect(headline.bucket == 0)
    #expect(ReportHeadline(report, now: ts("2026-04-01T00:00:00Z"), rates: nil).bucket == 1)
    #expect(ReportHeadline(report, now: ts("2026-02-10T00:00:00Z"), rates: nil).bucket == nil)
    #expect(report.html(log: "demo", now: ts("2026-02-10T00:00:00Z")).contains("No bucket of this report is complete yet"))
  }

  @Test("every definition printed beside a figure or a chart is in Docs/reports.md word for word")
  func definitionsMatchDocs() throws {
    let docs = try String(contentsOfFile: repoPath("Docs/reports.md"), encoding: .utf8)
    for definition in ReportDefinitions.all {
      #expect(docs.contains(definition), "\(definition)")
    }
    let html = try ReportOutputTests.demoReport().html(log: "demo")
    #expect(occurrences(of: "<p class=\"definition\">", in: html) == 6 + ReportSection.all.count - 1)
  }

  @Test(
    "numbers have one format: grouped counts, money in its currency's minor units, percentages with one decimal",
    arguments: [
      (HTMLNumber.count(1_234_567), "1,234,567"), (HTMLNumber.count(-1000), "-1,000"), (HTMLNumber.count(999), "999"),
      (HTMLNumber.money(thousandths: 4990, currency: "USD"), "4.99"),
      (HTMLNumber.money(thousandths: 1_234_567, currency: "EUR"), "1,234.57"),
      (HTMLNumber.money(thousandths: -29_995, currency: "USD"), "-30.00"),
      (HTMLNumber.money(thousandths: 4, currency: "USD"), "0.00"),
      (HTMLNumber.money(thousandths: 4166, times: 12, currency: "USD"), "49.99"),
      (HTMLNumber.money(thousandths: Limits.reportValueMax, times: 12, currency: "USD"), "48,000,000,000,000,000.00"),
      (HTMLNumber.money(thousandths: 1_200_000, currency: "JPY"), "1,200"),
      (HTMLNumber.money(thousandths: 4_995, currency: "KWD"), "4.995"),
      (HTMLNumber.percent(1, of: 3) ?? "", "33.3%"), (HTMLNumber.percent(1, of: 8) ?? "", "12.5%"),
      (HTMLNumber.percent(0, of: 5) ?? "", "0.0%"), (HTMLNumber.percent(1, of: 0) ?? "nil", "nil"),
      (HTMLNumber.change(from: 4990, to: 4166) ?? "", "-16.5%"), (HTMLNumber.change(from: 0, to: 5) ?? "nil", "nil"),
    ] as [(String, String)])
  func formats(text: String, expected: String) {
    #expect(text == expected)
  }

  @Test(
    "conversion is exact decimal arithmetic, rounded half away from zero",
    arguments: [(4990, "1.08", 5389), (-4990, "1.08", -5389), (1000, "0.0067", 7), (1, "0.5", 1), (3, "0.5", 2), (7, "0.000000001", 0)]
      as [(Int64, String, Int64)])
  func conversion(thousandths: Int64, rate: String, expected: Int64) throws {
    let line = #"{"date": "2026-01-01", "from": "EUR", "to": "USD", "rate": "\#(rate)"}"#
    let rates = try ExchangeRates.parse(Array(line.utf8), file: "r")
    let found = try #require(rates.rate(from: "EUR", before: ts("2026-01-02T00:00:00Z")))
    #expect(ExchangeRates.convert(thousandths, at: found) == expected)
    #expect(rates.rate(from: "EUR", before: ts("2026-01-01T00:00:00Z")) == nil)
    #expect(rates.rate(from: "GBP", before: ts("2027-01-01T00:00:00Z")) == nil)
  }
}
