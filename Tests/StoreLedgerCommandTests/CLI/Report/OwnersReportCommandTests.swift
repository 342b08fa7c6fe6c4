import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerReport

/// Reports count owners (contract v1.3, section 9; issue 34 item 3, issue 36 item 2): a unit a
/// transfer gave counts under its owner at each bucket end, a transfer is neither a new
/// subscription nor churn nor money, and customers are the subjects joined by the transfers known
/// at R. Every figure is worked out by hand in the comments (USD; thousandths).
@Suite("Reports count owners: a transfer moves stocks and customers, never flows")
struct OwnersReportCommandTests {
  @Test(
    "on a generated log with transfers, report --shard partials merge into the whole report, now and as of a past instant",
    arguments: [[], ["--as-of", "2025-03-01"]])
  func shardsMergeGenerated(asOf: [String]) throws {
    let space = try Workspace()
    try space.write("log.jsonl", TransferLog.generated.text)
    try space.write("catalog.json", LogGenerator.catalogJSON(for: .none))
    let window = ["--from", "2024-01-01", "--to", "2026-01-01", "--format", "partial"] + asOf
    let whole = runCLI(["report", space.log] + window)
    #expect(whole.status == 0, "\(whole.stderr)")
    var partials: [String] = []
    for index in 0..<3 {
      let part = runCLI(["report", space.log] + window + ["--shard", "\(index)/3"])
      #expect(part.status == 0, "\(part.stderr)")
      try space.write("part\(index).json", part.stdout)
      partials.append(space.path("part\(index).json"))
    }
    let merged = runCLI(["report", "--merge"] + partials + ["--format", "partial"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout == whole.stdout)
  }
}
