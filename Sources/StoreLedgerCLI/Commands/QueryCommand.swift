import StoreLedger
import StoreLedgerReport

/// `storeledger query LOG --subject S [--at T] [--as-of R] [--explain]`.
enum QueryCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "query", abstract: "Answer what one subject held at a time, as known at a time.",
    usage:
      "query <log> --subject <id> [--at <time> | --during <day>] [--as-of <time> | --cached-at <time> [--max-staleness <duration>]] [--tz <zone>] [--explain] [--format json|text|reply] [--usage] [--pretty] [--no-index]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("subject", "id", "The subject (account) to answer for. Required."),
    ] + PointInTime.options + [
      .value("during", "day", "Instead of --at: when, during that day, the subject held each entitlement (full knowledge)."),
      .flag(
        "explain",
        "Add the events that decided each answer, and why an entitlement held at other times is absent; in text, "
          + "each yes and no names its deciding event, when it took effect and when the ledger learned of it."),
      .value(
        "format", "json|text|reply",
        "json (default): the answer object; text: sentences for people; reply: sentences to paste to the customer "
          + "(no ids, dates in the --tz zone)."),
      .flag("usage", "With --format reply: add a sentence on each feature's usage."),
      .flag("pretty", "Print the JSON answer indented over several lines."),
      CommandSpec.snapshotOption, IndexedRead.option, CommandSpec.catalogOption,
    ],
    discussion: """
      Prints one JSON object: entitlements active at T, the plan in each subscription group, and
      balances; with a catalog policy also the tier, the usage-based trial and every feature's
      usage. A subject the ledger has never seen gets empty objects, and a warning on stderr
      with the subjects nearest to it (case, whitespace, a typo).
      Example: storeledger query Events/grace-recovery.jsonl --subject hank --at 2026-03-10 --format reply --tz Europe/Paris
      Example: storeledger query Events/demo.jsonl --subject u1 --at 2026-03-05
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let subject = arguments.value("subject") else {
      throw UsageError(message: "Missing expected option '--subject <id>'.")
    }
    let time = try PointInTime.parse(arguments)
    let format = arguments.value("format") ?? "json"
    guard ["json", "text", "reply"].contains(format) else {
      throw UsageError(message: "Invalid value for '--format': '\(format)' (expected json, text or reply).")
    }
    guard format == "reply" || !arguments.has("usage") else {
      throw UsageError(message: "'--usage' only applies to '--format reply' (text and json always show usage).")
    }
    if let dayText = arguments.value("during") {
      try during(dayText, subject: subject, format: format, time: time, arguments, console: console)
      return 0
    }
    let (ledger, _) = try IndexedRead.ledger(arguments, console: console, subjects: [subject])
    var engine = QueryEngine(ledger: ledger)
    let explain = arguments.has("explain") || format != "json"
    var answer = engine.answer(subject: subject, at: time.at, asOf: time.asOf, cache: time.cache, explain: explain)
    let absent = explain ? AbsentEntitlement.explain(&answer, ledger: ledger) : []
    if format == "reply" {
      let zone = try ArgumentParser.zone(arguments) ?? .utc
      let sentences = SupportReply.sentences(answer, ledger: ledger, zone: zone, usage: arguments.has("usage"))
      console.outText(sentences.map { TerminalText.escaped($0) + "\n" }.joined())
    } else if format == "text" {
      var current: (Holdings, [AbsentEntitlement.Named])? = nil
      if time.asOf != nil || time.cache != nil {
        var now = engine.answer(subject: subject, at: time.at, asOf: nil, explain: true)
        if now.entitlements != answer.entitlements || now.plans != answer.plans || now.balances != answer.balances {
          current = (now, AbsentEntitlement.explain(&now, ledger: ledger))
        }
      }
      console.outText(
        QueryText.text(answer, absent: absent, current: current, ledger: ledger, explain: arguments.has("explain")))
    } else {
      let value = answer.jsonValue
      console.out((arguments.has("pretty") ? JSONWriter.pretty(value) : JSONWriter.compact(value)) + "\n")
    }
    CommandSupport.warnIfUnknown(subject: subject, in: ledger, log: CommandSupport.logPath(arguments), console: console)
    return 0
  }

  /// `--during <day>`: when, during that day, the subject held each entitlement (full knowledge).
  private static func during(
    _ dayText: String, subject: String, format: String, time: PointInTime, _ arguments: ParsedArguments, console: Console
  ) throws {
    guard format != "reply" else { throw UsageError(message: "'--format reply' answers at one time: drop '--during'.") }
    guard arguments.value("at") == nil, time.asOf == nil, time.cache == nil else {
      throw UsageError(message: "'--during <day>' answers at full knowledge over a day: drop '--at' and '--as-of'.")
    }
    var dayTime = try ArgumentParser.timeInput(arguments, zoneNames: true)
    dayTime.now = nil
    let dayError = UsageError(message: "Invalid value for '--during': '\(dayText)' (expected a date such as 2026-03-05).")
    guard dayText.utf8.count == 10,
      let from = try? ArgumentParser.instant(dayText, option: "during", time: dayTime, zone: ArgumentParser.zone(arguments))
    else { throw dayError }
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
  }
}
