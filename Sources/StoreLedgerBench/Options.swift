import Foundation
import StoreLedger
import StoreLedgerGenerate

/// Command-line options of `storeledger-bench`.
struct BenchOptions {
  /// Issue 40's headline log: at least 200,000 subjects of store events.
  var subjects = 200_000
  /// Subjects of the usage comparison's logs (issue 25's target is at the default 90,000).
  var usageSubjects = 90_000
  var seed: UInt64 = 1
  var dir: String? = nil
  var queries = 1_000_000
  var keep = false
  var runs = 3
  var baselineRuns = 1
  /// The `ISO8601DateFormatter` fold takes minutes per log, so only the FormatStyle one by default.
  var baselines = [FoundationBaseline.Variant.formatstyle]
  var prefixPercent = 90
  var cli: String? = nil
  var build = true
  /// The DuckDB CLI for the optional comparison: nil looks for `duckdb` on PATH, "" skips it.
  var duckdb: String? = nil
  /// The generated log's usage (the v1-shaped log by default, so figures compare across versions).
  var usageLevel = UsageLevel.none
  /// The generated log's event types: v1.3 by default (issue 40's headline), or v1.2.
  var contract = GeneratedContract.v1_3
  /// Whether the generated logs also move purchases between accounts (v1.3's `transfer`).
  var transfers = true
  /// Whether to measure replay and audit with usage against without, after the rest.
  var compareUsage = true
  /// Whether to measure only that comparison.
  var usageOnly = false
  /// A log to measure instead of a generated one, and its catalog (default: beside it).
  var log: String? = nil
  var catalog: String? = nil
  /// Which shapes to measure; nil: both for a generated log, the given log alone for `--log`.
  var shape: ShapeChoice? = nil
  /// An older `storeledger` to compare replay and snapshot writing with, in the same run.
  var baselineCLI: String? = nil
  /// Whether `--quick` set smaller defaults.
  var quick = false
  /// Seconds to wait before each timed `storeledger` run. On a VM that hands freed memory back to
  /// its hypervisor, a run started right after another reuses memory still backed, which a user's
  /// command after a pause does not (Docs/performance.md, "Fresh memory on a VM that reports
  /// free pages").
  var pauseSeconds = 3

  /// `--shape`: the log as generated (or given), its production-shaped copy, or both.
  enum ShapeChoice: String {
    case generator
    case production
    case both
  }

  /// Whether the log as generated or given is measured.
  var measuresOriginal: Bool { (shape ?? (log == nil ? .both : .generator)) != .production }
  /// Whether the production-shaped copy is measured.
  var measuresProduction: Bool { (shape ?? (log == nil ? .both : .generator)) != .generator }

