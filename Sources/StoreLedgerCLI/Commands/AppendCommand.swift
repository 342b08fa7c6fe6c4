import StoreLedger

/// `storeledger append LOG [FILE|-]`: add events, all or nothing, durably.
enum AppendCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "append", abstract: "Append new events to a log: validated, all or nothing, fsynced.",
    usage: "append <log> [<file|->] [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log (created if absent)."), ("<file|->", "New events as JSON lines; '-' or absent reads stdin.")],
    requiredPositionals: 1, options: [CommandSpec.catalogOption],
    discussion: """
      Holds an exclusive lock on the log, checks the new events against the log as it stands
      (every field, id conflicts, transactions charged twice, overdraw, unknown products), stamps
      `recorded` with the current time where absent, writes the whole batch or nothing and fsyncs
      before reporting success. Events already in the log are skipped: re-appending is a no-op.
      A log ending in a torn line must be repaired first ('storeledger repair').
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    let inputName = arguments.positionals.count > 1 ? arguments.positionals[1] : "-"
    let catalog = try CommandSupport.catalog(arguments, log: log)
    let input = try CommandSupport.input(inputName, console: console, limits: .batch)
    let report = try LogAppender.append(
      input: input, inputName: inputName == "-" ? "<stdin>" : inputName, logPath: log,
      catalog: catalog, now: currentTimestamp())
    console.out(
      "appended \(report.appended) event\(report.appended == 1 ? "" : "s") to \(log) "
        + "(\(report.duplicates) already present, \(report.stamped) stamped with recorded)\n")
    return 0
  }
}
