import StoreLedger

/// `storeledger audit LOG --queries FILE|-`: one answer line per query line.
enum AuditCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "audit", abstract: "Answer many queries in bulk: one answer line per query line.",
    usage: "audit <log> --queries <file|-> [--tz <offset>] [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("queries", "file|-", "JSON lines {\"subject\": …, \"at\": …, \"as_of\": …}; '-' reads stdin."),
      CommandSpec.tzOption, CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Every query line is checked before any answer is printed, so a bad query gives an error
      naming its line and no partial output. `as_of` is optional (null or absent: all knowledge).
      `at` and `as_of` take the forms --at takes: RFC 3339, a date, now, today, yesterday.
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let queriesName = arguments.value("queries") else {
      throw UsageError(message: "Missing expected option '--queries <file|->'.")
    }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    let input = try CommandSupport.input(queriesName, console: console)
    let batch = try QueryBatch.parse(
      input, file: queriesName == "-" ? "<stdin>" : queriesName, time: try ArgumentParser.timeInput(arguments))
    var engine = QueryEngine(ledger: ledger)
    engine.writeAnswers(batch) { console.outBytes($0) }
    CommandSupport.warnIfUnknown(subjectsOf: batch, in: ledger, log: CommandSupport.logPath(arguments), console: console)
    return 0
  }
}
