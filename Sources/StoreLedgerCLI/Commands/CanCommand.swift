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
    var engine = QueryEngine(ledger: ledger)
    guard let permission = engine.permission(
      subject: subject, feature: feature, at: time.at, asOf: time.asOf, cache: time.cache)
    else { preconditionFailure("the feature was checked against the same catalog") }
    console.out(JSONWriter.compact(json(permission, feature: feature)) + "\n")
    return permission.usage.allowed ? 0 : 1
  }

  /// The answer line: the decision, its numbers, and a sentence saying why.
  static func json(_ permission: Permission, feature: String) -> JSONValue {
    func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }
    let usage = permission.usage
    return .object([
      ("subject", .string(permission.subject)), ("feature", .string(feature)), ("at", time(permission.at)),
      ("as_of", time(permission.asOf)), ("allowed", .bool(usage.allowed)),
      ("tier", usage.tier.map { .string($0) } ?? .null), ("used", .integer(usage.used)),
      ("limit", usage.limit.map { .integer($0) } ?? .null), ("window_ends", time(usage.windowEnds)),
      ("would_allow", permission.wouldAllow.map { .string($0) } ?? .null),
      ("reason", .string(reason(permission, feature: feature))),
    ])
  }

  static func reason(_ permission: Permission, feature: String) -> String {
    let usage = permission.usage
    let window = usage.windowEnds.map { " until \($0.rfc3339)" } ?? ""
    let upgrade = permission.wouldAllow.map { "; tier '\($0)' would allow it" } ?? ""
    guard let tier = usage.tier else {
      return "no tier the subject is in offers '\(feature)'\(upgrade)"
    }
    guard let limit = usage.limit else { return "unlimited in tier '\(tier)'" }
    if usage.allowed { return "\(usage.used) of \(limit) used in tier '\(tier)'\(window)" }
    return "limit reached: \(usage.used) of \(limit) used in tier '\(tier)'\(window)\(upgrade)"
  }
}
