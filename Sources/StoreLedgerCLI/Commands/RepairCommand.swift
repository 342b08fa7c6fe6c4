import StoreLedger

/// `storeledger repair LOG`: move a torn last line aside.
enum RepairCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "repair", abstract: "Move a torn last line into LOG.torn and cut the log to its last full line.",
    usage: "repair <log> [--discard-intent] [--wait <seconds>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .flag("discard-intent", "Remove an append intent record that does not describe this log (see below)."),
      CommandSpec.waitOption,
    ],
    discussion: """
      An append killed mid-write leaves LOG.intent: repair rolls its unfinished batch back (the
      next append and every reader do the same on their own; see Docs/durability.md).
      A torn last line (no final newline) is what an interrupted writer leaves. repair appends it
      to LOG.torn (never overwriting earlier torn lines) and truncates the log after its last
      newline, under the same lock appenders use. Complete lines are never changed, and a last
      line that is complete but lacks its newline is not torn: it stays (append adds the newline).
      An intent record that does not describe this log (the log was replaced, truncated or
      edited since, or the record was copied from elsewhere) is never used to cut the log:
      repair refuses (exit 65) unless --discard-intent, which removes that record only.
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    guard PlatformFile.exists(log) else { throw Diagnostic(.fileNotFound(path: log)) }
    let report = try LogRepair.repair(
      logPath: log, discardIntent: arguments.has("discard-intent"), wait: try CommandSupport.lockWait(arguments),
      waitNotice: CommandSupport.waitNotice(console, log: log))
    if report.rolledBackBytes > 0 {
      console.out("rolled back \(Plural.counted(report.rolledBackBytes, "byte")) of an interrupted append\n")
    }
    if report.movedBytes == 0 {
      console.out("\(log) ends with a complete line; nothing to repair\n")
    } else {
      console.out("moved \(Plural.counted(report.movedBytes, "torn byte")) to \(log).torn; \(log) is now \(Plural.counted(report.logBytes, "byte"))\n")
    }
    return 0
  }
}
