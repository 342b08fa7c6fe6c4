import Foundation
import StoreLedger
import StoreLedgerGenerate

/// One log and catalog measured in the usage comparison.
struct UsageSubject {
  var title: String
  var log: LogUnderTest
  /// The catalog audit and replay read (`--catalog`).
  var catalogPath: String
  var replay: Measured? = nil
  var audit: Measured? = nil
  var auditBytes = 0
  /// Best in-process `QueryEngine.writeAnswers` time over the query batch.
  var answering = 0.0
  /// CPU time of that run (the machine may be shared: CPU time is steadier than wall time).
  var answeringCPU = 0.0
  /// The part of `answering` spent indexing the uses before the first answer (wall, same run).
  var indexing = 0.0
  var answerBytes = 0
}

extension Bench {
  /// Measures, in one run, replay and audit on the log without usage (v1 catalog), the same
  /// log with the usage policy in its catalog, and the log of the same subjects with typical
  /// usage; prints the measured figures and their ratios.
  ///
  /// The three share one query file (the subjects and span of the log without usage), so the
  /// answering differs only by the usage events and the policy path.
  mutating func usageComparison() throws {
    say()
    say("[usage] the same \(Format.grouped(options.usageSubjects)) subjects without and with usage, \(Format.grouped(options.queries)) queries, best of \(options.runs)")
    let (without, with) = try usageLogs()
    let policyCatalogPath = dir + "/policy-catalog.json"
    try OutputFile(path: policyCatalogPath).write(Array(LogGenerator.policyCatalogJSON.utf8))
    var subjects = [
      UsageSubject(title: "no usage, v1 catalog", log: without, catalogPath: without.catalogPath),
      UsageSubject(title: "no usage, policy catalog", log: without, catalogPath: policyCatalogPath),
      UsageSubject(title: "typical usage, policy catalog", log: with, catalogPath: with.catalogPath),
    ]
    // One query file for all: the subjects are the same in both logs.
    let replayOut = dir + "/usage-replay.out"
    let queries = dir + "/usage-queries.jsonl"
    let answers = dir + "/usage-answers.jsonl"
    defer {
      if !options.keep {
        for path in [replayOut, queries, answers, policyCatalogPath] { try? FileManager.default.removeItem(atPath: path) }
      }
    }
    try writeUsageQueries(without, replayOut: replayOut, to: queries)
    for index in subjects.indices where index != 1 {
      try measureUsageReplay(&subjects[index], replayOut: replayOut)
    }
    for index in subjects.indices {
      try measureUsageAudit(&subjects[index], queries: queries, answers: answers)
    }
    // The answering alone, in this process: what usage costs once the log is loaded.
    let input = try LedgerLoader.readFile(queries)
    let batch = try QueryBatch.parse(input, file: queries)
    try measureUsageAnswering(&subjects, batch: batch)
    summarizeUsage(subjects)
    usageRows = usageTargets(subjects)
  }

  /// The log without usage and the log of the same subjects with typical usage (generated, or reused).
  private func usageLogs() throws -> (without: LogUnderTest, with: LogUnderTest) {
    // The headline log is reused only when it is the log this comparison asks for.
    let reuse = options.usageSubjects == options.subjects
    let without =
      options.usageLevel == .none && reuse
      ? results.log!
      : try LogUnderTest.prepare(
        in: dir + "/usage-none", subjects: options.usageSubjects, seed: options.seed, usage: .none,
        contract: options.contract, transfers: options.transfers)
    let with =
      options.usageLevel == .typical && reuse
      ? results.log!
      : try LogUnderTest.prepare(
        in: dir + "/usage-typical", subjects: options.usageSubjects, seed: options.seed, usage: .typical,
        contract: options.contract, transfers: options.transfers)
    for (name, log) in [("without usage", without), ("with usage", with)] {
      say(
        "      log \(name): \(Format.grouped(log.lines)) lines, \(Format.mb(log.bytes))"
          + (log.seconds.map { ", generated in \(Format.seconds($0)) (\(Format.rate(log.lines, $0)) lines/s)" } ?? ", reused"))
    }
    return (without, with)
  }

