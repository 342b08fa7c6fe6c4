#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import StoreLedger

/// Writes to stdout unbuffered, so progress shows through pipes.
func say(_ text: String = "") {
  var line = text + "\n"
  line.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let n = write(1, bytes.baseAddress! + offset, bytes.count - offset)
      if n <= 0 { return }
      offset += n
    }
  }
}

/// The summary `storeledger replay` prints, without its timing line.
struct ReplaySummary: Equatable {
  var eventsRead = -1
  var lines: [String] = []

  init(file: String) {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return }
    for line in text.split(separator: "\n") where !line.hasPrefix("elapsed:") {
      lines.append(String(line))
      if line.hasPrefix("events read: ") { eventsRead = Int(line.dropFirst("events read: ".count)) ?? -1 }
    }
  }
}

/// The measurements of one benchmark run.
struct Results {
  var log: GeneratedLog! = nil
  var replay: Measured! = nil
  /// `report LOG --every month` over the generated 24 months.
  var report: Measured! = nil
  var replayCPU = 0.0
  var baselines: [(variant: FoundationBaseline.Variant, measured: Measured, agrees: Bool)] = []
  var inProcessLoad = 0.0
  var queries = 0
  var queryMix = QueryFile.Mix()
  var queryFileBytes = 0
  var audit: Measured! = nil
  var auditBytes = 0
  var auditLines = 0
  var queryParse = 0.0
  var answerSeconds: [Double] = []
  var answerBytes = 0
  var prefixLines = 0
  var prefixBytes = 0
  var snapshotWrite: ChildRun! = nil
  var snapshotBytes = 0
  var restoreFull: Measured! = nil
  var replayPrefix: Measured! = nil
  var restorePrefix: Measured! = nil
  var restoreFullAgrees = false
  var restorePrefixAgrees = false
  /// This process's peak RSS when it last spawned a child: every child's `ru_maxrss` is at least this.
  var spawnerPeakRSS = 0
  /// What the folded ledger holds (events and interned strings).
  var ledgerFootprint = ""
  var duckdb: [(title: String, measured: Measured)] = []
  var duckdbNote = ""
}

/// The whole benchmark: generate, then measure the storeledger binary against the log.
struct Bench {
  let options: BenchOptions
  let probe = LoadProbe()
  var machine = Machine()
  var cli = ""
  var dir = ""
  var selfPath = ""
  var temporary = false
  var results = Results()
  var started = Date()

  init(options: BenchOptions) { self.options = options }

  mutating func run() throws {
    started = Date()
    selfPath = Bench.executablePath()
    say("StoreLedger benchmark: storeledger-bench" + CommandLine.arguments.dropFirst().map { " " + $0 }.joined())
    dir = try workDirectory()
    defer { cleanUp() }
    cli = try locateCLI()
    machine = Machine.describe(workDir: dir)
    say("machine: \(machine.cpuModel), \(machine.logicalCPUs) logical CPUs, \(Format.fixed(machine.memoryGiB, 1)) GiB, \(machine.kernel)")
    say("toolchain: \(machine.swiftVersion)")
    say("load average at start: \(probe.loadAverageAtStart)")
    say("storeledger: \(cli)")
    say("work directory: \(dir)")
    say()
    try generate()
    if options.usageOnly {
      try usageComparison()
      return
    }
    try replay()
    try baseline()
    try duckDB()
    try audit()
    try snapshots()
    results.spawnerPeakRSS = ownPeakRSS()
    try inProcess()
    summarize()
    if options.compareUsage { try usageComparison() }
  }

  // MARK: - Set-up

  static func executablePath() -> String {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
    return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath().path
  }

