import StoreLedger

/// `storeledger check LOG`: validate everything and report every problem.
enum CheckCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "check", abstract: "Validate a log against the contract and report every problem.",
    usage: "check <log> [--catalog <file>] [--format text|json]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      CommandSpec.catalogOption,
      .value("format", "text|json", "text (default): messages on stderr; json: one JSON object per problem on stdout."),
    ],
    discussion: """
      Checks every line (fields, types, timestamps, products), id conflicts, transactions
      charged twice, and overdraw of consumable balances. Prints every error (not just the
      first) and warnings for events that change nothing, then a summary. Exit 65 on any error.
      With --format json each problem is one line on stdout, {"file", "line", "column",
      "severity", "code", "message"}, code being the stable code of Docs/library.md; the
      summary stays on stderr. The Google Play documents 'import googleplay --append' keeps
      beside the log are checked too, against their record: lost, truncated, replaced or
      damaged, they are an error (Docs/import-googleplay.md).
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let format = arguments.value("format") ?? "text"
    guard format == "text" || format == "json" else {
      throw UsageError(message: "Invalid value for '--format': '\(format)' (expected text or json).")
    }
    guard format == "json" else { return try check(arguments, json: false, console: console) }
    // Problems with the files themselves (no log, a bad catalog) are problems too.
    do {
      return try check(arguments, json: true, console: console)
    } catch let list as DiagnosticList {
      printJSON(list.diagnostics, console: console)
      return list.exitCode
    } catch let diagnostic as Diagnostic {
      printJSON([diagnostic], console: console)
      return diagnostic.exitCode
    }
  }

  /// Reads and checks the log, reporting in text or JSON.
  static func check(_ arguments: ParsedArguments, json: Bool, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    let catalog = try CommandSupport.catalog(arguments, log: log, console: log == "-" ? nil : console)
    let name = log == "-" ? "<stdin>" : log
    var builder = LedgerBuilder(catalog: catalog, file: name)
    let extent =
      log == "-"
      ? try feedStdin(&builder, console: console)
      : try feedWithProgress(&builder, log: log, console: console)
    let linesRead = builder.linesRead
    let errorCount = builder.errorCount
    // The documents kept beside the log are part of its state (Docs/import-googleplay.md).
    let documents = log == "-" ? [] : GooglePlayDocumentFile.problems(log: log)
    let finished = builder.finish()
    if let status = reportFailure(
      finished, errorCount: errorCount, documents: documents, name: name, linesRead: linesRead, json: json,
      console: console)
    {
      return status
    }
    switch finished {
    case .failure: preconditionFailure("a failed check returns above")
    case .success(let ledger):
      let indexWarnings = log == "-" ? [] : LogIndex.verify(logPath: log, catalog: catalog)
      let leaks: Int
      if json {
        let (shown, count) = leakWarnings(ledger, log: log)
        printJSON(ledger.warnings + indexWarnings + documents + shown, console: console)
        leaks = count
      } else {
        CommandSupport.warn(ledger.warnings + indexWarnings + documents, console)
        leaks = reportLeaks(ledger, log: log, console: console)
      }
      let warnings = ledger.warnings.count + documents.count + leaks
      let summary =
        "ok: \(name): \(Plural.counted(extent.lineCount, "line")), \(Plural.counted(ledger.events.count, "event")), "
        + "\(Plural.counted(ledger.duplicatesSkipped, "duplicate")) skipped, "
        + "\(Plural.counted(ledger.namedSubjectCount, "subject")), \(Plural.counted(warnings, "warning"))\n"
      if json { console.err(summary) } else { console.out(summary) }
      if let erased = try ErasureNote.summary(log: log) {
        if json { console.err(erased + "\n") } else { console.out(erased + "\n") }
      }
      return 0
    }
  }

  /// Reports the errors of a failed check, the log's and those of the documents kept beside
  /// it, and returns its exit status; nil when there are none.
  static func reportFailure(
    _ finished: Result<Ledger, DiagnosticList>, errorCount: Int, documents: [Diagnostic], name: String,
    linesRead: Int, json: Bool, console: Console
  ) -> Int32? {
    let documentErrors = documents.filter { $0.severity == .error }.count
    let diagnostics: [Diagnostic]
    let errors: Int
    switch finished {
    case .failure(let list):
      diagnostics = list.diagnostics + documents
      errors = max(errorCount, list.diagnostics.filter { $0.severity == .error }.count) + documentErrors
    case .success(let ledger):
      guard documentErrors > 0 else { return nil }
      diagnostics = ledger.warnings + documents
      errors = documentErrors
    }
    if json {
      printJSON(diagnostics, console: console)
    } else {
      StoreLedgerCLI.report(diagnostics, console: console, total: errors)
    }
    console.err("\(name): \(Plural.counted(errors, "error")) in \(Plural.counted(linesRead, "line"))\n")
    return DiagnosticList(diagnostics).exitCode
  }

  /// How many leaks are named; the rest are counted.
  static let leaksShownMax = 5

  /// Each diagnostic (up to the usual cap) as one JSON line on stdout: file, line, column,
  /// severity, code, message (absent places are null).
  static func printJSON(_ diagnostics: [Diagnostic], console: Console) {
    var text = ""
    for diagnostic in diagnostics.prefix(Limits.diagnosticsShownMax) {
      text += JSONWriter.compact(jsonValue(diagnostic)) + "\n"
    }
    console.out(text)
  }

  /// One problem of `check --format json`.
  static func jsonValue(_ diagnostic: Diagnostic) -> JSONValue {
    .object([
      ("file", diagnostic.file.map { .string($0) } ?? .null),
      ("line", diagnostic.line.map { .integer(Int64($0)) } ?? .null),
      ("column", diagnostic.column.map { .integer(Int64($0)) } ?? .null),
      ("severity", .string(diagnostic.severity.rawValue)), ("code", .string(diagnostic.code.rawValue)),
      ("message", .string(diagnostic.message)),
    ])
  }

  /// The first few leaks as warnings, and how many there are.
  static func leakWarnings(_ ledger: Ledger, log: String) -> (shown: [Diagnostic], count: Int) {
    var engine = QueryEngine(ledger: ledger)
    var count = 0
    var shown: [Diagnostic] = []
    engine.forEachLeak { leak in
      count += 1
      guard count <= leaksShownMax else { return }
      shown.append(
        Diagnostic(
          file: log, line: leak.line,
          .leak(id: leak.id, feature: leak.feature, at: leak.at.rfc3339, tier: leak.tier, used: leak.used, limit: leak.limit),
          severity: .warning))
    }
    return (shown, count)
  }

  /// Prints the first few leaks as warnings and their count; returns the count.
  static func reportLeaks(_ ledger: Ledger, log: String, console: Console) -> Int {
    let (shown, count) = leakWarnings(ledger, log: log)
    var text = shown.map { $0.description + "\n" }.joined()
    guard count > 0 else { return 0 }
    if count > leaksShownMax { text += "… and \(count - leaksShownMax) more \(count - leaksShownMax == 1 ? "leak" : "leaks") not shown\n" }
    text += "\(log): \(count) leak\(count == 1 ? "" : "s"): uses the policy did not allow when they happened\n"
    console.err(text)
    return count
  }

  /// Streams a log given on stdin into `builder` through the pipelined reader (bounded memory;
  /// a last line without `\n` is a torn line, as in a file).
  static func feedStdin(_ builder: inout LedgerBuilder, console: Console) throws(Diagnostic) -> LogExtent {
    try LedgerLoader.feed(&builder, streamNamed: "<stdin>") { (buffer) throws(Diagnostic) in
      try console.readSome(into: buffer)
    }
  }

  /// Reads the log into `builder`, with a progress line when stderr is a terminal.
  static func feedWithProgress(_ builder: inout LedgerBuilder, log: String, console: Console) throws -> LogExtent {
    let line = console.progress(reading: log)
    defer { line?.finish() }
    return try LedgerLoader.feed(&builder, path: log, progress: line.map { line in line.update })
  }
}
