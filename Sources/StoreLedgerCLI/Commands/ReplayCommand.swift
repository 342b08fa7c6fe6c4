import StoreLedger

/// `storeledger replay LOG`: fold the whole log and report what it holds.
enum ReplayCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "replay", abstract: "Fold the whole log and summarise the state at its latest time.",
    usage: "replay <log|-> [--at <time>] [--shard <i/n>] [--snapshot <file>] [--catalog <file>]",
    positionals: [("<log|->", "The JSON-lines event log; '-' streams it from stdin (needs --catalog).")], requiredPositionals: 1,
    options: [
      .value("at", "time", "Count active entitlements at this time instead of the log's latest effective time."),
      CommandSpec.shardOption, CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Prints events read, duplicates skipped, subjects, the number of subjects holding each
      entitlement at the log's latest effective time, and the elapsed time and events per second.
      With --shard, every count is the shard's: the shards' counts add up to the whole log's
      (the active entitlements too when every shard is given the same --at).
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let started = monotonicNanoseconds()
    let at = try arguments.value("at").map { (text) throws(UsageError) in try ArgumentParser.instant(text, option: "at") }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    let latest = ledger.latestEffective
    let countedAt = at ?? latest
    let counts = ActiveEntitlements.count(in: ledger, at: countedAt)
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    let events = ledger.events.count + ledger.duplicatesSkipped
    var text = "events read: \(events)\n"
    text += "duplicates skipped: \(ledger.duplicatesSkipped)\n"
    text += "subjects: \(ledger.namedSubjectCount)\n"
    text += "latest effective time: \(ledger.events.isEmpty ? "none" : latest.rfc3339)\n"
    if !ledger.events.isEmpty || at != nil {
      text += "entitlements active at \(countedAt.rfc3339):"
      text += counts.isEmpty ? " none\n" : "\n" + counts.map { "  \(TerminalText.escaped($0.entitlement)): \($0.subjects)\n" }.joined()
    }
    let rate = seconds > 0 ? Int(Double(events) / seconds) : 0
    text += "elapsed: \(formatSeconds(seconds)) s (\(rate) events/s)\n"
    console.outText(text)
    return 0
  }
}

/// Formats seconds with three decimals without Foundation.
func formatSeconds(_ seconds: Double) -> String {
  let millis = Int((seconds * 1000).rounded())
  let fraction = String(millis % 1000)
  return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
