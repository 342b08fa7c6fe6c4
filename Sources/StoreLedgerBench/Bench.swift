#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import StoreLedger
import StoreLedgerGenerate

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
    }
    eventsRead = number("events read: ") ?? -1
  }

  /// The integer after `prefix` on the line that starts with it.
  func number(_ prefix: String) -> Int? {
    lines.first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
  }

  /// The instant after `prefix` on the line that starts with it.
  func instant(_ prefix: String) -> Timestamp? {
    lines.first { $0.hasPrefix(prefix) }.flatMap { Timestamp.parseRFC3339(String($0.dropFirst(prefix.count))) }
  }

  /// The lines other than the counts of lines read and duplicates skipped.
  var answers: [String] {
    lines.filter { !$0.hasPrefix("events read: ") && !$0.hasPrefix("duplicates skipped: ") }
  }
}

/// The measurements of one benchmark run.
struct Results {
  var log: LogUnderTest! = nil
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
  var reportSpan = ""
  /// Set when the production shape's replay agreed with the original's.
  var productionAgrees = false
  /// What the folded ledger holds (events and interned strings).
  var ledgerFootprint = ""
  var duckdb: [(title: String, measured: Measured)] = []
  var duckdbNote = ""
  /// Why DuckDB was not measured, when it was not.
  var duckdbSkipped = ""
  /// The log's subjects (first appearance) and earliest `at`: the queries are drawn from them.
  var subjects: [[UInt8]] = []
  var firstAt = GeneratorOptions.defaultStart
  var latest = GeneratorOptions.defaultStart
  /// `--baseline-cli`: its replay of the same log and its snapshot of the same prefix.
  var oldReplay: Measured? = nil
  var oldReplayAgrees = false
  var oldSnapshot: ChildRun? = nil
  /// For the production shape: what the rewriting did, and whether the replay summaries agree.
  var production: ProductionShape.Stats? = nil
  var productionSeconds = 0.0
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
  /// The results of each shape measured, in order.
  var shapes: [Results] = []
  /// The log as generated or given, and its replay summary once known.
  var primary: LogUnderTest! = nil
  var primarySummary: ReplaySummary? = nil
  var started = Date()
  /// Issue 25's rows of the usage comparison, once it ran (the headline names one of them).
  var usageRows: [TargetRow] = []

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
    if let old = options.baselineCLI { say("baseline storeledger: \(old)") }
    say("work directory: \(dir)")
    say()
    try generate()
    if options.usageOnly {
      try usageComparison()
      return
    }
    // The production shape first: it is the headline (issue 40).
    var logs: [LogUnderTest] = []
    var production: (log: LogUnderTest, stats: ProductionShape.Stats, seconds: Double)? = nil
    if options.measuresProduction {
      production = try writeProduction()
      logs.append(production!.log)
    }
    if options.measuresOriginal { logs.append(primary) }
    for log in logs {
      results = Results()
      results.log = log
      if log.shape == "production", let production {
        results.production = production.stats
        results.productionSeconds = production.seconds
      }
      say()
      say("== shape: \(log.shape) (\(log.logPath))")
      try replay()
      try baseline()
      try duckDB()
      try audit()
      try snapshots()
      shapes.append(results)
    }
    // In-process loads last: this process's peak RSS is the floor of every child's afterwards.
    let floor = ownPeakRSS()
    for index in shapes.indices {
      results = shapes[index]
      results.spawnerPeakRSS = floor
      say()
      say("== shape: \(results.log.shape), in process")
      try inProcess()
      shapes[index] = results
    }
    summarize()
    if options.compareUsage {
      results = Results()
      results.log = primary
      try usageComparison()
    }
    summarizeHeadline(usage: usageRows)
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

