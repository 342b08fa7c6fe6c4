import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Report and timeline outputs: JSON, CSV, HTML, comparisons")
struct ReportOutputTests {
  static func demo() throws -> Ledger {
    let directory = repoPath("Events")
    let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
    return try LedgerLoader.load(logPath: directory + "/demo.jsonl", catalog: catalog).ledger
  }

  static func demoReport(asOf: String? = nil) throws -> Report {
    try ReportBuilder.report(
      ledger: try demo(),
      buckets: try ReportBuckets(from: ts("2026-02-01T00:00:00Z"), to: ts("2026-04-01T00:00:00Z"), every: .month),
      asOf: asOf.map(ts))
  }

  @Test("the JSON has the fixed shape: buckets with start, end, active and revenue in thousandths")
  func json() throws {
    let json = try JSONValue.parse(JSONWriter.compact(try Self.demoReport().jsonValue))
    guard case .array(let buckets)? = json["buckets"] else {
      Issue.record("no buckets array")
      return
    }
    #expect(buckets.count == 2)
    #expect(buckets[1]["start"]?.stringValue == "2026-03-01T00:00:00Z")
    #expect(buckets[1]["end"]?.stringValue == "2026-04-01T00:00:00Z")
    #expect(buckets[1]["active"] == .object([("pro", .integer(2)), ("voice", .integer(0))]))
    #expect(buckets[1]["revenue"] == .object([("USD", .integer(49990))]))
    #expect(buckets[1]["refund_rate"] == .number(0.5))
    #expect(buckets[0]["trial_conversion_rate"] == .null)
  }

  @Test("the CSV has one row per bucket and a column per metric key, money in thousandths")
  func csv() throws {
    let rows = try Self.demoReport().csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    #expect(rows.count == 3)
    let header = rows[0]
    #expect(header.prefix(2) == ["start", "end"])
    #expect(rows.allSatisfy { $0.count == header.count })
    let revenue = header.firstIndex(of: "revenue.USD (thousandths)")!
    #expect(rows[1][revenue] == "34980" && rows[2][revenue] == "49990")
    let rate = header.firstIndex(of: "trial_conversion_rate (ratio)")!
    #expect(rows[1][rate] == "")
    #expect(rows[2][header.firstIndex(of: "refund_rate (ratio)")!] == "0.5")
    #expect(rows[1][header.firstIndex(of: "mrr.USD (thousandths)")!] == "4990")
    #expect(rows[1][header.firstIndex(of: "active.pro (subjects)")!] == "2")
    // The February cohort's row reaches March (offset 1); the March row does not: an empty cell.
    let offset1 = header.firstIndex(of: "paid_cohort_retained.1 (subjects)")!
    #expect(rows[1][offset1] == "1" && rows[2][offset1] == "")
  }

  @Test("CSV fields holding a comma or a quote are quoted")
  func csvQuoting() {
    #expect(CSV.field("a,b") == #""a,b""#)
    #expect(CSV.field(#"say "hi""#) == #""say ""hi""""#)
    #expect(CSV.field("plain") == "plain")
  }

  @Test("the HTML report is well-formed, has a chart per non-empty group and shows the numbers")
  func html() throws {
    let report = try Self.demoReport()
    let html = report.html(log: "Events/demo.jsonl")
    #expect(xmlError(html) == nil, "\(xmlError(html) ?? "")")
    #expect(!html.contains("<script"))
    #expect(!html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http://"))
    #expect(!html.contains("https://"))
    // The headline, then every section but the usage policy's: the demo catalog has no policy.
    #expect(occurrences(of: "<section", in: html) == 1 + ReportSection.all.count - 1)
    // Charts: active, MRR (USD only), MRR movement (USD), revenue (USD only), new subscriptions,
    // trials, lifetime value (USD), refunds, plan changes, consumables; the demo has no expiration,
    // no price increase and no billing issue, so churn, price increases and billing say so and have
    // no chart (a chart of zeros is never drawn).
    #expect(occurrences(of: "<svg", in: html) == 10)
    #expect(html.contains(">MRR USD</text>") && html.contains("Realized LTV in USD"))
    #expect(occurrences(of: "None in these buckets.", in: html) == 3)
    // MRR and ARR in currency units: a monthly plan's 4990 thousandths, even in February, is 59.88 a year.
    #expect(html.contains("<td>4.99</td>") && html.contains("<td>59.88</td>"))
    // The paid cohort heat map: February's cohort (u1) still paying one month later.
    #expect(html.contains("<th>k = 1</th>") && html.contains(#"title="1 of 1">100.0%</td>"#))
    // Names that cannot be confused.
    #expect(html.contains(HTMLPage.escape(ReportMetric.trialConversions.title)) && html.contains(HTMLPage.escape(ReportMetric.trialsConverted.title)))
    #expect(!html.contains("<th>trial conversions</th>") && !html.contains("<th>trials converted</th>"))
    // Revenue in currency units in the table, and each bucket's label on every chart's axis.
    #expect(html.contains("<td>49.99</td>") && html.contains("<td>34.98</td>"))
    #expect(occurrences(of: #"class="axis-date""#, in: html) == 2 * 10)
    #expect(html.contains(">2026-02<") && html.contains(">2026-03<"))
  }

