import StoreLedger

/// `storeledger check LOG`: validate everything and report every problem.
enum CheckCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "check", abstract: "Validate a log against the contract and report every problem.",
    usage: "check <log> [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [CommandSpec.catalogOption],
    discussion: """
      Checks every line (fields, types, timestamps, products), id conflicts, transactions
      charged twice, and overdraw of consumable balances. Prints every error (not just the
      first) and warnings for events that change nothing, then a summary. Exit 65 on any error.
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    let catalog = try CommandSupport.catalog(arguments, log: log, console: log == "-" ? nil : console)
    let name = log == "-" ? "<stdin>" : log
    var builder = LedgerBuilder(catalog: catalog, file: name)
    let extent =
      log == "-"
      ? try CommandSupport.feed(&builder, console: console)
      : try feedWithProgress(&builder, log: log, console: console)
    let linesRead = builder.linesRead
    let errorCount = builder.errorCount
    switch builder.finish() {
    case .failure(let list):
      let errors = list.diagnostics.filter { $0.severity == .error }
      StoreLedgerCLI.report(list.diagnostics, console: console, total: max(errorCount, errors.count))
      let total = max(errorCount, errors.count)
      console.err("\(name): \(Plural.counted(total, "error")) in \(Plural.counted(linesRead, "line"))\n")
      return list.exitCode
    case .success(let ledger):
      CommandSupport.warn(ledger.warnings + (log == "-" ? [] : LogIndex.verify(logPath: log, catalog: catalog)), console)
      let leaks = reportLeaks(ledger, log: log, console: console)
      let warnings = ledger.warnings.count + leaks
      console.out(
        "ok: \(name): \(Plural.counted(extent.lineCount, "line")), \(Plural.counted(ledger.events.count, "event")), "
          + "\(Plural.counted(ledger.duplicatesSkipped, "duplicate")) skipped, "
          + "\(Plural.counted(ledger.subjectCount, "subject")), \(Plural.counted(warnings, "warning"))\n")
      return 0
    }
  }

  /// How many leaks are named; the rest are counted.
  static let leaksShownMax = 5

  /// Prints the first few leaks as warnings and their count; returns the count.
  static func reportLeaks(_ ledger: Ledger, log: String, console: Console) -> Int {
    var engine = QueryEngine(ledger: ledger)
    var count = 0
    var text = ""
    engine.forEachLeak { leak in
      count += 1
      guard count <= leaksShownMax else { return }
      let diagnostic = Diagnostic(
        file: log, line: leak.line,
        .leak(id: leak.id, feature: leak.feature, at: leak.at.rfc3339, tier: leak.tier, used: leak.used, limit: leak.limit),
        severity: .warning)
      text += diagnostic.description + "\n"
    }
    guard count > 0 else { return 0 }
    if count > leaksShownMax { text += "… and \(count - leaksShownMax) more \(count - leaksShownMax == 1 ? "leak" : "leaks") not shown\n" }
    text += "\(log): \(count) leak\(count == 1 ? "" : "s"): uses the policy did not allow when they happened\n"
    console.err(text)
    return count
  }

  /// Reads the log into `builder`, with a progress line when stderr is a terminal.
  static func feedWithProgress(_ builder: inout LedgerBuilder, log: String, console: Console) throws -> LogExtent {
    let line = console.progress(reading: log)
    defer { line?.finish() }
    return try LedgerLoader.feed(&builder, path: log, progress: line.map { line in line.update })
  }
}
