import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("report and timeline commands: output, bad input and exit codes")
struct ReportCommandTests {
  static let demo = repoPath("Events/demo.jsonl")

  @Test("report prints the JSON report; --format csv and html print the same numbers")
  func formats() throws {
    let json = runCLI(["report", Self.demo, "--from", "2026-02-01", "--to", "2026-04-01"])
    #expect(json.status == 0 && json.stderr.isEmpty)
    let parsed = try JSONValue.parse(json.stdout)
    guard case .array(let buckets)? = parsed["buckets"] else {
      Issue.record("no buckets")
      return
    }
    #expect(buckets.map { $0["revenue"]?["USD"] } == [.integer(34980), .integer(49990)])
    let csv = runCLI(["report", Self.demo, "--from", "2026-02-01", "--to", "2026-04-01", "--format", "csv"])
    #expect(csv.status == 0 && csv.stdout.contains(",34980,"))
    let html = runCLI(["report", Self.demo, "--from", "2026-02-01", "--to", "2026-04-01", "--format", "html"])
    #expect(html.status == 0 && xmlError(html.stdout) == nil && html.stdout.contains("49.99"))
  }

  @Test("--compare-as-of lists what late events changed")
  func compare() throws {
    let result = runCLI([
      "report", Self.demo, "--from", "2026-03-01", "--to", "2026-03-31", "--compare-as-of", "2026-03-06",
      "--metrics", "revenue,refunds",
    ])
    #expect(result.status == 0)
    let parsed = try JSONValue.parse(result.stdout)
    guard case .array(let buckets)? = parsed["buckets"] else {
      Issue.record("no buckets")
      return
    }
    #expect(buckets[0]["changes"]?["revenue.USD"]?["change"] == .integer(45000))
    #expect(buckets[0]["changes"]?["refunds"]?["after"] == .integer(1))
  }

  @Test(
    "bad report arguments are usage errors (64) with nothing on stdout",
    arguments: [
      (["--from", "2026-04-01", "--to", "2026-03-01"], "after --to"),
      (["--from", "2026-03-01", "--to", "2026-04-01", "--every", "wek"], "Did you mean 'week'?"),
      (["--from", "2026-03-01", "--to", "2026-04-01", "--format", "xml"], "expected one of json, csv, html"),
      (["--from", "2026-03-01", "--to", "2026-04-01", "--metrics", "revenu"], "Did you mean 'revenue'?"),
      (["--from", "2026-03-01"], "Missing expected option '--to <time>'"),
      (["--from", "someday", "--to", "2026-04-01"], "Invalid value for '--from'"),
      (["--from", "2026-01-01", "--to", "2206-01-01", "--every", "day"], "more than 20000"),
    ] as [([String], String)])
  func badArguments(arguments: [String], message: String) {
    let result = runCLI(["report", Self.demo] + arguments)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test("a missing log is exit 66 for report and timeline")
  func missingLog() {
    #expect(runCLI(["report", "/nonexistent/log.jsonl", "--from", "2026-01-01", "--to", "2026-02-01"]).status == 66)
    #expect(runCLI(["timeline", "/nonexistent/log.jsonl", "--subject", "u1"]).status == 66)
  }

  @Test("timeline prints the text table, or the HTML page; an unknown subject is exit 66 with a clear message")
  func timeline() {
    let text = runCLI(["timeline", Self.demo, "--subject", "u1"])
    #expect(text.status == 0 && text.stdout.contains("e6") && text.stdout.contains("(+4d 16h)"))
    let html = runCLI(["timeline", Self.demo, "--subject", "u1", "--format", "html", "--as-of", "2026-03-06"])
    #expect(html.status == 0 && xmlError(html.stdout) == nil && !html.stdout.contains(#"data-id="e6""#))
    let unknown = runCLI(["timeline", Self.demo, "--subject", "nobody"])
    #expect(unknown.status == 66 && unknown.stdout.isEmpty)
    #expect(unknown.stderr.contains("no event in the log names subject 'nobody'"))
    let format = runCLI(["timeline", Self.demo, "--subject", "u1", "--format", "pdf"])
    #expect(format.status == 64)
  }
}
