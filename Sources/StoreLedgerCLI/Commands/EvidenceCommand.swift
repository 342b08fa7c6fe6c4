import StoreLedger

/// `storeledger evidence LOG (--request ID | --transaction T --at R) [--customer-consented]
/// [--format json|text]`: what to answer a store's refund request with. Never sends anything.
enum EvidenceCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "evidence", abstract: "Build the App Store's and Google Play's answers to a refund request (sends nothing).",
    usage:
      "evidence <log> (--request <id> | --transaction <id> --at <time>) [--customer-consented] [--format json|text]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("request", "id", "The id of the refund_requested event."),
      .value("transaction", "id", "Or the transaction the request is about (with --at)."),
      .value("at", "time", "The request's effective time (with --transaction)."),
      .flag("customer-consented", "The customer consented to sharing this data: the App Store body says so."),
      .value("format", "format", "json (default: the facts and both bodies) or text (in words, then the bodies)."),
      CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Reads the events effective before the request's 'at' and recorded by its 'recorded': the
      share of the purchase consumed (a consumable's credit, spends taking the oldest credits
      first; a period's time elapsed), whether a trial or sample came first, the customer's
      tenure and purchase and refund history, and the uses the purchase paid for. Prints the
      body of the App Store's Send Consumption Information (V2) and of Google Play's
      orders.reviewrefund, and what is still missing: Apple requires customerConsented, which
      only --customer-consented adds. The refund preference follows Docs/evidence.md's default
      policy or the catalog's 'refund_preference'. An unknown request is a usage error (64).
      Example: storeledger evidence Events/v13-support.jsonl --request q2 --format text
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let selector = try selector(arguments)
    let format = arguments.value("format") ?? "json"
    guard format == "json" || format == "text" else {
      throw UsageError(message: ReportCommand.choiceMessage("format", format, ["json", "text"]))
    }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    let evidence = try RefundEvidence.build(
      ledger: ledger, selector: selector, customerConsented: arguments.has("customer-consented"),
      logPath: CommandSupport.logPath(arguments))
    if format == "text" {
      console.outText(evidence.text)
    } else {
      console.out(JSONWriter.pretty(evidence.json) + "\n")
    }
    return 0
  }

  /// `--request ID`, or `--transaction T --at R`, never both.
  static func selector(_ arguments: ParsedArguments) throws(UsageError) -> RefundRequestSelector {
    switch (arguments.value("request"), arguments.value("transaction"), arguments.value("at")) {
    case (let id?, nil, nil):
      return .id(id)
    case (nil, let transaction?, let at?):
      return .transaction(transaction, at: try ArgumentParser.instant(at, option: "at"))
    case (nil, _?, nil):
      throw UsageError(message: "'--transaction' needs '--at <time>': the request's effective time.")
    case (nil, nil, _):
      throw UsageError(message: "Missing expected option '--request <id>' (or '--transaction <id> --at <time>').")
    default:
      throw UsageError(message: "Name the request by '--request <id>' or by '--transaction <id> --at <time>', not both.")
    }
  }
}
