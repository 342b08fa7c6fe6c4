import StoreLedger

/// `storeledger query LOG --subject S [--at T] [--as-of R] [--explain]`.
enum QueryCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "query", abstract: "Answer what one subject held at a time, as known at a time.",
    usage:
      "query <log> --subject <id> [--at <time>] [--as-of <time> | --cached-at <time> [--max-staleness <duration>]] [--explain] [--pretty]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("subject", "id", "The subject (account) to answer for. Required."),
    ] + PointInTime.options + [
      .flag("explain", "Add the ids and lines of the events that decided each answer."),
      .flag("pretty", "Print the answer indented over several lines."),
      CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Prints one JSON object: entitlements active at T, the plan in each subscription group, and
      balances; with a catalog policy also the tier, the usage-based trial and every feature's
      usage. A subject the ledger has never seen gets empty objects.
      Example: storeledger query Events/demo/demo.jsonl --subject u1 --at 2026-03-05
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let subject = arguments.value("subject") else {
      throw UsageError(message: "Missing expected option '--subject <id>'.")
    }
    let time = try PointInTime.parse(arguments)
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    var engine = QueryEngine(ledger: ledger)
    let answer = engine.answer(
      subject: subject, at: time.at, asOf: time.asOf, cache: time.cache, explain: arguments.has("explain"))
    let json = arguments.has("pretty") ? JSONWriter.pretty(answer.jsonValue) : JSONWriter.compact(answer.jsonValue)
    console.out(json + "\n")
    return 0
  }
}