  /// Queries over the subjects and time span of the log without usage.
  private func writeUsageQueries(_ without: LogUnderTest, replayOut: String, to queries: String) throws {
    _ = try storeledger(["replay", without.logPath], stdout: replayOut)
    let latestLine = ReplaySummary(file: replayOut).lines.first { $0.hasPrefix("latest effective time: ") }
    let latest =
      latestLine.flatMap { Timestamp.parseRFC3339(String($0.dropFirst("latest effective time: ".count))) }
      ?? GeneratorOptions.defaultStart
    _ = try QueryFile.write(
      count: options.queries, seed: options.seed, subjects: try without.subjectsAndFirstAt().subjects,
      from: GeneratorOptions.defaultStart, to: latest, path: queries)
  }

  private func measureUsageReplay(_ subject: inout UsageSubject, replayOut: String) throws {
    var runs: [ChildRun] = []
    for _ in 1...options.runs {
      let run = try storeledger(["replay", subject.log.logPath, "--catalog", subject.catalogPath], stdout: replayOut)
      guard ReplaySummary(file: replayOut).eventsRead == subject.log.lines else {
        throw BenchError("replay of \(subject.log.logPath) did not read its \(subject.log.lines) lines")
      }
      runs.append(run)
    }
    subject.replay = Measured(runs: runs)
    let best = subject.replay!.best
    say("      replay, \(subject.title): \(describe(best)); \(Format.rate(subject.log.lines, best.seconds)) events/s")
  }

  private func measureUsageAudit(_ subject: inout UsageSubject, queries: String, answers: String) throws {
    var runs: [ChildRun] = []
    for _ in 1...options.runs {
      runs.append(
        try storeledger(
          ["audit", subject.log.logPath, "--catalog", subject.catalogPath, "--queries", queries], stdout: answers))
    }
    subject.audit = Measured(runs: runs)
    subject.auditBytes = fileSize(answers) ?? 0
    let best = subject.audit!.best
    say("      audit, \(subject.title): \(describe(best)); \(Format.rate(options.queries, best.seconds)) queries/s end to end")
  }

  /// Times the answering of `batch` on every subject's ledger, the subjects taking turns run
  /// after run (so a busy moment of the machine falls on all of them alike); the best run counts.
  private func measureUsageAnswering(_ subjects: inout [UsageSubject], batch: QueryBatch) throws {
    let ledgers = try subjects.map { subject in
      let catalog = try LedgerLoader.loadCatalog(path: subject.catalogPath)
      return try LedgerLoader.load(logPath: subject.log.logPath, catalog: catalog).ledger
    }
    var best = [Double](repeating: .infinity, count: subjects.count)
    for run in 1...options.runs {
      var cpuOfRun: [String] = []
      for index in subjects.indices {
        var engine = QueryEngine(ledger: ledgers[index])
        var total = 0
        let cpuBefore = ownCPUSeconds()
        let (_, indexing) = timed { engine.prepareUsageIndex() }
        let (_, answering) = timed { engine.writeAnswers(batch) { total += $0.count } }
        let cpu = ownCPUSeconds() - cpuBefore
        cpuOfRun.append(Format.seconds(cpu) + (indexing > 0 ? " (indexing \(Format.seconds(indexing)) wall)" : ""))
        if indexing + answering < best[index] {
          best[index] = indexing + answering
          subjects[index].indexing = indexing
          subjects[index].answeringCPU = cpu
        }
        subjects[index].answerBytes = total
      }
      // Every run's CPU times, so the spread is seen and not only the best run.
      say("      answering run \(run), CPU: " + cpuOfRun.joined(separator: ", "))
    }
    for (index, ledger) in ledgers.enumerated() {
      subjects[index].answering = best[index]
      say(
        "      answering, \(subjects[index].title): \(Format.seconds(best[index])), \(Format.rate(batch.count, best[index])) queries/s; "
          + "\(Format.fixed(Double(ledger.events.count) / Double(max(1, ledger.subjectCount)), 1)) events per subject; "
          + "indexing the uses first: \(Format.seconds(subjects[index].indexing))")
    }
  }

