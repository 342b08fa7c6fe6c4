import StoreLedger
import StoreLedgerReport

/// `storeledger timeline LOG --subject S [--as-of R] [--format text|html]`.
enum TimelineCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "timeline", abstract: "Show one customer's history: states over time and every event.",
    usage: "timeline <log> --subject <id> [--as-of <time>] [--format text|html] [--no-index]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("subject", "id", "The subject (account) to show. Required."),
      .value("as-of", "time", "Knowledge time R: show only events recorded by then. Default: all."),
      .value("format", "format", "text (default: a table for terminals and tickets) or html (a picture)."),
      CommandSpec.snapshotOption, IndexedRead.option, CommandSpec.catalogOption,
    ],
    discussion: """
      A subject no event names is an error (exit 66), unlike 'query', which answers it with
      empty objects: a timeline of nobody is almost always a mistyped id.
      Example: storeledger timeline Events/demo.jsonl --subject u1 --format html > /tmp/u1.html
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let subject = arguments.value("subject") else {
      throw UsageError(message: "Missing expected option '--subject <id>'.")
    }
    let asOf = try arguments.value("as-of").map { (text) throws(UsageError) in
      try ArgumentParser.instant(text, option: "as-of")
    }
    let format = arguments.value("format") ?? "text"
    guard format == "text" || format == "html" else {
      throw UsageError(message: ReportCommand.choiceMessage("format", format, ["text", "html"]))
    }
    let (ledger, _) = try IndexedRead.ledger(arguments, console: console, subjects: [subject])
    let timeline = try CustomerTimeline.build(ledger: ledger, subject: subject, asOf: asOf)
    let erased = try ErasureNote.pseudonym(subject, log: CommandSupport.logPath(arguments))
    if format == "html" {
      console.out(timeline.html(erasureNote: erased))
    } else {
      if let erased { console.outText(erased + "\n") }
      console.outText(timeline.text)
    }
    return 0
  }
}
