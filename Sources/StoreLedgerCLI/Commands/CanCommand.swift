import StoreLedger

/// `storeledger can LOG --subject S --feature F [--at T] [--as-of R]`: the policy check an app
/// server makes before it runs an expensive request.
enum CanCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "can", abstract: "Say whether a subject may use a metered feature once more (exit 0 yes, 1 no).",
    usage:
      "can <log> --subject <id> --feature <name> [--at <time>] [--as-of <time> | --cached-at <time> [--max-staleness <duration>]] [--no-index]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("subject", "id", "The subject (account) asking. Required."),
      .value("feature", "name", "A feature of the catalog's policy. Required."),
    ] + PointInTime.options + [CommandSpec.snapshotOption, IndexedRead.option, CommandSpec.catalogOption],
    discussion: """
      Prints one JSON line saying why: the tier that decided, uses so far in its window, the
      limit and when the window ends; when not allowed, the first tier that would allow it.
      Exit 0 when allowed, 1 when not. Needs a catalog with a 'policy'.
      Example: storeledger can Events/policy/decide-daily.jsonl --subject sid-free --feature decision_session --at 2026-03-02T20:00:00Z
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let subject = arguments.value("subject") else {
      throw UsageError(message: "Missing expected option '--subject <id>'.")
    }
    guard let feature = arguments.value("feature") else {
      throw UsageError(message: "Missing expected option '--feature <name>'.")
    }
    let time = try PointInTime.parse(arguments)
    let log = CommandSupport.logPath(arguments)
    let catalog = try CommandSupport.catalog(arguments, log: log)
    guard let policy = catalog.policy else {
      throw DiagnosticList([
        Diagnostic(
          file: CommandSupport.catalogPath(arguments, log: log),
          .badCatalog("'can' needs a catalog with a 'policy' (tiers and features); this catalog has none"))
      ])
    }
    guard policy.featureIndex(of: feature) != nil else {
      let names = policy.features.map(\.name)
      let suggestion = ArgumentParser.closest(feature, among: names).map { " Did you mean '\($0)'?" } ?? ""
      throw UsageError(
        message:
          "Invalid value for '--feature': '\(feature)' is not a feature of the catalog's policy (\(names.joined(separator: ", "))).\(suggestion)"
      )
    }
    let (ledger, _) = try IndexedRead.ledger(arguments, console: console, subjects: [subject])
    // The answer for a subject without events (the free tier) stands, but is likely a typo.
    CommandSupport.warnIfUnknown(subject: subject, in: ledger, log: log, console: console)
    var engine = QueryEngine(ledger: ledger)
    guard let permission = engine.permission(
      subject: subject, feature: feature, at: time.at, asOf: time.asOf, cache: time.cache)
    else { preconditionFailure("the feature was checked against the same catalog") }
    console.out(JSONWriter.compact(permission.jsonValue(feature: feature)) + "\n")
    return permission.usage.allowed ? 0 : 1
  }
}
