import StoreLedger
import StoreLedgerGenerate

/// `storeledger generate --subjects N --seed S --out LOG`: a deterministic, production-like log.
enum GenerateCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "generate", abstract: "Write a deterministic, production-like log and its catalog.",
    usage:
      "generate --subjects <n> --seed <s> --out <log> [--months <m>] [--start <time>] [--usage <level>] [--contract <version>] [--transfers] [--force]",
    positionals: [], requiredPositionals: 0,
    options: [
      .value("subjects", "n", "Number of customers (about 12 events each). Required."),
      .value("seed", "s", "Seed: the same seed gives byte-identical output. Required."),
      .value("out", "log", "The log to write; catalog.json is written beside it. Required."),
      .value("months", "m", "Length of the simulated history (default 24)."),
      .value("start", "time", "Start of the history (default 2024-01-01T00:00:00Z)."),
      .value(
        "usage", "level",
        "none, typical (default) or heavy: how much metered usage; none writes the v1 log and catalog."),
      .value(
        "contract", "version",
        "1.2 (default) or 1.3: 1.3 adds grants, blocks, refund requests and declines, prorated and partial refunds, and store, country and proceeds on charges."
      ),
      .flag(
        "transfers",
        "With --contract 1.3: also move purchases to customers' other accounts and back (transfer, contract 9)."),
      .flag("force", "Overwrite an existing log and catalog."),
    ],
    discussion: """
      Simulates monthly and annual plans with trials and intro offers, renewals, billing
      failures into grace or retry (most recover), cancellations, upgrades and downgrades,
      refunds and reversals, Family Sharing, lifetime unlocks, passes, consumables, Ask to Buy,
      and the faults of real pipelines: out-of-order delivery, late knowledge and redelivered
      duplicates. With usage (the default), the catalog has a policy modelled on the seed apps
      (daily AI query limits, saved items, a Pro-only export, a usage-based trial, an intro week,
      days in UTC-05:00) and most lines are usage: sessions of queries, saves and releases, free
      users at their limits and a few leaks from buggy clients. With --contract 1.3, support
      grants (some expiring, some revoked), blocks by fraud, consent and chargeback services
      (mostly lifted later), refund requests (granted or declined), prorated subscription
      refunds and refunds of some of a purchase's coin packs are written too, and charges say
      their store, country and proceeds; with --transfers, purchases also move between a
      customer's accounts. Every generated log passes 'storeledger check'.
      Example: storeledger generate --subjects 100000 --seed 1 --out /tmp/big/log.jsonl
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    func integer(_ name: String) throws(UsageError) -> Int? {
      guard let text = arguments.value(name) else { return nil }
      guard let value = Int(text), value >= 0 else {
        throw UsageError(message: "Invalid value for '--\(name)': '\(text)' (expected a non-negative integer).")
      }
      return value
    }
    guard let subjects = try integer("subjects") else {
      throw UsageError(message: "Missing expected option '--subjects <n>'.")
    }
    guard let seedText = arguments.value("seed") else {
      throw UsageError(message: "Missing expected option '--seed <s>'.")
    }
    guard let seed = UInt64(seedText) else {
      throw UsageError(message: "Invalid value for '--seed': '\(seedText)' (expected an unsigned integer).")
    }
    guard let out = arguments.value("out") else {
      throw UsageError(message: "Missing expected option '--out <log>'.")
    }
    var options = GeneratorOptions(subjects: subjects, seed: seed)
    if let months = try integer("months") { options.months = months }
    if let start = arguments.value("start") { options.start = try ArgumentParser.instant(start, option: "start", time: TimeInput()) }
    try readContent(arguments, into: &options)
    if let problem = options.problem { throw UsageError(message: problem) }
    let catalogPath = LedgerLoader.defaultCatalogPath(forLog: out)
    if PlatformFile.identity(out) != nil && PlatformFile.identity(out) == PlatformFile.identity(catalogPath)
      || out == catalogPath
    {
      throw UsageError(message: "'\(out)' would be both the log and its catalog; name the log something else.")
    }
    let started = monotonicNanoseconds()
    // Both files are written under temporary names and renamed only when both are complete:
    // a failure leaves no partial or temporary file.
    let force = arguments.has("force")
    let catalogFile = try PendingFile(replacing: catalogPath, force: force)
    let log = try PendingFile(replacing: out, force: force)
    try catalogFile.file.write(Array(LogGenerator.catalogJSON(for: options.usage).utf8))
    let stats = try LogGenerator(options: options).generate { (chunk) throws(Diagnostic) in
      try log.file.write(chunk)
    }
    try catalogFile.commit()
    try log.commit()
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    console.out(
      "wrote \(out): \(Plural.counted(stats.lines, "line")) (\(Plural.counted(stats.events, "event")) of which \(stats.count(of: .usage)) usage, "
        + "\(Plural.counted(stats.duplicates, "redelivered duplicate"))), "
        + "\(Plural.counted(stats.subjects, "subject")), \(Plural.counted(stats.bytes, "byte")) in \(formatSeconds(seconds)) s\n"
        + contract13Summary(stats, options: options)
        + "wrote \(catalogPath)\n")
    return 0
  }

  /// `--usage`, `--contract` and `--transfers`: what the log holds.
  static func readContent(_ arguments: ParsedArguments, into options: inout GeneratorOptions) throws(UsageError) {
    if let level = arguments.value("usage") {
      guard let usage = UsageLevel(rawValue: level) else {
        throw UsageError(message: "Invalid value for '--usage': '\(level)' (expected none, typical or heavy).")
      }
      options.usage = usage
    }
    if let version = arguments.value("contract") {
      guard let contract = GeneratedContract(rawValue: version) else {
        throw UsageError(message: "Invalid value for '--contract': '\(version)' (expected 1.2 or 1.3).")
      }
      options.contract = contract
    }
    if arguments.has("transfers") {
      guard options.contract == .v1_3 else {
        throw UsageError(message: "'--transfers' needs '--contract 1.3' (transfer is a contract v1.3 event).")
      }
      options.transfers = true
    }
  }

  /// What a v1.3 log holds of the v1.3 types, on a line of its own; empty for a v1.2 log.
  static func contract13Summary(_ stats: GeneratorStats, options: GeneratorOptions) -> String {
    guard options.contract == .v1_3 else { return "" }
    let refundNotices = stats.count(of: .refundRequested) + stats.count(of: .refundDeclined)
    var parts = [
      Plural.counted(stats.count(of: .grant) + stats.count(of: .grantRevoked), "grant event"),
      Plural.counted(stats.count(of: .block) + stats.count(of: .unblock), "block event"),
      Plural.counted(refundNotices, "refund notice"),
    ]
    if options.transfers { parts.append(Plural.counted(stats.transfers, "transfer")) }
    return "contract v1.3: " + parts.joined(separator: ", ") + "\n"
  }
}