  /// Runs the CLI (or `cli`, another binary) once; fails unless it exits 0.
  func storeledger(_ arguments: [String], stdout: String, cli: String? = nil) throws -> ChildRun {
    let errors = dir + "/stderr.txt"
    if options.pauseSeconds > 0 { sleep(UInt32(options.pauseSeconds)) }
    let run = try Spawner.run(cli ?? self.cli, arguments, stdout: stdout, stderr: errors)
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
    if let path = options.log {
      let log = try LogUnderTest.given(path: path, catalog: options.catalog)
      primary = log
      results.log = log
      say("[1/6] log \(log.logPath) (given), catalog \(log.catalogPath): \(Format.grouped(log.bytes)) bytes (\(Format.mb(log.bytes)))")
      return
    }
    let log = try LogUnderTest.prepare(
      in: dir, subjects: options.subjects, seed: options.seed, usage: options.usageLevel, contract: options.contract,
      transfers: options.transfers)
    primary = log
    results.log = log
    let how =
      log.seconds.map {
        "generated in \(Format.seconds($0)) (\(Format.fixed(Double(log.bytes) / 1e6 / $0, 0)) MB/s)"
      } ?? "reused (same --subjects and --seed)"
    say("[1/6] log \(log.logPath) (usage: \(options.usageLevel.rawValue), contract v\(options.contract.rawValue)\(options.transfers ? " with transfers" : "")): \(how)")
    say(
      "      \(Format.grouped(log.lines)) lines = \(Format.grouped(log.events)) events + "
        + "\(Format.grouped(log.duplicates)) redelivered duplicates; \(Format.grouped(log.subjects)) subjects; "
        + "\(Format.grouped(log.bytes)) bytes (\(Format.mb(log.bytes)), \(log.bytes / max(1, log.lines)) bytes/line)")
  }

  // MARK: - 2. replay

  var replayOutput: String { dir + "/replay.out" }

  mutating func replay() throws {
    say("[2/6] storeledger replay LOG, best of \(options.runs)")
    var runs: [ChildRun] = []
    for index in 1...options.runs {
      let log = results.log!
      let run = try storeledger(["replay", log.logPath, "--catalog", log.catalogPath], stdout: replayOutput)
      let summary = ReplaySummary(file: replayOutput)
      if index == 1 { try adopt(summary) }
      guard summary.eventsRead == results.log.lines else {
        throw BenchError("replay read \(summary.eventsRead) events, the log has \(results.log.lines) lines")
      }
      say(
        "      run \(index): \(describe(run, bytesRead: log.bytes)), \(Format.fixed(bytesPerEvent(run.peakRSS), 0)) bytes per event; "
          + "\(Format.rate(results.log.lines, run.seconds)) events/s")
      runs.append(run)
    }
    results.replay = Measured(runs: runs)
    let log = results.log!
    if let old = options.baselineCLI {
      // An older binary may reject what this one reads: its figures are then left out, not the run.
      do {
        var oldRuns: [ChildRun] = []
        let output = dir + "/old-replay.out"
        for index in 1...options.runs {
          let run = try storeledger(["replay", log.logPath, "--catalog", log.catalogPath], stdout: output, cli: old)
          say(
            "      baseline binary run \(index): \(describe(run, bytesRead: log.bytes)), "
              + "\(Format.fixed(bytesPerEvent(run.peakRSS), 0)) bytes per event; \(Format.rate(log.lines, run.seconds)) events/s")
          oldRuns.append(run)
        }
        results.oldReplay = Measured(runs: oldRuns)
        results.oldReplayAgrees = ReplaySummary(file: output) == ReplaySummary(file: replayOutput)
        say("      baseline binary's summary equals replay's: \(results.oldReplayAgrees ? "yes" : "NO")")
        try? FileManager.default.removeItem(atPath: output)
      } catch {
        say("      baseline binary's replay failed, left out: \(error)")
      }
    }
    // The subjects and span the queries and the report are drawn from.
    let (subjects, firstAt) = try log.subjectsAndFirstAt()
    results.subjects = subjects
    results.firstAt = firstAt ?? GeneratorOptions.defaultStart
    results.latest = ReplaySummary(file: replayOutput).instant("latest effective time: ") ?? results.firstAt
    // The monthly report over the log's span (the generator's 24 months by default), against
    // replay's time (issue 10).
    let from = String(results.firstAt.rfc3339.prefix(10))
    let to = String(Timestamp(millisecondsSinceEpoch: results.latest.millisecondsSinceEpoch + 86_400_000).rfc3339.prefix(10))
    results.reportSpan = "\(from)…\(to)"
    var reports: [ChildRun] = []
    for index in 1...options.runs {
      let run = try storeledger(
        ["report", log.logPath, "--catalog", log.catalogPath, "--from", from, "--to", to, "--every", "month"],
        stdout: dir + "/report.out")
      say("      report run \(index): \(describe(run, bytesRead: log.bytes))")
      reports.append(run)
    }
    results.report = Measured(runs: reports)
    try? FileManager.default.removeItem(atPath: dir + "/report.out")
  }