  mutating func workDirectory() throws -> String {
    if let dir = options.dir {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      return URL(fileURLWithPath: dir).standardizedFileURL.path
    }
    var template = Array((NSTemporaryDirectory() + "/storeledger-bench-XXXXXX").utf8CString)
    guard mkdtemp(&template) != nil else { throw BenchError("cannot create a temporary directory") }
    temporary = true
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// The `storeledger` binary beside this executable, brought up to date with `swift build`
  /// (`swift run storeledger-bench` builds only the bench, so the CLI could be stale).
  func locateCLI() throws -> String {
    if let cli = options.cli { return cli }
    let binDir = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
    let cli = binDir.appendingPathComponent("storeledger").path
    let configuration = binDir.lastPathComponent
    let scratch = binDir.deletingLastPathComponent().deletingLastPathComponent()
    let root = scratch.deletingLastPathComponent()
    if configuration == "debug" {
      say("warning: this is a debug build; run 'swift run -c release storeledger-bench' for meaningful figures")
    }
    if options.build, configuration == "release" || configuration == "debug",
      FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
      let logPath = dir + "/build.log"
      say("building storeledger: swift build -c \(configuration) --product storeledger …")
      let (run, _) = try timed {
        try Spawner.run(
          "swift",
          [
            "build", "-c", configuration, "--product", "storeledger", "--package-path", root.path,
            "--scratch-path", scratch.path,
          ], stdout: logPath, stderr: logPath, searchPath: true)
      }
      let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
      try? FileManager.default.removeItem(atPath: logPath)
      guard run.status == 0 else {
        throw BenchError("swift build failed (exit \(run.status)):\n\(output.suffix(4000))")
      }
    }
    guard FileManager.default.isExecutableFile(atPath: cli) else {
      throw BenchError("no storeledger binary at \(cli): build it with 'swift build -c release', or pass --cli PATH")
    }
    return cli
  }

  /// Runs the CLI once; fails unless it exits 0.
  func storeledger(_ arguments: [String], stdout: String) throws -> ChildRun {
    let errors = dir + "/stderr.txt"
    let run = try Spawner.run(cli, arguments, stdout: stdout, stderr: errors)
    guard run.status == 0 else {
      let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      throw BenchError(
        "storeledger \(arguments.joined(separator: " ")) exited \(run.status):\n\(text.prefix(4000))")
    }
    return run
  }

  func describe(_ run: ChildRun, bytesRead: Int? = nil) -> String {
    var text = "\(Format.seconds(run.seconds)) wall, \(Format.seconds(run.cpuSeconds)) CPU"
    text += " (\(Format.fixed(run.cpuSeconds / run.seconds, 2)) cores)"
    text += ", peak RSS \(Format.mb(run.peakRSS))"
    if let bytesRead { text += " (\(Format.fixed(Double(run.peakRSS) / Double(bytesRead), 2))× the input)" }
    return text
  }

  // MARK: - 1. The log

  mutating func generate() throws {
    let log = try GeneratedLog.prepare(in: dir, subjects: options.subjects, seed: options.seed, usage: options.usageLevel)
    results.log = log
    let how =
      log.seconds.map {
        "generated in \(Format.seconds($0)) (\(Format.fixed(Double(log.bytes) / 1e6 / $0, 0)) MB/s)"
      } ?? "reused (same --subjects and --seed)"
    say("[1/6] log \(log.logPath) (usage: \(options.usageLevel.rawValue)): \(how)")
    say(
      "      \(Format.grouped(log.lines)) lines = \(Format.grouped(log.events)) events + "
        + "\(Format.grouped(log.duplicates)) redelivered duplicates; \(Format.grouped(log.subjects)) subjects; "
        + "\(Format.grouped(log.bytes)) bytes (\(Format.mb(log.bytes)), \(log.bytes / max(1, log.lines)) bytes/line)")
  }

  // MARK: - 2. replay

  var replayOutput: String { dir + "/replay.out" }

  mutating func replay() throws {
    let log = results.log!
    say("[2/6] storeledger replay LOG, best of \(options.runs)")
    var runs: [ChildRun] = []
    for index in 1...options.runs {
      let run = try storeledger(["replay", log.logPath], stdout: replayOutput)
      let summary = ReplaySummary(file: replayOutput)
      guard summary.eventsRead == log.lines else {
        throw BenchError("replay read \(summary.eventsRead) events, the log has \(log.lines) lines")
      }
      say("      run \(index): \(describe(run, bytesRead: log.bytes)); \(Format.rate(log.lines, run.seconds)) events/s")
      runs.append(run)
    }
    results.replay = Measured(runs: runs)
    // The monthly report over the generator's default 24 months, against replay's time (issue 10).
    var reports: [ChildRun] = []
    for index in 1...options.runs {
      let run = try storeledger(
        ["report", log.logPath, "--from", "2024-01-01", "--to", "2026-01-01", "--every", "month"],
        stdout: dir + "/report.out")
      say("      report run \(index): \(describe(run, bytesRead: log.bytes))")
      reports.append(run)
    }
    results.report = Measured(runs: reports)
  }

