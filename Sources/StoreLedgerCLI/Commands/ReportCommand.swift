import StoreLedger
import StoreLedgerReport

/// `storeledger report LOG --from D1 --to D2 [--every day|week|month] [--as-of R] [--format json|csv|html]`.
enum ReportCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "report", abstract: "Subscription metrics per day, week or month, as known at a time.",
    usage:
      "report <log|-> --from <time> --to <time> [--every day|week|month] [--tz <zone>] [--as-of <time>] [--compare-as-of <time>] [--by <field>] [--metrics <list>] [--format json|csv|html|partial] [--rates <file>] [--shard <i/n>]\n       storeledger report --merge <partial>... [--format json|csv|html] [--rates <file>]",
    positionals: [
      ("<log|->", "The JSON-lines event log; '-' streams it from stdin (needs --catalog)."),
      ("<partial>...", "With --merge: the partial reports of every shard."),
    ], requiredPositionals: 1,
    options: [
      .value("from", "time", "Start: the first bucket is the one containing it. Required."),
      .value("to", "time", "End: the last bucket ends at or after it. Required."),
      .value(
        "every", "interval", "Bucket length: day, week (ISO, from Monday) or month, in UTC or --tz. Default: month."),
      .value(
        "tz", "zone",
        "Zone of --from, --to and the buckets (local midnights, summer time included): +02:00, Z or a name such as Europe/Paris. Bounds print in UTC. Default: UTC."),
      .value("as-of", "time", "Knowledge time R: count only events recorded by then. Default: all."),
      .value(
        "compare-as-of", "time",
        "Print what changed between the report as known at this time and as known at --as-of (default: all)."),
      .value(
        "by", "field",
        "Split every metric by a field of the charges: country, store, product, offer or entitlement ('unknown' where none is stated)."),
      .value("metrics", "list", "Comma-separated metric names to keep (default: all; see Docs/reports.md)."),
      .value(
        "format", "format",
        "json (default), csv, html (one self-contained page with charts), or partial (a shard's report to --merge)."),
      .value(
        "rates", "file",
        "With --format html: dated exchange rates, JSON lines {\"date\": \"2026-01-01\", \"from\": \"EUR\", \"to\": \"USD\", \"rate\": \"1.08\"}, for totals in one currency (never fetched; see Docs/reports.md)."),
      .flag("merge", "Sum the partial reports given (one per shard) into the whole log's report."),
      CommandSpec.shardOption, CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Every metric is defined in Docs/reports.md. 'active' at a bucket's end is what
      'query --at END --as-of R' answers; 'revenue' is in thousandths of the currency unit.
      Example: storeledger report Events/demo.jsonl --from 2026-02-01 --to 2026-04-01 --format csv
      Shards: run 'report LOG --shard i/n --format partial' for every i, then 'report --merge' over
      the outputs: every metric is a sum over subjects, rates are recomputed from the summed parts.
      """,
    repeatsLastPositional: true)

  static let formats = ["json", "csv", "html", "partial"]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    if arguments.has("merge") { return try merge(arguments, console: console) }
    guard arguments.positionals.count == 1 else {
      throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])' (several files only with --merge).")
    }
    let zone = try ArgumentParser.zone(arguments)
    let from = try requiredInstant(arguments, "from", zone: zone)
    let to = try requiredInstant(arguments, "to", zone: zone)
    let every = arguments.value("every") ?? "month"
    guard let interval = ReportInterval(rawValue: every) else {
      throw UsageError(message: choiceMessage("every", every, ReportInterval.allCases.map(\.rawValue)))
    }
    let format = arguments.value("format") ?? "json"
    guard formats.contains(format) else { throw UsageError(message: choiceMessage("format", format, formats)) }
    let rates = try exchangeRates(arguments, format: format, console: console)
    let asOf = try optionalInstant(arguments, "as-of")
    let compareAsOf = try optionalInstant(arguments, "compare-as-of")
    let by = try segmentKey(arguments.value("by"), compareAsOf: compareAsOf)
    var metrics = try selectedMetrics(arguments.value("metrics"))
    // A merge divides a derived metric again from its parts, so a partial keeps them.
    if format == "partial" {
      for name in metrics { metrics.formUnion(ReportMetric(rawValue: name)?.parts.map(\.rawValue) ?? []) }
    }
    let buckets = try reportBuckets(from: from, to: to, every: interval, zone: zone)
    // One line through every phase: reading, folding, computing, writing.
    let line = console.progress(reading: CommandSupport.logPath(arguments))
    defer { line?.finish() }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console, progress: line)
    let facts = try chargeFacts(ledger, arguments: arguments, console: console)
    let progress = line.map { line in
      { (done: Int, total: Int) in line.update("computing the report", done: done, total: total) }
    }
    func built(asOf: Timestamp?) throws(Diagnostic) -> Report {
      do {
        return try ReportBuilder.report(
          ledger: ledger, buckets: buckets, asOf: asOf, facts: facts, by: by, progress: progress)
          .keeping(metrics: metrics)
      } catch var diagnostic {
        diagnostic.file = CommandSupport.logPath(arguments)
        throw diagnostic
      }
    }
    let report = try built(asOf: asOf)
    if let compareAsOf {
      guard format != "partial" else {
        throw UsageError(message: "'--format partial' cannot be combined with '--compare-as-of': merge each as-of, then compare.")
      }
      let before = try built(asOf: compareAsOf)
      let comparison = ReportComparison(before: before, after: report)
      line?.begin("writing the report")
      switch format {
      case "csv": console.out(comparison.csv)
      case "html": console.out(comparison.html(log: CommandSupport.logPath(arguments)))
      default: console.out(JSONWriter.pretty(comparison.jsonValue) + "\n")
      }
      return 0
    }
    line?.begin("writing the report")
    switch format {
    case "csv": console.out(report.csv)
    case "html": console.out(report.html(log: CommandSupport.logPath(arguments), now: currentTimestamp(), rates: rates))
    case "partial": console.out(JSONWriter.pretty(report.partialJSONValue) + "\n")
    default: console.out(JSONWriter.pretty(report.jsonValue) + "\n")
    }
    return 0
  }

  /// The report's buckets; a span the buckets cannot cover is a usage error.
  static func reportBuckets(
    from: Timestamp, to: Timestamp, every interval: ReportInterval, zone: CustomerZone?
  ) throws(UsageError) -> ReportBuckets {
    do {
      return try ReportBuckets(from: from, to: to, every: interval, zone: zone ?? .utc)
    } catch {
      throw UsageError(message: error.message)
    }
  }

  /// `report --merge P1 P2 …`: the whole log's report from its shards' partial reports.
  static func merge(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let allowed: Set<String> = ["merge", "format", "rates"]
    if let other = (Array(arguments.values.keys) + Array(arguments.flags)).sorted().first(where: { !allowed.contains($0) }) {
      throw UsageError(message: "'--\(other)' does not apply to '--merge' (the partials were made with it).")
    }
    let format = arguments.value("format") ?? "json"
    guard formats.contains(format) else { throw UsageError(message: choiceMessage("format", format, formats)) }
    let rates = try exchangeRates(arguments, format: format, console: console)
    let files = arguments.positionals
    var partials: [Report] = []
    for file in files {
      partials.append(try Report.parsePartial(try CommandSupport.input(file, console: console, limits: .snapshot), file: file))
    }
    let report = try Report.merging(partials, files: files)
    switch format {
    case "csv": console.out(report.csv)
    case "html": console.out(report.html(log: files.joined(separator: " + "), now: currentTimestamp(), rates: rates))
    case "partial": console.out(JSONWriter.pretty(report.partialJSONValue) + "\n")
    default: console.out(JSONWriter.pretty(report.jsonValue) + "\n")
    }
    return 0
  }

  /// The rates file of `--rates`, read and checked; only the HTML report prints totals.
  private static func exchangeRates(_ arguments: ParsedArguments, format: String, console: Console) throws -> ExchangeRates? {
    guard let file = arguments.value("rates") else { return nil }
    guard format == "html" else {
      throw UsageError(message: "'--rates' applies to '--format html' only (JSON and CSV keep every currency apart, exactly).")
    }
    return try ExchangeRates.parse(try CommandSupport.input(file, console: console), file: file)
  }

  /// A required time option; with `--tz`, a time typed without an offset is local to the zone.
  private static func requiredInstant(
    _ arguments: ParsedArguments, _ name: String, zone: CustomerZone?
  ) throws(UsageError) -> Timestamp {
    guard let text = arguments.value(name) else {
      throw UsageError(message: "Missing expected option '--\(name) <time>'.")
    }
    return try ArgumentParser.instant(text, option: name, time: TimeInput(now: currentTimestamp()), zone: zone)
  }

  private static func optionalInstant(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> Timestamp? {
    guard let text = arguments.value(name) else { return nil }
    return try ArgumentParser.instant(text, option: name)
  }

  /// `--by`: a field of the charges, or nil (not with `--compare-as-of`, which compares whole reports).
  private static func segmentKey(_ text: String?, compareAsOf: Timestamp?) throws(UsageError) -> ReportSegmentKey? {
    guard let text else { return nil }
    guard compareAsOf == nil else {
      throw UsageError(message: "'--by' cannot be combined with '--compare-as-of': compare the whole report, or split each as-of.")
    }
    guard let key = ReportSegmentKey(rawValue: text) else {
      throw UsageError(message: choiceMessage("by", text, ReportSegmentKey.allCases.map(\.rawValue)))
    }
    return key
  }

  /// The charges' `store`, `country` and `proceeds`, read again from the log file; a log from
  /// stdin cannot be read twice, so its charges are counted as stating none (said on stderr).
  private static func chargeFacts(_ ledger: Ledger, arguments: ParsedArguments, console: Console) throws -> ChargeFacts {
    let log = CommandSupport.logPath(arguments)
    guard log == "-" else { return try ChargeFacts.read(path: log, for: ledger) }
    if !ChargeFacts.lines(of: ledger).isEmpty {
      console.err(
        "warning: charges' store, country and proceeds are read again from the log file; from stdin they count as not stated (proceeds_unknown, segment 'unknown')\n")
    }
    return ChargeFacts()
  }

  private static func selectedMetrics(_ list: String?) throws(UsageError) -> Set<String> {
    let known = ReportMetric.allCases.map(\.rawValue)
    guard let list else { return Set(known) }
    var names = Set<String>()
    for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
      guard known.contains(name) else {
        let suggestion = ArgumentParser.closest(name, among: known)
        throw UsageError(
          message: "Unknown metric '\(name)' in '--metrics'."
            + (suggestion.map { " Did you mean '\($0)'?" } ?? " Metrics: \(known.joined(separator: ", ")).")
        )
      }
      names.insert(name)
    }
    return names
  }

  static func choiceMessage(_ option: String, _ value: String, _ choices: [String]) -> String {
    let suggestion = ArgumentParser.closest(value, among: choices)
    return "Invalid value for '--\(option)': '\(value)' (expected one of \(choices.joined(separator: ", ")))."
      + (suggestion.map { " Did you mean '\($0)'?" } ?? "")
  }
}
