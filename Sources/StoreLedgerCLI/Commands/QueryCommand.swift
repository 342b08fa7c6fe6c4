import StoreLedger

/// `storeledger query LOG --subject S [--at T] [--as-of R] [--explain]`.
enum QueryCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "query", abstract: "Answer what one subject held at a time, as known at a time.",
    usage: "query <log> --subject <id> [--at <time>] [--as-of <time>] [--tz <offset>] [--explain] [--pretty]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("subject", "id", "The subject (account) to answer for. Required."),
      .value("at", "time", "Effective time T: RFC 3339, a date (start of that day), now, today or yesterday. Default: now."),
      .value("as-of", "time", "Knowledge time R: count only events recorded by then (same forms). Default: all."),
      CommandSpec.tzOption,
      .flag("explain", "Add the ids and lines of the events that decided each answer."),
      .flag("pretty", "Print the answer indented over several lines."),
      CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Prints one JSON object: entitlements active at T, the plan in each subscription group, and
      balances. A subject the ledger has never seen gets empty objects, and a warning on stderr
      with the subjects nearest to it (case, whitespace, a typo).
      Example: storeledger query Events/demo.jsonl --subject u1 --at 2026-03-05
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let subject = arguments.value("subject") else {
      throw UsageError(message: "Missing expected option '--subject <id>'.")
    }
    let time = try ArgumentParser.timeInput(arguments)
    let at = try arguments.value("at").map { (text) throws(UsageError) in
      try ArgumentParser.instant(text, option: "at", time: time)
    } ?? time.now!
    let asOf = try arguments.value("as-of").map { (text) throws(UsageError) in
      try ArgumentParser.instant(text, option: "as-of", time: time)
    }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    var engine = QueryEngine(ledger: ledger)
    let answer = engine.answer(subject: subject, at: at, asOf: asOf, explain: arguments.has("explain"))
    let json = arguments.has("pretty") ? JSONWriter.pretty(answer.jsonValue) : JSONWriter.compact(answer.jsonValue)
    console.out(json + "\n")
    CommandSupport.warnIfUnknown(subject: subject, in: ledger, log: CommandSupport.logPath(arguments), console: console)
    return 0
  }
}