  // MARK: - 3. The JSONDecoder baseline

  mutating func baseline() throws {
    guard !options.baselines.isEmpty else {
      say("[3/6] Foundation JSONDecoder folds: skipped (--baseline none)")
      return
    }
    let log = results.log!
    for variant in options.baselines {
      say("[3/6] \(variant.title) (child process), \(options.baselineRuns) run(s)")
      let output = dir + "/baseline.out"
      var runs: [ChildRun] = []
      for index in 1...options.baselineRuns {
        let errors = dir + "/stderr.txt"
        let run = try Spawner.run(
          selfPath, ["--child", "baseline", variant.rawValue, log.logPath, log.catalogPath], stdout: output,
          stderr: errors)
        guard run.status == 0 else {
          let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
          throw BenchError("the baseline exited \(run.status):\n\(text.prefix(4000))")
        }
        say("      run \(index): \(describe(run, bytesRead: log.bytes)); \(Format.rate(log.lines, run.seconds)) events/s")
        runs.append(run)
      }
      let agrees = ReplaySummary(file: output) == ReplaySummary(file: replayOutput)
      results.baselines.append((variant, Measured(runs: runs), agrees))
      say("      same events, duplicates, subjects and active entitlements as replay: \(agrees ? "yes" : "NO")")
    }
  }

  // MARK: - 3b. DuckDB, when installed