  @Test("--metrics keeps only the metrics named, and the HTML only their groups")
  func keeping() throws {
    let report = try Self.demoReport().keeping(metrics: ["active", "revenue"])
    #expect(report.buckets.allSatisfy { $0.metrics.map(\.name) == ["active", "revenue"] })
    let html = report.html(log: "demo")
    // The headline (with the figures the metrics kept give) and the two groups.
    #expect(occurrences(of: "<section", in: html) == 1 + 2)
  }

  @Test("comparing as of 6 March with now shows the late refund and the March upgrade, in February only its cohort's value")
  func comparison() throws {
    let comparison = ReportComparison(before: try Self.demoReport(asOf: "2026-03-06T00:00:00Z"), after: try Self.demoReport())
    // In February only the February cohort's lifetime value through March changes (by the March events).
    #expect(comparison.buckets[0].changes.map(\.name) == ["first_payment_revenue.USD/1", "ltv.USD/1"])
    let march = Dictionary(uniqueKeysWithValues: comparison.buckets[1].changes.map { ($0.name, ($0.before, $0.after)) })
    #expect(march["revenue.USD"]! == (4990, 49990))
    #expect(march["refunds"]! == (0, 1))
    #expect(march["refunded.USD"]! == (0, 4990))
    #expect(march["charges"]! == (1, 2))
    #expect(march["upgrades"]! == (0, 1))
    #expect(march["mrr_contraction.USD"]! == (0, 824))
    #expect(
      march.keys.sorted() == [
        "arppu.USD", "charges", "mrr.USD", "mrr_contraction.USD", "proceeds_unknown", "proceeds_unknown_revenue.USD",
        "reactivations", "refunded.USD", "refunds", "revenue.USD", "upgrades",
      ])
    // The demo's charges state no proceeds: all of the revenue is of unknown proceeds.
    #expect(march["proceeds_unknown_revenue.USD"]! == march["revenue.USD"]!)
    #expect(xmlError(comparison.html(log: "demo")) == nil)
    #expect(comparison.csv.split(separator: "\n").count == 1 + 2 + 11)
  }

  @Test("a window with no events gives empty buckets, not an error")
  func emptyWindow() throws {
    let report = try ReportBuilder.report(
      ledger: try Self.demo(),
      buckets: try ReportBuckets(from: ts("2020-01-01T00:00:00Z"), to: ts("2020-01-03T00:00:00Z"), every: .day), asOf: nil)
    #expect(report.buckets.count == 2)
    for bucket in report.buckets {
      for metric in bucket.metrics {
        switch metric.value {
        case .count(let count): #expect(count == 0)
        case .keyed(let entries): #expect(entries.allSatisfy { $0.value == 0 })
        case .rate: #expect(metric.value.rateTenThousandths == nil)
        }
      }
    }
    #expect(xmlError(report.html(log: "demo")) == nil)
  }

  @Test(
    "rates round half up to four decimals; money prints in currency units",
    arguments: [(2, 3, "0.6667"), (1, 8, "0.125"), (1, 1, "1"), (0, 5, "0"), (1, 20_000, "0.0001"), (1, 30_000, "0")]
      as [(Int64, Int64, String)])
  func formats(numerator: Int64, denominator: Int64, text: String) {
    let rate = MetricValue.rate(numerator: numerator, denominator: denominator)
    #expect(ReportFormat.decimal(tenThousandths: rate.rateTenThousandths!) == text)
  }

  @Test("money prints in currency units with at least two decimals", arguments: [
    (4990, "4.99"), (-29990, "-29.99"), (5, "0.005"), (0, "0.00"), (1_000_000, "1000.00"),
  ] as [(Int64, String)])
  func money(thousandths: Int64, text: String) {
    #expect(ReportFormat.money(thousandths: thousandths) == text)
  }
}

@Suite("Report chart axes and money formats")
struct ReportChartAxisTests {
  @Test("a count axis has whole-number ticks only, however small its values", arguments: [1.0, 2, 3, 7, 13])
  func integralTicks(high: Double) {
    let ticks = ChartScale(low: 0, high: high, isIntegral: true).ticks
    #expect(ticks.allSatisfy { $0 == $0.rounded() }, "\(ticks)")
    #expect(ticks.last! >= high)
  }

  @Test("12 × an amount is exact even where the product would pass Int64", arguments: [
    (Int64(5346), "64.152"), (-1999, "-23.988"), (0, "0.00"), (4_000_000_000_000_000_000, "48000000000000000.00"),
  ])
  func annual(thousandths: Int64, text: String) {
    #expect(ReportFormat.money(thousandths: thousandths, times: 12) == text)
  }
}
