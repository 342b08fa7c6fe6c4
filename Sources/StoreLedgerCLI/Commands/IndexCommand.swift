import StoreLedger

/// `storeledger index LOG`: build the per-subject index beside a log, or bring it up to date.
enum IndexCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "index", abstract: "Build the per-subject index beside a log (LOG.index/), or bring it up to date.",
    usage: "index <log> [--rebuild] [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .flag("rebuild", "Write a new index from the whole log even if the one beside it checks out (after 'check' warns)."),
      CommandSpec.catalogOption,
    ],
    discussion: """
      Checks the log (a log with errors gets no index: exit 65, as 'check' says), then writes
      LOG.index/: where every subject's lines are, and the event ids and charged transactions
      appends are checked against. 'query', 'can' and 'timeline' then read only the subject's
      lines and the lines appended since; 'append' and 'import --append' keep it current. Run
      again after lines were added behind the tool's back, or to rebuild an index that no longer
      describes the log. Deleting LOG.index/ is always safe. See Docs/index.md.
      Example: storeledger index Events/demo.jsonl
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    guard log != "-" else { throw UsageError(message: "'index' needs the log as a file: the index describes a file.") }
    if arguments.value("catalog") == "-" {
      throw UsageError(message: "'index' needs the catalog as a file ('--catalog <file>', not '-').")
    }
    let catalog = try CommandSupport.catalog(arguments, log: log, console: console)
    let line = console.progress(reading: log)
    let (summary, warnings) = try IndexBuild.run(logPath: log, catalog: catalog, rebuild: arguments.has("rebuild"), progress: line.map { line in line.update })
    line?.finish()
    CommandSupport.warn(warnings, console)
    let what = summary.rebuilt ? "built" : summary.indexedBytes == 0 ? "up to date" : "updated (\(summary.indexedBytes) new bytes)"
    console.out(
      "index of \(log) \(what): covers \(summary.coveredLines) line\(summary.coveredLines == 1 ? "" : "s") "
        + "(\(summary.coveredBytes) bytes); \(summary.segments) segment\(summary.segments == 1 ? "" : "s"), "
        + "\(summary.indexBytes) bytes in \(LogIndex.directory(forLog: log))/\n")
    return 0
  }
}

/// The readers' use of the index: `query`, `can` and `timeline` read through it when one is beside
/// the log and describes it, and read the whole log otherwise (or with `--no-index`).
enum IndexedRead {
  /// `--no-index`.
  static let option = OptionSpec.flag("no-index", "Read the whole log, not the index beside it (LOG.index/, see 'storeledger index').")

  /// The ledger holding `subjects`: through the index when it can be used, else `CommandSupport.ledger`.
  static func ledger(_ arguments: ParsedArguments, console: Console, subjects: [String]) throws -> (Ledger, LogExtent) {
    let log = CommandSupport.logPath(arguments)
    guard !arguments.has("no-index"), log != "-", arguments.value("snapshot") == nil,
      PlatformFile.entryKind(LogIndex.directory(forLog: log)) != .missing
    else { return try CommandSupport.ledger(arguments, console: console) }
    guard arguments.value("catalog") != "-" else {
      CommandSupport.warn([Diagnostic(file: log, .indexNotUsed(.catalogUnknown), severity: .warning)], console)
      return try CommandSupport.ledger(arguments, console: console)
    }
    let catalog = try CommandSupport.catalog(arguments, log: log, console: console)
    let line = console.progress(reading: log)
    defer { line?.finish() }
    let read = try LedgerOpening.ledger(
      holding: subjects, logPath: log, catalog: catalog, catalogPath: CommandSupport.catalogPath(arguments, log: log),
      progress: CommandSupport.progress(line))
    if let why = read.notUsed { CommandSupport.warn([why], console) }
    CommandSupport.warnAboutReading(read.ledger, console)
    return (read.ledger, read.extent)
  }
}