  /// `duckdb` on PATH, or the one named by --duckdb.
  func duckDBPath() -> String? {
    if let path = options.duckdb { return path.isEmpty ? nil : path }
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let path = String(dir) + "/duckdb"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  mutating func duckDB() throws {
    guard let duckdb = duckDBPath() else {
      say("[3/6] DuckDB: skipped (\(options.duckdb == "" ? "--duckdb none" : "no duckdb on PATH; --duckdb PATH to compare"))")
      return
    }
    let log = results.log!
    let quoted = "'" + log.logPath.replacingOccurrences(of: "'", with: "''") + "'"
    let source = "read_json(\(quoted), format='newline_delimited')"
    let isScript = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: duckdb)).readData(ofLength: 2)) == Data("#!".utf8)
    say("[3/6] DuckDB (\(duckdb)\(isScript ? ", a script wrapper: its start-up time is included" : "")), best of \(options.runs)")
    let output = dir + "/duckdb.out"
    let queries = [
      ("DuckDB read_json count(*)", "SELECT count(*) FROM \(source)"),
      ("DuckDB read_json into a table (every column)", "CREATE TABLE t AS SELECT * FROM \(source); SELECT count(*) FROM t"),
    ]
    for (title, sql) in queries {
      var runs: [ChildRun] = []
      for index in 1...options.runs {
        let run = try Spawner.run(duckdb, ["-csv", "-noheader", "-c", sql], stdout: output, stderr: dir + "/stderr.txt")
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let count = Int(text.split(separator: "\n").last.map(String.init) ?? "")
        guard run.status == 0, count == log.lines else {
          let errors = (try? String(contentsOfFile: dir + "/stderr.txt", encoding: .utf8)) ?? ""
          say("      \(title): failed (exit \(run.status), output \(text.prefix(200)) \(errors.prefix(400))); skipped")
          runs = []
          break
        }
        say("      \(title) run \(index): \(describe(run, bytesRead: log.bytes)); \(Format.rate(log.lines, run.seconds)) lines/s")
        runs.append(run)
      }
      if !runs.isEmpty { results.duckdb.append((title, Measured(runs: runs))) }
    }
    results.duckdbNote = isScript ? " (via a script wrapper)" : ""
    try? FileManager.default.removeItem(atPath: output)
  }

  // MARK: - 4. audit

  var queriesPath: String { dir + "/queries.jsonl" }

  mutating func audit() throws {
    let log = results.log!
    let answersPath = dir + "/answers.jsonl"
    say("[4/6] storeledger audit LOG --queries Q on \(Format.grouped(options.queries)) queries, best of \(options.runs)")
    let subjects = try log.subjectNames()
    let latestLine = ReplaySummary(file: replayOutput).lines.first { $0.hasPrefix("latest effective time: ") }
    let latest = latestLine.flatMap { Timestamp.parseRFC3339(String($0.dropFirst("latest effective time: ".count))) }
    let written = try QueryFile.write(
      count: options.queries, seed: options.seed, subjects: subjects, from: GeneratorOptions.defaultStart,
      to: latest ?? GeneratorOptions.defaultStart, path: queriesPath)
    results.queries = options.queries
    results.queryMix = written.mix
    results.queryFileBytes = written.bytes
    say(
      "      query file: \(Format.mb(written.bytes)); \(Format.grouped(written.mix.known)) queries for the log's "
        + "\(Format.grouped(subjects.count)) subjects, \(Format.grouped(written.mix.unknown)) for unknown ones; \(Format.grouped(written.mix.withAsOf)) with as_of; "
        + "at and as_of uniform in \(GeneratorOptions.defaultStart.rfc3339)…\((latest ?? GeneratorOptions.defaultStart).rfc3339)")
    var runs: [ChildRun] = []
    for index in 1...options.runs {
      let run = try storeledger(["audit", log.logPath, "--queries", queriesPath], stdout: answersPath)
      let bytes = fileSize(answersPath) ?? 0
      if index == 1 {
        results.auditLines = try countLines(ofFile: answersPath)
        results.auditBytes = bytes
        guard results.auditLines == options.queries else {
          throw BenchError("audit wrote \(results.auditLines) answers for \(options.queries) queries")
        }
      } else if bytes != results.auditBytes {
        throw BenchError("audit wrote \(bytes) bytes, \(results.auditBytes) the first time")
      }
      say("      run \(index): \(describe(run)); \(Format.rate(options.queries, run.seconds)) queries/s end to end")
      runs.append(run)
    }
    results.audit = Measured(runs: runs)
    say("      answers: \(Format.grouped(results.auditLines)) lines, \(Format.mb(results.auditBytes))")
    if !options.keep { try? FileManager.default.removeItem(atPath: answersPath) }
  }

  // MARK: - 6. In-process: load once, then the answering alone

  /// Runs last: a process's peak RSS is carried over to the children it spawns, so the bench
  /// holds no ledger while children are measured.
  mutating func inProcess() throws {
    let log = results.log!
    say("[6/6] in this process: LedgerLoader.load once, then QueryBatch.parse and QueryEngine.writeAnswers alone")
    let catalog = try LedgerLoader.loadCatalog(path: log.catalogPath)
    let (loaded, loadSeconds) = try timed { try LedgerLoader.load(logPath: log.logPath, catalog: catalog) }
    let ledger = loaded.ledger
    results.inProcessLoad = loadSeconds
    say("      LedgerLoader.load: \(Format.seconds(loadSeconds)), \(Format.rate(log.lines, loadSeconds)) events/s")
    let symbols = ledger.symbols
    let stride = MemoryLayout<Event>.stride
    results.ledgerFootprint =
      "\(Format.grouped(ledger.events.count)) events × \(stride) B = \(Format.mb(ledger.events.count * stride)); "
      + "interned strings: ids \(Format.grouped(symbols.ids.count)) (\(Format.mb(symbols.ids.arenaBytes))), "
      + "transactions \(Format.grouped(symbols.transactions.count)) (\(Format.mb(symbols.transactions.arenaBytes))), "
      + "subjects \(Format.grouped(symbols.subjects.count)) (\(Format.mb(symbols.subjects.arenaBytes)))"
    say("      ledger: \(results.ledgerFootprint)")
    let input = try LedgerLoader.readFile(queriesPath)
    let (batch, parseSeconds) = try timed { try QueryBatch.parse(input, file: queriesPath) }
    results.queryParse = parseSeconds
    say("      QueryBatch.parse: \(Format.seconds(parseSeconds)), \(Format.rate(batch.count, parseSeconds)) queries/s")
    for index in 1...options.runs {
      var engine = QueryEngine(ledger: ledger)
      var total = 0
      // The same batch path `storeledger audit` uses; answers are counted, not written.
      let (_, seconds) = timed {
        engine.writeAnswers(batch) { total += $0.count }
      }
      results.answerSeconds.append(seconds)
      results.answerBytes = total
      say(
        "      answering run \(index): \(Format.seconds(seconds)), \(Format.rate(batch.count, seconds)) queries/s "
          + "(\(Format.mb(total)) of answers)")
    }
    say("      same answer bytes as storeledger audit: \(results.answerBytes == results.auditBytes ? "yes" : "NO")")
    if !options.keep { try? FileManager.default.removeItem(atPath: queriesPath) }
  }

  // MARK: - 5. Snapshots

  mutating func snapshots() throws {
    let log = results.log!
    let prefixPath = dir + "/prefix.jsonl"
    let snapshotPath = dir + "/prefix.snapshot.json"
    let output = dir + "/restore.out"
    let prefixOutput = dir + "/prefix.out"
    results.prefixLines = log.lines * options.prefixPercent / 100
    results.prefixBytes = try log.writePrefix(lines: results.prefixLines, to: prefixPath)
    say(
      "[5/6] snapshot of the first \(options.prefixPercent)% (\(Format.grouped(results.prefixLines)) lines, "
        + "\(Format.mb(results.prefixBytes))) as PREFIX")
    let write = try storeledger(["snapshot", prefixPath, "--out", snapshotPath], stdout: dir + "/snapshot.out")
    results.snapshotWrite = write
    results.snapshotBytes = fileSize(snapshotPath) ?? 0
    say("      storeledger snapshot PREFIX --out S: \(describe(write)); S is \(Format.mb(results.snapshotBytes))")
    var full: [ChildRun] = []
    var prefix: [ChildRun] = []
    var restored: [ChildRun] = []
    results.restoreFullAgrees = true
    results.restorePrefixAgrees = true
    let fullSummary = ReplaySummary(file: replayOutput)
    for index in 1...options.runs {
      let a = try storeledger(["replay", log.logPath, "--snapshot", snapshotPath], stdout: output)
      results.restoreFullAgrees = results.restoreFullAgrees && ReplaySummary(file: output) == fullSummary
      let b = try storeledger(["replay", prefixPath], stdout: prefixOutput)
      let c = try storeledger(["replay", prefixPath, "--snapshot", snapshotPath], stdout: output)
      results.restorePrefixAgrees =
        results.restorePrefixAgrees && ReplaySummary(file: output) == ReplaySummary(file: prefixOutput)
      say("      round \(index): replay LOG --snapshot S \(describe(a))")
      say("               replay PREFIX \(describe(b))")
      say("               replay PREFIX --snapshot S \(describe(c))")
      full.append(a)
      prefix.append(b)
      restored.append(c)
    }
    results.restoreFull = Measured(runs: full)
    results.replayPrefix = Measured(runs: prefix)
    results.restorePrefix = Measured(runs: restored)
    say("      restored summaries equal the full replays': \(results.restoreFullAgrees && results.restorePrefixAgrees ? "yes" : "NO")")
    if !options.keep {
      for path in [prefixPath, snapshotPath, output, prefixOutput, dir + "/snapshot.out"] {
        try? FileManager.default.removeItem(atPath: path)
      }
    }
  }

  // MARK: - Summary

  func summarize() {
    let r = results
    /// Peak RSS, or an upper bound when it does not exceed what the bench passed on.
    func rss(_ bytes: Int) -> String {
      bytes <= r.spawnerPeakRSS + (1 << 20) ? "≤ " + Format.mb(bytes) : Format.mb(bytes)
    }
    let log = r.log!
    let replay = r.replay.best
    let replayRate = Double(log.lines) / replay.seconds
    var table = Table("measurement", "time", "throughput", "peak RSS", "ratio")
    table.add(
      "replay LOG (CLI, end to end)", Format.seconds(replay.seconds),
      "\(Format.rate(log.lines, replay.seconds)) events/s, \(Format.fixed(Double(log.bytes) / 1e6 / replay.seconds, 0)) MB/s",
      rss(r.replay.peakRSS),
      "RSS \(Format.fixed(Double(r.replay.peakRSS) / Double(log.bytes), 2))× log size; \(Format.fixed(replay.cpuSeconds / replay.seconds, 2)) cores busy")
    let report = r.report.best
    table.add(
      "report LOG --every month (24 buckets)", Format.seconds(report.seconds),
      "\(Format.rate(log.lines, report.seconds)) events/s", rss(r.report.peakRSS),
      "\(Format.times(report.seconds / replay.seconds)) replay's time (report/replay)")
    var ratios: [(FoundationBaseline.Variant, Double)] = []
    for baseline in r.baselines {
      let best = baseline.measured.best
      let ratio = best.seconds / replay.seconds
      ratios.append((baseline.variant, ratio))
      table.add(
        baseline.variant.title + " (child)", Format.seconds(best.seconds),
        "\(Format.rate(log.lines, best.seconds)) events/s, \(Format.fixed(Double(log.bytes) / 1e6 / best.seconds, 1)) MB/s",
        rss(baseline.measured.peakRSS),
        "replay is \(Format.times(ratio)) faster (fast/baseline)" + (baseline.agrees ? "" : "; results DIFFER"))
    }
    for (title, measured) in r.duckdb {
      let best = measured.best
      table.add(
        title + r.duckdbNote, Format.seconds(best.seconds),
        "\(Format.rate(log.lines, best.seconds)) lines/s, \(Format.fixed(Double(log.bytes) / 1e6 / best.seconds, 0)) MB/s",
        rss(measured.peakRSS), Format.compare(replay.seconds, to: best.seconds).replacingOccurrences(of: " than", with: "") + " (replay vs DuckDB)")
    }
    table.add(
      "LedgerLoader.load (in-process)", Format.seconds(r.inProcessLoad),
      "\(Format.rate(log.lines, r.inProcessLoad)) events/s", "–",
      "\(Format.times(r.inProcessLoad / replay.seconds)) replay's time")
    let audit = r.audit.best
    let marginal = audit.seconds - replay.seconds
    table.add(
      "audit LOG --queries Q (CLI, end to end)", Format.seconds(audit.seconds),
      "\(Format.rate(r.queries, audit.seconds)) queries/s", rss(r.audit.peakRSS),
      marginal > 0
        ? "\(Format.rate(r.queries, marginal)) queries/s beyond replay's time" : "–")
    table.add(
      "QueryBatch.parse (in-process)", Format.seconds(r.queryParse),
      "\(Format.rate(r.queries, r.queryParse)) queries/s", "–", "\(Format.mb(r.queryFileBytes)) of queries")
    let answer = r.answerSeconds.min() ?? 0
    let answerRate = Double(r.queries) / answer
    table.add(
      "QueryEngine.writeAnswers × Q (in-process)", Format.seconds(answer),
      "\(Format.rate(r.queries, answer)) queries/s", "–", "\(Format.mb(r.answerBytes)) of answers")
    table.add(
      "snapshot PREFIX --out S (CLI, once)", Format.seconds(r.snapshotWrite.seconds), "–",
      rss(r.snapshotWrite.peakRSS),
      "S is \(Format.mb(r.snapshotBytes)), \(Format.fixed(Double(r.snapshotBytes) / Double(r.prefixBytes), 2))× PREFIX")
    let restoreFull = r.restoreFull.best
    table.add(
      "replay LOG --snapshot S (restore + \(100 - options.prefixPercent)% tail)", Format.seconds(restoreFull.seconds),
      "\(Format.rate(log.lines, restoreFull.seconds)) events/s effective", rss(r.restoreFull.peakRSS),
      Format.compare(restoreFull.seconds, to: replay.seconds) + " replay LOG")
    let prefix = r.replayPrefix.best
    table.add(
      "replay PREFIX", Format.seconds(prefix.seconds), "\(Format.rate(r.prefixLines, prefix.seconds)) events/s",
      rss(r.replayPrefix.peakRSS), "–")
    let restorePrefix = r.restorePrefix.best
    table.add(
      "replay PREFIX --snapshot S (restore, empty tail)", Format.seconds(restorePrefix.seconds),
      "\(Format.rate(r.prefixLines, restorePrefix.seconds)) events/s effective", rss(r.restorePrefix.peakRSS),
      Format.compare(restorePrefix.seconds, to: prefix.seconds) + " replay PREFIX")

    // Each target with the measured figure as a ratio of it: ≥ 1× meets it, and the ratio says by how much.
    var targets = Table("target", "measured", "measured ÷ target")
    func ratio(_ value: Double) -> String { Format.times(value) + (value >= 1 ? " (met)" : " (short of it)") }
    targets.add(
      "replay ≥ 3,500,000 events/s", "\(Format.rate(log.lines, replay.seconds)) events/s", ratio(replayRate / 3_500_000))
    for (variant, speedup) in ratios {
      targets.add("replay ≥ 40× the \(variant.title)", Format.times(speedup), ratio(speedup / 40))
    }
    if let scan = r.duckdb.first(where: { $0.title.hasSuffix("count(*)") }) {
      let speed = scan.measured.best.seconds / replay.seconds
      targets.add("replay faster than DuckDB's read_json scan", "\(Format.times(speed)) DuckDB's speed", ratio(speed))
    }
    targets.add(
      "replay peak RSS < log size", "\(rss(r.replay.peakRSS)) vs \(Format.mb(log.bytes))",
      r.replay.peakRSS <= r.spawnerPeakRSS + (1 << 20) && r.replay.peakRSS >= log.bytes
        ? "cannot tell: the figure is the bench's own floor (use a larger log)"
        : ratio(Double(log.bytes) / Double(r.replay.peakRSS)))
    targets.add(
      "audit ≥ 1,000,000 answered queries/s once folded", "\(Format.rate(r.queries, answer)) queries/s (in-process)",
      ratio(answerRate / 1_000_000))

    let other = probe.otherCoresBusy()
    let elapsed = Date().timeIntervalSince(started)
    let load =
      "load average \(probe.loadAverageAtStart) at start, \(LoadProbe.loadAverage()) at end; "
      + "other processes kept \(Format.fixed(other, 2)) of \(machine.logicalCPUs) cores busy on average "
      + "during the \(Format.fixed(elapsed, 0)) s run"
    let logLine =
      "\(Format.grouped(log.lines)) lines (\(Format.grouped(log.events)) events + \(Format.grouped(log.duplicates)) "
      + "duplicates), \(Format.grouped(log.subjects)) subjects, \(Format.grouped(log.bytes)) bytes "
      + "(\(Format.mb(log.bytes))); --subjects \(options.subjects) --seed \(options.seed); "
      + "\(Format.grouped(r.queries)) queries; best of \(options.runs) runs, warm page cache; "
      + "peak RSS is each child's ru_maxrss from wait4 (exact above the \(Format.mb(r.spawnerPeakRSS)) the bench passes on, "
      + "≤ marks an upper bound)"
    let checks =
      "replay summary = JSONDecoder folds': \(r.baselines.isEmpty ? "not run" : r.baselines.allSatisfy(\.agrees) ? "yes" : "NO"); "
      + "audit wrote \(Format.grouped(r.auditLines)) answers, same bytes as in-process: \(r.answerBytes == r.auditBytes ? "yes" : "NO"); "
      + "restored = replayed: \(r.restoreFullAgrees && r.restorePrefixAgrees ? "yes" : "NO")"

    say()
    say("SUMMARY")
    say("machine: \(machine.cpuModel), \(machine.logicalCPUs) logical CPUs, \(Format.fixed(machine.memoryGiB, 1)) GiB, \(machine.kernel); \(machine.swiftVersion)")
    say("load: \(load)")
    say("log: \(logLine)")
    say("checks: \(checks)")
    say("ledger: \(r.ledgerFootprint)")
    say()
    say(table.text)
    say(targets.text)

    let date = ISO8601DateFormatter().string(from: started)
    say("### Results: \(date)")
    say()
    let arguments = CommandLine.arguments.dropFirst().map { " " + $0 }.joined()
    say("- Command: `swift run -c release storeledger-bench\(arguments)`")
    say("- Machine: \(machine.cpuModel), \(machine.logicalCPUs) logical CPUs, \(Format.fixed(machine.memoryGiB, 1)) GiB RAM, \(machine.kernel)")
    say("- Toolchain: \(machine.swiftVersion)")
    say("- Load: \(load)")
    say("- Log: \(logLine)")
    say("- Checks: \(checks)")
    say("- Ledger: \(r.ledgerFootprint)")
    say()
    say(table.markdown)
    say(targets.markdown)
  }

  func cleanUp() {
    guard !options.keep else { return }
    if temporary {
      try? FileManager.default.removeItem(atPath: dir)
    } else {
      for name in ["replay.out", "baseline.out", "stderr.txt"] {
        try? FileManager.default.removeItem(atPath: dir + "/" + name)
      }
    }
  }
}
