import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerBench
@testable import StoreLedgerGenerate

/// One timed child run of `seconds` wall.
private func measured(_ seconds: Double, peakRSS: Int = 1 << 20) -> Measured {
  Measured(runs: [ChildRun(seconds: seconds, cpuSeconds: seconds, peakRSS: peakRSS, status: 0)])
}

/// A shape's results with figures chosen so every ratio is easy to check by hand.
private func results(shape: String) -> Results {
  var r = Results()
  r.log = LogUnderTest(
    logPath: "/x/\(shape).jsonl", catalogPath: "/x/catalog.json", lines: 1_000_000, events: 990_000,
    duplicates: 10_000, subjects: 1_000, bytes: 200_000_000, seconds: nil, shape: shape)
  // 1,000,000 lines in 0.25 s: 4M events/s; 59.4 MB: 60 B per event, 0.297× the log.
  r.replay = measured(0.25, peakRSS: 59_400_000)
  // Empty tail: 1.0 s ÷ 0.25 s = 4×; with the tail: 0.25 s ÷ 0.1 s = 2.5×.
  r.replayPrefix = measured(1.0)
  r.restorePrefix = measured(0.25)
  r.restoreFull = measured(0.1)
  return r
}

@Suite("The benchmark's headline: issue 40's targets on the production shape of a store-events log")
struct BenchHeadlineTests {
  @Test("by default the bench measures 200,000 subjects of v1.3 store events with transfers, usage at 90,000")
  func defaults() throws {
    let options = try BenchOptions.parse([])
    #expect(options.subjects == 200_000)
    #expect(options.contract == .v1_3)
    #expect(options.transfers)
    #expect(options.usageLevel == .none)
    #expect(options.usageSubjects == 90_000)
    #expect(options.measuresProduction && options.measuresOriginal)
    // The JSONDecoder folds read v1.2 only: a v1.3 run has none.
    #expect(options.baselines.isEmpty)
  }

  @Test(
    "options that change the headline log",
    arguments: [
      (["--contract", "1.2"], 200_000, false, 90_000),
      (["--no-transfers"], 200_000, false, 90_000),
      (["--quick"], 10_000, true, 10_000),
      (["--usage-only"], 90_000, true, 90_000),
      (["--usage-only", "--usage-subjects", "5000"], 5_000, true, 5_000),
      (["--subjects", "300000", "--usage-subjects", "20000"], 300_000, true, 20_000),
    ])
  func options(arguments: [String], subjects: Int, transfers: Bool, usageSubjects: Int) throws {
    let options = try BenchOptions.parse(arguments)
    #expect(options.subjects == subjects)
    #expect(options.transfers == transfers)
    #expect(options.usageSubjects == usageSubjects)
  }

  @Test(
    "timed runs wait 3 s before each by default, none with --quick, as long as --pause says otherwise",
    arguments: [([String](), 3), (["--quick"], 0), (["--pause", "0"], 0), (["--quick", "--pause", "5"], 5)])
  func pause(arguments: [String], seconds: Int) throws {
    #expect(try BenchOptions.parse(arguments).pauseSeconds == seconds)
  }

  @Test("a pause outside 0 to 60 seconds is refused")
  func pauseBounds() {
    #expect(throws: BenchError.self) { try BenchOptions.parse(["--pause", "61"]) }
    #expect(throws: BenchError.self) { try BenchOptions.parse(["--pause", "-1"]) }
  }

  @Test("each of the eight targets gets its verdict from this run's figures and a one-line meaning")
  func targets() throws {
    var bench = Bench(options: try BenchOptions.parse([]))
    bench.shapes = [results(shape: "production"), results(shape: "generator")]
    bench.shapes[1].replay = measured(100)
    let headline = try #require(bench.headline)
    #expect(headline.log.shape == "production")
    let usage = [
      TargetRow(
        shape: "usage", target: "policy vs policy: audit with usage ≥ 0.8× without, same policy catalog (CLI, end to end)",
        measured: "0.85×", ratio: "1.06×", verdict: "MET")
    ]
    let rows = bench.headlineTargets(headline, usage: usage)
    #expect(
      rows.map(\.row.verdict) == [
        "MET", "not measured: the fold reads v1.2 logs only", "not measured: no duckdb", "MET", "MET", "MISSED", "MISSED",
        "MET",
      ])
    #expect(rows.map(\.row.ratio) == ["1.14×", "–", "–", "0.94×", "0.74×", "0.80×", "0.83×", "1.06×"])
    #expect(rows[0].row.measured == "4,000,000 events/s")
    #expect(rows[3].row.measured == "60 B")
    for row in rows {
      #expect(!row.meaning.isEmpty && !row.meaning.contains("\n"), "\(row.row.target)")
    }
    // Without the usage comparison its row says why.
    let alone = bench.headlineTargets(headline, usage: [])
    #expect(alone.last?.row.verdict == "not measured: usage comparison failed")
  }
}
