import StoreLedger

/// `storeledger audit LOG --queries FILE|-`: one answer line per query line.
enum AuditCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "audit", abstract: "Answer many queries in bulk: one answer line per query line.",
    usage: "audit <log> --queries <file|-> [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("queries", "file|-", "JSON lines {\"subject\": …, \"at\": …, \"as_of\": …}; '-' reads stdin."),
      CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Every query line is checked before any answer is printed, so a bad query gives an error
      naming its line and no partial output. `as_of` is optional (null or absent: all knowledge).
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let queriesName = arguments.value("queries") else {
      throw UsageError(message: "Missing expected option '--queries <file|->'.")
    }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    let input = try CommandSupport.input(queriesName, console: console, limits: .queries)
    let batch = try QueryBatch.parse(input, file: queriesName == "-" ? "<stdin>" : queriesName)
    var engine = QueryEngine(ledger: ledger)
    engine.writeAnswers(batch) { console.outBytes($0) }
    return 0
  }
}