  /// Peak RSS per distinct event of the log.
  func bytesPerEvent(_ peakRSS: Int) -> Double { Double(peakRSS) / Double(max(1, results.log.events)) }

  /// Takes the counts of a given log from its first replay; checks that the production shape
  /// folds to the original's answers with exactly the redeliveries it added.
  mutating func adopt(_ summary: ReplaySummary) throws {
    guard let duplicates = summary.number("duplicates skipped: "), let subjects = summary.number("subjects: ") else {
      throw BenchError("replay printed no summary: \(summary.lines.prefix(3))")
    }
    if results.log.shape == "given" {
      results.log.lines = summary.eventsRead
      results.log.duplicates = duplicates
      results.log.events = summary.eventsRead - duplicates
      results.log.subjects = subjects
      primary = results.log
      say(
        "      the log: \(Format.grouped(summary.eventsRead)) events read = \(Format.grouped(summary.eventsRead - duplicates)) events + "
          + "\(Format.grouped(duplicates)) duplicates; \(Format.grouped(subjects)) subjects")
    }
    if results.log.shape != "production" {
      primarySummary = summary
      return
    }
    let added = results.production?.redeliveriesAdded ?? 0
    let original = try primaryReplaySummary()
    guard summary.answers == original.answers, summary.eventsRead == original.eventsRead + added,
      duplicates == (original.number("duplicates skipped: ") ?? -1) + added
    else {
      throw BenchError(
        "the production shape does not fold to the original's answers (\(added) redeliveries added):\n"
          + "original: \(original.lines.joined(separator: "; "))\nproduction: \(summary.lines.joined(separator: "; "))")
    }
    results.log.lines = summary.eventsRead
    results.log.duplicates = duplicates
    results.log.events = summary.eventsRead - duplicates
    results.log.subjects = subjects
    results.productionAgrees = true
    say(
      "      same events, subjects, latest time and active entitlements as the \(primary.shape) log, "
        + "\(Format.grouped(added)) more duplicates: yes")
  }

  /// The primary log's replay summary (replayed once, untimed, when it is not measured itself).
  mutating func primaryReplaySummary() throws -> ReplaySummary {
    if let primarySummary { return primarySummary }
    let output = dir + "/primary-replay.out"
    _ = try storeledger(["replay", primary.logPath, "--catalog", primary.catalogPath], stdout: output)
    let summary = ReplaySummary(file: output)
    try? FileManager.default.removeItem(atPath: output)
    primarySummary = summary
    return summary
  }

