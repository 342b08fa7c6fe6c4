import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// A generated log in a fresh directory, made once per test process.
private let generatedLog: String = {
  let directory = try! temporaryDirectory()
  let log = directory.appendingPathComponent("log.jsonl").path
  let result = runCLI(["generate", "--subjects", "300", "--seed", "5", "--usage", "none", "--out", log, "--months", "14"])
  precondition(result.status == 0, result.stderr)
  return log
}()

/// The `data-value`s of the headline figure `name`, in order.
private func headlineValues(_ html: String, _ name: String) -> [String] {
  guard let start = html.range(of: "data-figure=\"\(name)\"") else { return [] }
  let block = html[start.upperBound...].prefix { _ in true }
  let end = block.range(of: "<p class=\"definition\"")?.lowerBound ?? block.endIndex
  return block[..<end].components(separatedBy: "data-value=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
}

/// A keyed JSON value as pairs in order, `[]` when absent.
private func pairs(_ value: JSONValue?) -> [(String, Int64)] {
  (value?.objectMembers ?? []).compactMap { member in
    guard case .integer(let amount) = member.1 else { return nil }
    return (member.0, amount)
  }
}

private func integer(_ value: JSONValue?) -> Int64 {
  guard case .integer(let number)? = value else { return -1 }
  return number
}

@Suite("The report a product manager reads: headline, definitions, formats, rates, print")
struct PMReportCommandTests {
  static let window = ["--from", "2024-01-01", "--to", "2025-03-01"]

  @Test("the headline figures are those of the JSON report's last complete bucket and the one before it")
  func headlineAgreesWithJSON() throws {
    let json = runCLI(["report", generatedLog] + Self.window)
    let html = runCLI(["report", generatedLog] + Self.window + ["--format", "html"])
    #expect(json.status == 0 && html.status == 0)
    guard case .array(let buckets)? = try JSONValue.parse(json.stdout)["buckets"], buckets.count == 14 else {
      Issue.record("no 14 buckets")
      return
    }
    // Every bucket ended in 2025, before this test runs: the last complete bucket is the last one.
    let last = buckets[13]
    let before = buckets[12]
    #expect(html.stdout.contains("2025-02 at a glance"))
    #expect(headlineValues(html.stdout, "subscribers") == [String(integer(last["subscribers"]))])
    #expect(headlineValues(html.stdout, "mrr") == pairs(last["mrr"]).map { String($0.1) })
    let changes = pairs(last["mrr"]).map { currency, amount in
      String(amount - (pairs(before["mrr"]).first { $0.0 == currency }?.1 ?? 0))
    }
    #expect(headlineValues(html.stdout, "mrr_change") == changes)
    // mrr_opening is the previous bucket's mrr, as the definition says.
    #expect(pairs(last["mrr_opening"]).map(\.1) == pairs(before["mrr"]).map(\.1))
    let churned = pairs(last["churn"]).reduce(0) { $0 + $1.1 }
    #expect(headlineValues(html.stdout, "churn_rate") == ["\(churned)/\(integer(before["subscribers"]))"])
    let started = integer(last["trials_started"])
    #expect(headlineValues(html.stdout, "trial_conversion") == (started > 0 ? ["\(integer(last["trials_converted"]))/\(started)"] : [""]))
    #expect(headlineValues(html.stdout, "refunds") == [String(integer(last["refunds"]))] + pairs(last["refunded"]).map { String($0.1) })
    // Coverage: the priced share of the subscriptions mrr reads, on the MRR chart too.
    let priced = integer(last["mrr_priced_subscriptions"])
    let all = priced + integer(last["mrr_unpriced_subscriptions"])
    let share = try #require(HTMLNumber.percent(priced, of: all))
    #expect(html.stdout.contains("covers \(share) of paid subscriptions"))
    #expect(html.stdout.contains("coverage 2025-02: \(share) of paid subscriptions have a price"))
  }

  @Test("wide tables list the newest bucket first, twelve buckets a table, and nothing is lost in print")
  func newestFirst() throws {
    let html = runCLI(["report", generatedLog] + Self.window + ["--format", "html"]).stdout
    let header = try #require(html.range(of: "<table class=\"buckets\">\n<thead><tr><th>metric</th><th>"))
    #expect(html[header.upperBound...].hasPrefix("2025-02</th><th>2025-01</th>"))
    // 14 months: a table of the newest 12, then one of the oldest 2, in every tabled section.
    #expect(html.contains("<th>2024-02</th><th>2024-01</th></tr>"))
    #expect(html.contains("@media print") && html.contains("@page { size: A4 landscape"))
    // Printed, small charts sit two a row on a grid (a wrapping flex row printed one a row, the first of a page shrunk).
    let print = try #require(html.range(of: "@media print {")).upperBound
    #expect(html[print...].contains(".grid { display: grid; grid-template-columns: 1fr 1fr;"))
  }

  @Test("realized LTV is a table per currency, a row per cohort at k = 0, 1, 2, 3, 6, 9, 12, with the JSON's figures, and no row per offset")
  func lifetimeValueTables() throws {
    let json = runCLI(["report", generatedLog] + Self.window + ["--metrics", "ltv,first_payment_customers"])
    let html = runCLI(["report", generatedLog] + Self.window + ["--format", "html"]).stdout
    guard case .array(let buckets)? = try JSONValue.parse(json.stdout)["buckets"], buckets.count == 14 else {
      Issue.record("no 14 buckets")
      return
    }
    // The oldest cohort, January 2024, in USD: its row holds the JSON's ltv at each shown k.
    let ltv = Dictionary(pairs(buckets[0]["ltv"]), uniquingKeysWith: { a, _ in a })
    let shown = [0, 1, 2, 3, 6, 9, 12].map { ltv["USD/\($0)"].map { HTMLNumber.money(thousandths: $0, currency: "USD") } ?? "" }
    try #require(shown.allSatisfy { !$0.isEmpty }, "the generated log's first cohort pays in USD")
    let table = try #require(html.range(of: "Realized LTV in USD per paying customer"))
    let row = "<tr><th>2024-01</th><td>\(integer(buckets[0]["first_payment_customers"]))</td>" + shown.map { "<td>\($0)</td>" }.joined() + "</tr>"
    #expect(html[table.upperBound...].contains(row))
    #expect(html[table.upperBound...].contains("<th>k = 12</th></tr></thead>"))
    #expect(!html.contains("(cumulative, by month after) USD/0"))
  }

  @Test("--rates gives a total in one currency at the newest rate dated before each bucket's end; a missing rate is a note")
  func ratesTotal() throws {
    let directory = try temporaryDirectory()
    let rates = directory.appendingPathComponent("rates.jsonl").path
    // Demo money is USD only: convert it into EUR, with no rate for February.
    try """
      {"date": "2026-03-01", "from": "USD", "to": "EUR", "rate": "0.5"}
      {"date": "2026-04-01", "from": "USD", "to": "EUR", "rate": "9"}

      """.write(toFile: rates, atomically: true, encoding: .utf8)
    let result = runCLI(["report", ReportCommandTests.demo, "--from", "2026-02-01", "--to", "2026-04-01", "--format", "html", "--rates", rates])
    #expect(result.status == 0, "\(result.stderr)")
    // March: MRR 4.166 USD at 0.5 (the rate of 1 April is for buckets ending after it).
    #expect(headlineValues(result.stdout, "mrr") == ["4166", "2083"])
    #expect(result.stdout.contains("<th>MRR total in EUR (at dated rates)</th><td>2.08</td><td>–</td>"))
    #expect(result.stdout.contains("Total left out (–): no USD→EUR rate dated before the end of 2026-02."))
  }

  @Test(
    "a bad rates file stops with file:line and the field, exit 65",
    arguments: [
      (#"{"date": "2026-03-01", "from": "USD", "to": "EUR", "rate": 0.5}"#, ":1: error: field 'rate': expected a decimal string"),
      (#"{"date": "2026-3-1", "from": "USD", "to": "EUR", "rate": "0.5"}"#, ":1: error: field 'date': expected a date"),
      (#"{"date": "2026-03-01", "from": "usd", "to": "EUR", "rate": "0.5"}"#, ":1: error: field 'from': expected a currency code"),
      (#"{"date": "2026-03-01", "from": "USD", "to": "EUR"}"#, ":1: error: field 'rate': expected a decimal string above 0 with at most 9 decimals such as \"1.08\" (never a JSON number), found no such field"),
      (#"{"date": "2026-03-01", "from": "USD", "to": "EUR", "rate": "0"}"#, ":1: error: field 'rate'"),
      (#"{"date": "2026-03-01", "from": "USD", "to": "EUR", "rate": "1e3"}"#, ":1: error: field 'rate'"),
      (#"{"date": "2026-03-01", "from": "USD", "to": "EUR", "rates": "1"}"#, ":1: error: unknown field 'rates'"),
      ("{\"date\": \"2026-03-01\", \"from\": \"USD\", \"to\": \"EUR\", \"rate\": \"1\"}\n{\"date\": \"2026-03-01\", \"from\": \"GBP\", \"to\": \"USD\", \"rate\": \"1\"}", ":2: error: field 'to'"),
      ("{\"date\": \"2026-03-01\", \"from\": \"USD\", \"to\": \"EUR\", \"rate\": \"1\"}\n{\"date\": \"2026-03-01\", \"from\": \"USD\", \"to\": \"EUR\", \"rate\": \"2\"}", ":2: error: field 'date': expected one USD rate per date (line 1 has one for it)"),
      ("[1]", ":1: error: invalid JSON"),
    ])
  func badRates(text: String, message: String) throws {
    let directory = try temporaryDirectory()
    let rates = directory.appendingPathComponent("rates.jsonl").path
    try text.write(toFile: rates, atomically: true, encoding: .utf8)
    let result = runCLI(["report", ReportCommandTests.demo, "--from", "2026-02-01", "--to", "2026-04-01", "--format", "html", "--rates", rates])
    #expect(result.status == 65)
    #expect(result.stderr.contains(rates + message), "\(result.stderr)")
  }

  @Test("--rates is refused outside the HTML report, and a missing rates file is unreadable input")
  func ratesUsage() {
    let json = runCLI(["report", ReportCommandTests.demo, "--from", "2026-02-01", "--to", "2026-04-01", "--rates", "/nonexistent"])
    #expect(json.status == 64 && json.stderr.contains("'--rates' applies to '--format html' only"))
    let missing = runCLI(["report", ReportCommandTests.demo, "--from", "2026-02-01", "--to", "2026-04-01", "--format", "html", "--rates", "/nonexistent/rates.jsonl"])
    #expect(missing.status == 66)
  }
}
