import StoreLedger

/// `storeledger query LOG --subject S [--at T] [--as-of R] [--explain]`.
enum QueryCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "query", abstract: "Answer what one subject held at a time, as known at a time.",
    usage:
      "query <log> --subject <id> [--at <time> | --during <day>] [--as-of <time> | --cached-at <time> [--max-staleness <duration>]] [--tz <offset>] [--explain] [--format json|text] [--pretty] [--no-index]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("subject", "id", "The subject (account) to answer for. Required."),
    ] + PointInTime.options + [
      .value("during", "day", "Instead of --at: when, during that day, the subject held each entitlement (full knowledge)."),
      .flag("explain", "Add the events that decided each answer, and why an entitlement held at other times is absent."),
      .value("format", "json|text", "json (default): the answer object; text: sentences for people."),
      .flag("pretty", "Print the JSON answer indented over several lines."),
      CommandSpec.snapshotOption, IndexedRead.option, CommandSpec.catalogOption,
    ],
    discussion: """
      Prints one JSON object: entitlements active at T, the plan in each subscription group, and
      balances; with a catalog policy also the tier, the usage-based trial and every feature's
      usage. A subject the ledger has never seen gets empty objects, and a warning on stderr
      with the subjects nearest to it (case, whitespace, a typo).
      Example: storeledger query Events/demo.jsonl --subject u1 --at 2026-03-05
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let subject = arguments.value("subject") else {
      throw UsageError(message: "Missing expected option '--subject <id>'.")
    }
    let time = try PointInTime.parse(arguments)
    let format = arguments.value("format") ?? "json"
    guard format == "json" || format == "text" else {
      throw UsageError(message: "Invalid value for '--format': '\(format)' (expected json or text).")
    }
    if let dayText = arguments.value("during") {
      guard arguments.value("at") == nil, time.asOf == nil, time.cache == nil else {
        throw UsageError(message: "'--during <day>' answers at full knowledge over a day: drop '--at' and '--as-of'.")
      }
      var dayTime = try ArgumentParser.timeInput(arguments)
      dayTime.now = nil
      guard case .success(let from) = dayTime.parse(dayText), dayText.utf8.count == 10 else {
        throw UsageError(message: "Invalid value for '--during': '\(dayText)' (expected a date such as 2026-03-05).")
      }
      let to = from.adding(milliseconds: 86_400_000)
      guard to.isReadable else {
        throw UsageError(
          message: "Invalid value for '--during': '\(dayText)' ends at \(to.rfc3339), after \(Timestamp.latest.rfc3339), "
            + "the latest time the tool can print and read back.")
      }
      let (ledger, _) = try IndexedRead.ledger(arguments, console: console, subjects: [subject])
      let held = QueryText.during(subject: subject, from: from, to: to, ledger: ledger)
      if format == "text" {
        console.outText(QueryText.duringText(subject: subject, from: from, to: to, held: held))
      } else {
        let json = QueryText.duringJSON(subject: subject, from: from, to: to, held: held)
        console.out((arguments.has("pretty") ? JSONWriter.pretty(json) : JSONWriter.compact(json)) + "\n")
      }
      CommandSupport.warnIfUnknown(subject: subject, in: ledger, log: CommandSupport.logPath(arguments), console: console)
      return 0
    }
    let (ledger, _) = try IndexedRead.ledger(arguments, console: console, subjects: [subject])
    var engine = QueryEngine(ledger: ledger)
    let explain = arguments.has("explain") || format == "text"
    let answer = engine.answer(subject: subject, at: time.at, asOf: time.asOf, cache: time.cache, explain: explain)
    let absent = explain ? QueryText.absent(from: answer, ledger: ledger) : []
    if format == "text" {
      var current: (Answer, [AbsentEntitlement])? = nil
      if time.asOf != nil || time.cache != nil {
        let now = engine.answer(subject: subject, at: time.at, asOf: nil, explain: true)
        if now.entitlements != answer.entitlements || now.plans != answer.plans
          || !now.balances.elementsEqual(answer.balances, by: { $0 == $1 })
        {
          current = (now, QueryText.absent(from: now, ledger: ledger))
        }
      }
      console.outText(QueryText.text(answer, absent: absent, current: current, ledger: ledger))
    } else {
      var value = answer.jsonValue
      if arguments.has("explain") { value = QueryText.withAbsent(value, absent) }
      console.out((arguments.has("pretty") ? JSONWriter.pretty(value) : JSONWriter.compact(value)) + "\n")
    }
    CommandSupport.warnIfUnknown(subject: subject, in: ledger, log: CommandSupport.logPath(arguments), console: console)
    return 0
  }
}