  /// Writes the production-shaped copy of the primary log into the work directory.
  mutating func writeProduction() throws -> (log: LogUnderTest, stats: ProductionShape.Stats, seconds: Double) {
    let path = dir + "/production.jsonl"
    let ((log, stats), seconds) = try timed { try primary.writeProductionShape(to: path, seed: options.seed) }
    say(
      "[1/6] production shape → \(path) in \(Format.seconds(seconds)): \(Format.grouped(stats.linesWritten)) lines "
        + "(\(Format.grouped(stats.redeliveriesAdded)) redeliveries added), \(Format.mb(stats.bytesWritten)); keys shuffled, "
        + "\(Format.grouped(stats.timestampsRewritten)) timestamps with UTC offsets, meta on \(Format.grouped(stats.metaWritten)) lines "
        + "(\(Format.fixed(100 * Double(stats.metaWritten) / Double(max(1, stats.linesRead)), 1))%)")
    return (log, stats, seconds)
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
      results.duckdbSkipped = options.duckdb == "" ? "--duckdb none" : "no duckdb"
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
          results.duckdbSkipped = "DuckDB failed on this log (exit \(run.status))"
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

  var queriesPath: String { dir + "/queries-\(results.log.shape).jsonl" }

  mutating func audit() throws {
    let log = results.log!
    let answersPath = dir + "/answers.jsonl"
    say("[4/6] storeledger audit LOG --queries Q on \(Format.grouped(options.queries)) queries, best of \(options.runs)")
    let subjects = results.subjects
    let written = try QueryFile.write(
      count: options.queries, seed: options.seed, subjects: subjects, from: results.firstAt,
      to: results.latest, path: queriesPath)
    results.queries = options.queries
    results.queryMix = written.mix
    results.queryFileBytes = written.bytes
    say(
      "      query file: \(Format.mb(written.bytes)); \(Format.grouped(written.mix.known)) queries for the log's "
        + "\(Format.grouped(subjects.count)) subjects, \(Format.grouped(written.mix.unknown)) for unknown ones; \(Format.grouped(written.mix.withAsOf)) with as_of; "
        + "at and as_of uniform in \(results.firstAt.rfc3339)…\(results.latest.rfc3339)")
    var runs: [ChildRun] = []
    for index in 1...options.runs {
      let run = try storeledger(
        ["audit", log.logPath, "--catalog", log.catalogPath, "--queries", queriesPath], stdout: answersPath)
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
    // One snapshot per shape, replaced when a kept --dir is measured again.
    let snapshotPath = dir + "/prefix-\(log.shape).snapshot.json"
    let output = dir + "/restore.out"
    let prefixOutput = dir + "/prefix.out"
    results.prefixLines = log.lines * options.prefixPercent / 100
    results.prefixBytes = try log.writePrefix(lines: results.prefixLines, to: prefixPath)
    say(
      "[5/6] snapshot of the first \(options.prefixPercent)% (\(Format.grouped(results.prefixLines)) lines, "
        + "\(Format.mb(results.prefixBytes))) as PREFIX")
    let write = try storeledger(
      ["snapshot", prefixPath, "--catalog", log.catalogPath, "--out", snapshotPath, "--force"], stdout: dir + "/snapshot.out")
    results.snapshotWrite = write
    results.snapshotBytes = fileSize(snapshotPath) ?? 0
    say("      storeledger snapshot PREFIX --out S: \(describe(write)); S is \(Format.mb(results.snapshotBytes))")
    if let old = options.baselineCLI {
      let oldPath = dir + "/prefix.old-snapshot.json"
      do {
        let run = try storeledger(
          ["snapshot", prefixPath, "--catalog", log.catalogPath, "--out", oldPath, "--force"], stdout: dir + "/snapshot.out",
          cli: old)
        results.oldSnapshot = run
        say("      baseline binary's snapshot PREFIX --out S0: \(describe(run)); S0 is \(Format.mb(fileSize(oldPath) ?? 0))")
      } catch {
        say("      baseline binary's snapshot failed, left out: \(error)")
      }
      try? FileManager.default.removeItem(atPath: oldPath)
    }
    var full: [ChildRun] = []
    var prefix: [ChildRun] = []
    var restored: [ChildRun] = []
    results.restoreFullAgrees = true
    results.restorePrefixAgrees = true
    let fullSummary = ReplaySummary(file: replayOutput)
    for index in 1...options.runs {
      let a = try storeledger(
        ["replay", log.logPath, "--catalog", log.catalogPath, "--snapshot", snapshotPath], stdout: output)
      results.restoreFullAgrees = results.restoreFullAgrees && ReplaySummary(file: output) == fullSummary
      let b = try storeledger(["replay", prefixPath, "--catalog", log.catalogPath], stdout: prefixOutput)
      let c = try storeledger(
        ["replay", prefixPath, "--catalog", log.catalogPath, "--snapshot", snapshotPath], stdout: output)
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

  func cleanUp() {
    guard !options.keep else { return }
    if temporary {
      try? FileManager.default.removeItem(atPath: dir)
    } else {
      for name in ["replay.out", "baseline.out", "stderr.txt", "production.jsonl"] {
        try? FileManager.default.removeItem(atPath: dir + "/" + name)
      }
    }
  }
}