  static let usage = """
    USAGE: storeledger-bench [--subjects N] [--seed S] [--dir DIR] [--queries Q] [--keep]
                             [--runs R] [--baseline-runs B] [--baseline WHICH] [--prefix-percent P]
                             [--cli PATH] [--no-build] [--duckdb PATH|none] [--baseline-cli PATH]
                             [--log PATH [--catalog PATH]] [--shape generator|production|both]
                             [--quick] [--usage none|typical|heavy] [--contract 1.2|1.3]
                             [--no-transfers] [--usage-subjects N]
                             [--usage-only | --no-usage-comparison] [--pause S]

    Generates a log (or takes --log) and measures, in one run, the storeledger command against
    it: replay end to end, a Foundation JSONDecoder fold of the same file, DuckDB's read_json,
    audit on Q queries (end to end and the answering alone), snapshot writing and restore.
    By default it does so for two shapes of the same events: the headline, a production-shaped
    copy (keys in random order, meta on a fifth of the lines, timestamps with UTC offsets, 2%
    redeliveries) of a store-events log (no usage, contract v1.3 with transfers, 200,000
    subjects) that must fold to the same answers, then the log as generated. Prints, per shape,
    every measurement, then one table of the targets of issues 11 and 25, each MET or MISSED
    with the measured number, and the same as Markdown for Docs/performance.md. Then compares,
    on the same 90,000 subjects and queries, a log without usage (v1 catalog), the same log
    with the usage policy in its catalog, and the log with typical usage, and prints issue 25's
    audit-with-usage target, MET or MISSED. Last, HEADLINE: each of issue 40's targets on the
    headline row, MET or MISSED, with what that means.

    OPTIONS:
      --subjects N        Subjects in the generated log (default 200000: about 2.4M lines, 510 MB
                          with v1.3 and transfers).
      --seed S            Generator and query seed (default 1).
      --dir DIR           Work directory; a log generated there earlier with the same --subjects
                          and --seed is reused, and the log is kept (default: a temporary
                          directory, removed at the end).
      --queries Q         Queries for audit (default 1000000).
      --keep              Keep every file written (queries, answers, prefix, snapshot).
      --runs R            Timed runs of each storeledger command; the best counts (default 3).
      --baseline-runs B   Runs of each JSONDecoder fold (default 1: they are slow).
      --baseline WHICH    JSONDecoder folds to run: formatter (timestamps by ISO8601DateFormatter,
                          minutes on a 1M-event log), formatstyle (by Date.ISO8601FormatStyle,
                          the default), both or none.
      --prefix-percent P  Share of the log's lines the snapshot covers (default 90).
      --cli PATH          The storeledger binary (default: beside this executable, built first).
      --no-build          Do not run 'swift build' for the storeledger binary first.
      --duckdb PATH|none  The DuckDB CLI for an optional read_json comparison (default: 'duckdb'
                          on PATH when there is one; a script wrapper adds its start-up time).
      --usage LEVEL       Usage in the log of steps 1-6: none (default, the v1-shaped log),
                          typical or heavy.
      --contract VERSION  Event types of the generated logs: 1.3 (default: grants, blocks,
                          refund notices, prorated and partial refunds, store, country and
                          proceeds, and transfers unless --no-transfers) or 1.2 (the figures of
                          issue 11). The JSONDecoder folds read v1.2 only: 1.3 runs none of them.
      --no-transfers      With --contract 1.3: no transfer events (1.2 has none anyway).
      --usage-subjects N  Subjects of the usage comparison's logs (default 90000).
      --usage-only        Generate and run only the usage comparison (a short run).
      --no-usage-comparison  Skip the usage comparison.
      --log PATH          Measure this log instead of a generated one (queries are drawn from
                          its own subjects and time span); no usage comparison.
      --catalog PATH      The catalog of --log (default: catalog.json beside it).
      --shape WHICH       generator (the log as generated or given), production (its
                          production-shaped copy) or both (default; with --log: generator).
      --baseline-cli PATH An older storeledger binary: its replay and snapshot writing are
                          measured on the same files, and the targets are ratios against them
                          (default: issue 11's stated 4.4 s and 600 MB for snapshot writing).
      --quick             A short run for development: --subjects 10000 --queries 100000
                          --runs 2 --no-usage-comparison --pause 0 (later options still apply).
      --pause S           Seconds to wait before each timed storeledger run (default 3), so a
                          run does not reuse the memory of the one before while a VM still backs
                          it; 0 runs them back to back.
    """

