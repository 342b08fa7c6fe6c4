import StoreLedger

/// `storeledger append LOG [FILE|-]`: add events, all or nothing, durably.
enum AppendCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "append", abstract: "Append new events to a log: validated, all or nothing, fsynced.",
    usage: "append <log> [<file|->] [--recorded-at <time> | --recorded-as-at] [--catalog <file>] [--wait <seconds>]",
    positionals: [("<log>", "The JSON-lines event log (created if absent)."), ("<file|->", "New events as JSON lines; '-' or absent reads stdin.")],
    requiredPositionals: 1,
    options: [
      .value("recorded-at", "time", "Stamp events without 'recorded' with this knowledge time instead of now."),
      .flag("recorded-as-at", "Backfill: leave 'recorded' absent, so each event was known from its 'at'."),
      CommandSpec.tzOption,
      CommandSpec.catalogOption,
      CommandSpec.waitOption,
    ],
    discussion: """
      Holds an exclusive lock on the log, checks the new events against the log as it stands
      (every field, id conflicts, transactions charged twice, overdraw, unknown products), stamps
      `recorded` with the current time where absent, writes the whole batch or nothing and fsyncs
      before reporting success. Events already in the log are skipped: re-appending is a no-op.
      A log ending in a torn line must be repaired first ('storeledger repair'); a last line that
      is complete but lacks its newline gets one before the batch. If another writer holds the
      lock, append says whom it waits for after a second and exits 75 after '--wait' seconds.
      Once the batch is committed, a failure to print this summary is a warning (exit 0).
      Backfills: by default the ledger learns the events now, so answers '--as-of' an earlier
      time do not see them. '--recorded-as-at' records them as known when they happened (as if
      the log had held them all along); '--recorded-at T' as learned at T.
      See Docs/log-format.md, "Knowledge time and backfills".
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    let inputName = arguments.positionals.count > 1 ? arguments.positionals[1] : "-"
    let stamp: Timestamp?
    switch (arguments.value("recorded-at"), arguments.has("recorded-as-at")) {
    case (.some, true):
      throw UsageError(message: "Give at most one of '--recorded-at <time>' and '--recorded-as-at'.")
    case (.some(let text), false): stamp = try ArgumentParser.instant(text, option: "recorded-at", time: try ArgumentParser.timeInput(arguments))
    case (nil, true): stamp = nil
    case (nil, false): stamp = currentTimestamp()
    }
    let catalog = try CommandSupport.catalog(arguments, log: log, logMustExist: false)
    let input = try CommandSupport.input(inputName, console: console, limits: .batch)
    let report = try LogAppender.append(
      input: input, inputName: inputName == "-" ? "<stdin>" : inputName, logPath: log,
      catalog: catalog, now: stamp, wait: try CommandSupport.lockWait(arguments),
      waitNotice: CommandSupport.waitNotice(console, log: log))
    if report.linesWritten > 0 { console.noteCommitted(to: log) }
    CommandSupport.warn(report.warnings, console)
    console.out(
      "appended \(report.appended) event\(report.appended == 1 ? "" : "s") to \(log) "
        + "(\(report.duplicates) already present, \(report.stamped) stamped with recorded"
        + "\(CommandSupport.learnedEarlierClause(report)))\n")
    return 0
  }
}
