import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerBench

@Suite("The benchmark's targets table says what MET and MISSED mean")
struct BenchLegendTests {
  /// (verdicts of the rows, the counts the legend must start with).
  @Test(
    "the legend counts MET and MISSED rows and says a MISSED row is a goal not reached yet",
    arguments: [
      (["MET", "MISSED", "MISSED", "not measured: no baseline"], "1 MET, 2 MISSED."),
      (Array(repeating: "MET", count: 5) + Array(repeating: "MISSED", count: 19), "5 MET, 19 MISSED."),
      ([], "0 MET, 0 MISSED."),
    ])
  func legend(verdicts: [String], counts: String) {
    let rows = verdicts.map { TargetRow(shape: "generator", target: "replay ≥ 1", measured: "1", ratio: "1×", verdict: $0) }
    let legend = TargetRow.legend(rows)
    #expect(legend.hasPrefix(counts + " "), "\(legend)")
    #expect(legend.contains("measured against the goal in its target column"))
    #expect(legend.contains("MISSED: a goal not reached yet, not a failed run"))
    #expect(!legend.contains("\n"))
  }
}