  static func parse(_ arguments: [String]) throws -> BenchOptions {
    var options = BenchOptions()
    if arguments.contains("--quick") {
      options.quick = true
      options.subjects = 10_000
      options.usageSubjects = 10_000
      options.queries = 100_000
      options.runs = 2
      options.compareUsage = false
      options.pauseSeconds = 0
    }
    var index = 0
    func value(_ name: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw BenchError("missing value for \(name)") }
      return arguments[index]
    }
    func integer(_ name: String, _ range: ClosedRange<Int>) throws -> Int {
      let text = try value(name)
      guard let number = Int(text.replacingOccurrences(of: "_", with: "")), range.contains(number) else {
        throw BenchError("invalid value for \(name): '\(text)' (expected \(range.lowerBound)…\(range.upperBound))")
      }
      return number
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--subjects": options.subjects = try integer(argument, 1...10_000_000)
      case "--seed":
        let text = try value(argument)
        guard let seed = UInt64(text) else { throw BenchError("invalid value for --seed: '\(text)'") }
        options.seed = seed
      case "--dir": options.dir = try value(argument)
      case "--queries": options.queries = try integer(argument, 1...100_000_000)
      case "--keep": options.keep = true
      case "--runs": options.runs = try integer(argument, 1...100)
      case "--baseline-runs": options.baselineRuns = try integer(argument, 1...100)
      case "--baseline": options.baselines = try baselines(try value(argument))
      case "--no-baseline": options.baselines = []
      case "--prefix-percent": options.prefixPercent = try integer(argument, 1...99)
      case "--cli": options.cli = try value(argument)
      case "--no-build": options.build = false
      case "--usage":
        let text = try value(argument)
        options.usageLevel = try UsageLevel(rawValue: text) ?? invalid("--usage", text, "none, typical or heavy")
      case "--contract":
        let text = try value(argument)
        options.contract = try GeneratedContract(rawValue: text) ?? invalid("--contract", text, "1.2 or 1.3")
      case "--no-transfers": options.transfers = false
      case "--usage-subjects": options.usageSubjects = try integer(argument, 1...10_000_000)
      case "--usage-only": options.usageOnly = true
      case "--no-usage-comparison": options.compareUsage = false
      case "--quick": break
      case "--pause": options.pauseSeconds = try integer(argument, 0...60)
      case "--log": options.log = try value(argument)
      case "--catalog": options.catalog = try value(argument)
      case "--baseline-cli": options.baselineCLI = try value(argument)
      case "--shape":
        let text = try value(argument)
        options.shape = try ShapeChoice(rawValue: text) ?? invalid("--shape", text, "generator, production or both")
      case "--duckdb":
        let text = try value(argument)
        options.duckdb = text == "none" ? "" : text
      default: throw BenchError("unknown argument '\(argument)'")
      }
      index += 1
    }
    try settle(&options, arguments: arguments)
    return options
  }

  /// Checks the options against each other and settles what they imply.
  private static func settle(_ options: inout BenchOptions, arguments: [String]) throws {
    if options.catalog != nil && options.log == nil { throw BenchError("--catalog needs --log") }
    if options.log != nil && options.usageOnly { throw BenchError("--usage-only needs a generated log, not --log") }
    if options.log != nil { options.compareUsage = false }
    // Only the comparison runs: its logs are the only ones generated.
    if options.usageOnly { options.subjects = options.usageSubjects }
    // Transfers are a v1.3 event: a v1.2 log has none.
    if options.contract != .v1_3 { options.transfers = false }
    // The JSONDecoder folds know the v1.2 types only (Baseline.swift): a v1.3 log skips them.
    if options.contract == .v1_3 {
      if arguments.contains("--baseline"), !options.baselines.isEmpty {
        throw BenchError("--baseline folds v1.2 logs only: add --contract 1.2, or use --baseline none")
      }
      options.baselines = []
    }
  }

  /// `--baseline`'s value: the JSONDecoder folds to run.
  private static func baselines(_ text: String) throws -> [FoundationBaseline.Variant] {
    switch text {
    case "both": return FoundationBaseline.Variant.allCases
    case "none": return []
    default: return [try FoundationBaseline.Variant(rawValue: text) ?? invalid("--baseline", text, "formatter, formatstyle, both or none")]
    }
  }

  /// Throws the error for an invalid `value` of `option`, naming what `expected` lists.
  private static func invalid<Value>(_ option: String, _ value: String, _ expected: String) throws -> Value {
    throw BenchError("invalid value for \(option): '\(value)' (\(expected))")
  }
}
