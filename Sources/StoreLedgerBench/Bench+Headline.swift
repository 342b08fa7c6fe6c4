import Foundation
import StoreLedger

/// One of issue 40's targets on the headline row, with what its verdict means.
struct HeadlineTarget {
  var row: TargetRow
  /// One line: what was compared with what, so a reader knows what MET or MISSED says.
  var meaning: String
}

extension Bench {
  /// The shape whose row is the headline: the production-shaped copy when it was measured
  /// (issue 40: store events in the shape production pipelines write), else the first shape.
  var headline: Results? { shapes.first { $0.log.shape == "production" } ?? shapes.first }

  /// Issue 40's eight targets on the headline row, each MET, MISSED or not measured.
  /// - Complexity: O(runs).
  func headlineTargets(_ r: Results, usage: [TargetRow]) -> [HeadlineTarget] {
    let shape = r.log.shape
    let log = r.log!
    let replay = r.replay.best
    var targets: [HeadlineTarget] = []
    func add(_ row: TargetRow, _ meaning: String) { targets.append(HeadlineTarget(row: row, meaning: meaning)) }
    add(
      .check(
        shape, "replay ≥ 3.5M events/s", measured: "\(Format.rate(log.lines, replay.seconds)) events/s",
        value: Double(log.lines) / replay.seconds, goal: Targets.replayEventsPerSecond),
      "the log's \(Format.grouped(log.lines)) lines ÷ the best wall time of `storeledger replay` from spawn to exit "
        + "(warm cache); a busy machine lowers it: \(Format.rate(log.lines, replay.cpuSeconds)) events per CPU-second")
    let fold = r.baselines.first { $0.variant == .formatstyle }
    add(
      fold.map {
        .check(
          shape, "replay ≥ 40× the JSONDecoder fold", measured: Format.times($0.measured.best.seconds / replay.seconds),
          value: $0.measured.best.seconds / replay.seconds, goal: Targets.foldSpeedup)
      } ?? .notMeasured(shape, "replay ≥ 40× the JSONDecoder fold", why: "the fold reads v1.2 logs only"),
      "the Foundation JSONDecoder + Date.ISO8601FormatStyle fold's wall time ÷ replay's, same file and run "
        + "(on a v1.3 log: measured on the v1.2 log of the same shape, Docs/performance.md)")
    let duck = r.duckdb.first { $0.title.hasSuffix("count(*)") }
    add(
      duck.map {
        .check(
          shape, "replay ≥ 1× DuckDB's read_json count(*)", measured: Format.times($0.measured.best.seconds / replay.seconds),
          value: $0.measured.best.seconds / replay.seconds, goal: 1)
      } ?? .notMeasured(shape, "replay ≥ 1× DuckDB's read_json count(*)", why: r.duckdbSkipped.isEmpty ? "no duckdb" : r.duckdbSkipped),
      "DuckDB's wall time to count the same file's lines (start-up included) ÷ replay's: above 1× replay is faster")
    let perEvent = Double(r.replay.peakRSS) / Double(max(1, log.events))
    add(
      .check(
        shape, "≤ 64 B per event resident at the peak", measured: "\(Format.fixed(perEvent, 0)) B",
        value: perEvent, goal: Targets.bytesPerEvent, atMost: true),
      "replay's peak RSS (ru_maxrss) ÷ the distinct events it folded: what the whole process holds per event, not the events alone")
    let share = Double(r.replay.peakRSS) / Double(log.bytes)
    add(
      .check(
        shape, "peak RSS ≤ 0.4× the log's size", measured: "\(Format.fixed(share, 2))×", value: share,
        goal: Targets.rssToLogSize, atMost: true),
      "replay's peak RSS ÷ the log's bytes (\(Format.mb(r.replay.peakRSS)) of \(Format.mb(log.bytes)))")
    let empty = r.replayPrefix.best.seconds / r.restorePrefix.best.seconds
    add(
      .check(
        shape, "restore ≥ 5× faster than a refold, empty tail", measured: Format.times(empty), value: empty,
        goal: Targets.restoreSpeedup),
      "replay PREFIX ÷ replay PREFIX --snapshot S, where S folds the first \(options.prefixPercent)% of the lines: "
        + "restoring alone against folding the same lines")
    let tail = replay.seconds / r.restoreFull.best.seconds
    add(
      .check(
        shape, "restore ≥ 3× faster with a \(100 - options.prefixPercent)% tail", measured: Format.times(tail), value: tail,
        goal: Targets.restoreWithTailSpeedup),
      "replay LOG ÷ replay LOG --snapshot S: restoring S, then folding the last \(100 - options.prefixPercent)% of the lines")
    let auditTarget = "audit with usage ≥ 0.8× without (\(Format.grouped(options.usageSubjects)) subjects)"
    add(
      usage.first { $0.target.hasPrefix("policy vs policy: audit") }.map {
        TargetRow(shape: "usage", target: auditTarget, measured: $0.measured, ratio: $0.ratio, verdict: $0.verdict)
      } ?? .notMeasured("usage", auditTarget, why: options.compareUsage ? "usage comparison failed" : "--no-usage-comparison"),
      "`audit` end to end on the log with typical usage ÷ without, same subjects, queries and policy catalog "
        + "(on a quiet machine; USAGE TARGETS gives the in-process answering too)")
    return targets
  }

  /// Prints issue 40's targets on the headline row, text then Markdown.
  func summarizeHeadline(usage: [TargetRow]) {
    guard let r = headline else { return }
    let targets = headlineTargets(r, usage: usage)
    var table = Table("target (issue 40)", "measured", "measured ÷ target", "verdict", "what the verdict says")
    for target in targets {
      table.add(target.row.target, target.row.measured, target.row.ratio, target.row.verdict, target.meaning)
    }
    say()
    say("HEADLINE (issue 40): the \(r.log.shape) shape, \(describeLog(r))")
    say(table.text)
    say(TargetRow.legend(targets.map(\.row), issues: "issue 40's"))
    say(table.markdown)
  }
}