  /// Prints the comparison as text and Markdown: figures and ratios, nothing judged.
  func summarizeUsage(_ subjects: [UsageSubject]) {
    let v1 = subjects[0]
    var table = Table("log, catalog", "lines", "replay events/s", "audit queries/s (CLI)", "answering queries/s (in-process)", "answer bytes")
    for subject in subjects {
      table.add(
        subject.title, Format.grouped(subject.log.lines),
        subject.replay.map { Format.rate(subject.log.lines, $0.best.seconds) } ?? "(same log as above)",
        Format.rate(options.queries, subject.audit!.best.seconds), Format.rate(options.queries, subject.answering),
        Format.mb(subject.answerBytes))
    }
    var ratios = Table(
      "ratio (against no usage, v1 catalog)", "audit (CLI)", "audit (CLI, by CPU time)", "answering (in-process)",
      "answering (by CPU time)", "replay events/s")
    for subject in subjects.dropFirst() {
      let replay =
        subject.replay.map { Format.fixed((Double(subject.log.lines) / $0.best.seconds) / (Double(v1.log.lines) / v1.replay!.best.seconds), 2) }
        ?? "–"
      ratios.add(
        subject.title, Format.fixed(v1.audit!.best.seconds / subject.audit!.best.seconds, 2),
        Format.fixed(v1.audit!.best.cpuSeconds / subject.audit!.best.cpuSeconds, 2),
        Format.fixed(v1.answering / subject.answering, 2), Format.fixed(v1.answeringCPU / subject.answeringCPU, 2),
        replay)
    }
    say()
    say("USAGE COMPARISON (queries/s with ÷ without; 1.00 = as fast, 0.75 = 25% slower)")
    say(table.text)
    say(ratios.text)
    say(table.markdown)
    say(ratios.markdown)
    var targets = Table("target (issue 25)", "measured", "measured ÷ target", "verdict")
    let rows = usageTargets(subjects)
    for row in rows { targets.add(row.target, row.measured, row.ratio, row.verdict) }
    say()
    say("USAGE TARGETS (ratios between measurements of this run)")
    say(targets.text)
    say(TargetRow.legend(rows))
    say(targets.markdown)
  }

  /// Issue 25's "audit with usage ≥ 0.8× without", measured three ways: the answering alone
  /// against the same policy catalog without usage (what usage itself costs), the answering
  /// against the v1 catalog, and end to end (which includes loading 4.9× the lines). In-process
  /// rows are judged by CPU time (steadier on a shared machine), wall time shown beside it.
  func usageTargets(_ subjects: [UsageSubject]) -> [TargetRow] {
    let (v1, policy, usage) = (subjects[0], subjects[1], subjects[2])
    func answering(_ title: String, _ without: UsageSubject) -> TargetRow {
      let share = without.answeringCPU / usage.answeringCPU
      return .check(
        "usage", title,
        measured: "\(Format.fixed(share, 2))× by CPU time, \(Format.fixed(without.answering / usage.answering, 2))× by wall "
          + "(\(Format.rate(options.queries, usage.answering)) vs \(Format.rate(options.queries, without.answering)) queries/s)",
        value: share, goal: Targets.auditWithUsageShare)
    }
    func audit(_ title: String, _ without: UsageSubject) -> TargetRow {
      let (with, before) = (usage.audit!.best.seconds, without.audit!.best.seconds)
      return .check(
        "usage", title,
        measured: "\(Format.fixed(before / with, 2))× (\(Format.rate(options.queries, with)) vs \(Format.rate(options.queries, before)) queries/s)",
        value: before / with, goal: Targets.auditWithUsageShare)
    }
    // Two comparisons, each in-process and end to end: policy against policy (what the uses
    // cost: issue 25's "audit with usage within 0.8× of audit without usage") and policy with
    // uses against the v1 catalog (what the policy and the uses cost together).
    return [
      answering("policy vs policy: answering with usage ≥ 0.8× without, same policy catalog (in-process)", policy),
      answering("policy vs v1: answering with usage ≥ 0.8× without usage and policy (v1 catalog, in-process)", v1),
      audit("policy vs policy: audit with usage ≥ 0.8× without, same policy catalog (CLI, end to end)", policy),
      audit("policy vs v1: audit with usage ≥ 0.8× v1 audit (CLI, end to end)", v1),
    ]
  }
}
