import StoreLedger

/// A subcommand: its command-line shape and what it does.
protocol LedgerCommand {
  static var spec: CommandSpec { get }
  /// Runs the command; returns the exit code or throws a typed error.
  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}

/// A registered subcommand (a value, not an existential metatype, to keep dispatch simple).
struct CommandEntry {
  let spec: CommandSpec
  let run: (ParsedArguments, Console) throws -> Int32

  init<Command: LedgerCommand>(_ command: Command.Type) {
    spec = Command.spec
    run = Command.run
  }
}

/// The `storeledger` entry point, testable in-process.
enum StoreLedgerCLI {
  /// What `storeledger --version` prints: the version of the log format and answers it implements.
  static let version = "storeledger 1.1.0"

  static var commands: [CommandEntry] {
    [
      CommandEntry(CheckCommand.self), CommandEntry(ReplayCommand.self),
      CommandEntry(QueryCommand.self), CommandEntry(CanCommand.self), CommandEntry(AuditCommand.self),
      CommandEntry(AppendCommand.self), CommandEntry(RepairCommand.self), CommandEntry(EraseCommand.self),
      CommandEntry(GenerateCommand.self), CommandEntry(SnapshotCommand.self),
      CommandEntry(DiffCommand.self), CommandEntry(ImportCommand.self),
      CommandEntry(ReportCommand.self), CommandEntry(TimelineCommand.self), CommandEntry(FindCommand.self),
      CommandEntry(EvidenceCommand.self),
      CommandEntry(SplitCommand.self), CommandEntry(IndexCommand.self), CommandEntry(PolicyCommand.self),
      CommandEntry(ServeCommand.self),
      CommandEntry(CompletionCommand.self),
    ]
  }

  static var overview: String {
    var text = """
      OVERVIEW: StoreLedger: an event-sourced ledger of in-app purchases. It folds a JSON-lines
      event log into entitlements, plans and balances at any effective time (--at) and knowledge
      time (--as-of).

      USAGE: storeledger <subcommand> [options]

      SUBCOMMANDS:

      """
    for command in commands {
      text += "  " + command.spec.name.padding(12) + command.spec.abstract + "\n"
    }
    text += """

      Exit codes: 0 success, 1 differences found (snapshot --check, diff), 64 usage error,
      65 bad data, 66 missing or unreadable input, 74 I/O error while writing (the log unchanged),
      75 another writer held the log's lock past --wait.
      See 'storeledger help <subcommand>' for details; 'storeledger --version' prints the version.

      """
    return text
  }

  /// The generated part of Docs/commands.md: every command's `--help`, from the same option
  /// tables, so the reference cannot drift from the tool.
  static var commandReference: String {
    var text = "## Every command's --help (generated)\n"
    for command in commands {
      text += "\n### \(command.spec.name)\n\n```text\n\(command.spec.helpText)```\n"
    }
    return text
  }

  /// Runs with arguments (without the program name); returns the exit code.
  static func run(arguments: [String], console: Console) -> Int32 {
    guard let name = arguments.first else {
      console.err(overview)
      return 64
    }
    if name == "--version" {
      console.out(version + "\n")
      return 0
    }
    if name == "--help" || name == "-h" || (name == "help" && arguments.count == 1) {
      console.out(overview)
      return 0
    }
    if name == "help" {
      // `storeledger help <subcommand>` is `storeledger <subcommand> --help`.
      return run(arguments: [arguments[1], "--help"], console: console)
    }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
      let suggestion = NearMatch.closest(name, among: commands.map(\.spec.name))
      console.err(
        "Error: Unknown subcommand '\(name)'."
          + (suggestion.map { " Did you mean '\($0)'?" } ?? "")
          + "\nUsage: storeledger <subcommand> [options]\n  See 'storeledger --help' for more information.\n")
      return 64
    }
    let spec = command.spec
    do {
      let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
      if parsed.wantsHelp {
        console.out(spec.helpText)
        return 0
      }
      return try command.run(parsed, console)
    } catch let error as UsageError {
      console.err(
        "Error: \(error.message)\nUsage: storeledger \(spec.usage)\n  See 'storeledger \(spec.name) --help' for more information.\n")
      return 64
    } catch let list as DiagnosticList {
      report(list.diagnostics, console: console)
      return list.exitCode
    } catch let diagnostic as Diagnostic {
      report([diagnostic], console: console)
      return diagnostic.exitCode
    } catch {
      console.err("error: \(error)\n")
      return 70
    }
  }

  /// Prints diagnostics to stderr, one per line, with a count of those not shown.
  /// At most `Limits.diagnosticsShownMax` are printed, whoever produced the list (importers too).
  static func report(_ diagnostics: [Diagnostic], console: Console, total: Int? = nil) {
    var text = ""
    for diagnostic in diagnostics.prefix(Limits.diagnosticsShownMax) { text += diagnostic.description + "\n" }
    let errors = diagnostics.prefix(Limits.diagnosticsShownMax).filter { $0.severity == .error }.count
    let found = max(total ?? 0, diagnostics.filter { $0.severity == .error }.count)
    if found > errors {
      text += "… and \(found - errors) more \(found - errors == 1 ? "error" : "errors") not shown\n"
    }
    console.err(text)
  }
}

/// Loading shared by the commands that read a log.
enum CommandSupport {
  /// ", N learned earlier" when an append wrote redeliveries with an earlier `recorded`, else "".
  static func learnedEarlierClause(_ report: AppendReport) -> String {
    report.learnedEarlier == 0 ? "" : ", \(report.learnedEarlier) learned earlier than the log had them"
  }

  static func logPath(_ arguments: ParsedArguments) -> String { arguments.positionals[0] }

  static func catalogPath(_ arguments: ParsedArguments, log: String) -> String {
    arguments.value("catalog") ?? LedgerLoader.defaultCatalogPath(forLog: log)
  }

  /// Loads the catalog. A missing log is named first when `logMustExist` (it is the likelier
  /// mistake); a missing default catalog says where it was looked for and how to name another.
  /// `--catalog -` reads the catalog from stdin; a log read from stdin needs `--catalog`.
  static func catalog(
    _ arguments: ParsedArguments, log: String, logMustExist: Bool = true, console: Console? = nil
  ) throws -> Catalog {
    if log == "-" {
      guard let named = arguments.value("catalog"), named != "-" else {
        throw UsageError(message: "A log read from stdin ('-') needs '--catalog <file>' (a file, not '-').")
      }
    } else if logMustExist && !PlatformFile.exists(log) {
      throw DiagnosticList([Diagnostic(.fileNotFound(path: log))])
    }
    if arguments.value("catalog") == "-", let console {
      let bytes = try console.readInput()
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw Diagnostic(file: "<stdin>", .badCatalog("not valid UTF-8"))
      }
      return try Catalog.parse(text, file: "<stdin>")
    }
    let path = catalogPath(arguments, log: log)
    if arguments.value("catalog") == nil && !PlatformFile.exists(path) {
      throw DiagnosticList([Diagnostic(.defaultCatalogNotFound(path: path, log: log))])
    }
    return try LedgerLoader.loadCatalog(path: path)
  }

  /// The `--shard i/n` of a command, if given (a bad value is a usage error).
  static func shard(_ arguments: ParsedArguments) throws(UsageError) -> Shard? {
    guard let text = arguments.value("shard") else { return nil }
    switch Shard.parse(text) {
    case .success(let shard): return shard
    case .failure(let error): throw UsageError(message: error.message(option: "shard"))
    }
  }

  /// Loads the log named by the first positional argument (with `--snapshot` when given), only
  /// the subjects of `--shard` when given; `-` streams the log from stdin. A command that goes on
  /// after loading passes its own `progress` line (reading, then folding), cleared by the command.
  static func ledger(
    _ arguments: ParsedArguments, console: Console, progress: ProgressLine? = nil
  ) throws -> (Ledger, LogExtent) {
    let log = logPath(arguments)
    if [log, arguments.value("catalog"), arguments.value("queries")].filter({ $0 == "-" }).count > 1 {
      throw UsageError(message: "Only one input can be read from stdin ('-').")
    }
    var shard = try shard(arguments)
    // Subjects joined by transfers stay in one shard: found by a first pass over a file.
    if shard != nil { shard?.groups = log == "-" ? .unknown : try ShardGroups.scan(path: log) }
    let catalog = try catalog(arguments, log: log, console: console)
    let snapshot = arguments.value("snapshot")
    let loaded: (ledger: Ledger, extent: LogExtent)
    if log == "-" {
      guard snapshot == nil else {
        throw UsageError(message: "'--snapshot' needs the log as a file: a snapshot covers a file's first bytes.")
      }
      loaded = try LedgerOpening.ledger(
        .stream(name: "<stdin>") { (buffer) throws(Diagnostic) in try console.readSome(into: buffer) },
        catalog: catalog, catalogPath: catalogPath(arguments, log: log), shard: shard)
    } else {
      let line = snapshot == nil ? progress ?? console.progress(reading: log) : nil
      defer { if progress == nil { line?.finish() } }
      loaded = try LedgerOpening.ledger(
        .file(log), catalog: catalog, catalogPath: catalogPath(arguments, log: log), snapshotPath: snapshot, shard: shard,
        progress: CommandSupport.progress(line))
    }
    warnAboutReading(loaded.ledger, console)
    return loaded
  }

  /// What `line` shows while a log is read: the bytes read, then that folding began.
  static func progress(_ line: ProgressLine?) -> LedgerOpening.Progress? {
    line.map { line in LedgerOpening.Progress(reading: line.update, folding: { line.begin("folding " + line.label) }) }
  }

  /// The warnings of reading a log that a command that only answers still shows: a torn last
  /// line, and an unfinished append's record another file left. The rest are `check`'s to say.
  static func warnAboutReading(_ ledger: Ledger, _ console: Console) {
    warn(
      ledger.warnings.filter {
        switch $0.problem {
        case .tornLastLine, .foreignIntentRecord: return true
        default: return false
        }
      }, console)
  }

  /// Subjects listed by name in the warning about queries for subjects without events.
  static let unknownSubjectsShownMax = 5

  /// Warns on stderr when `subject` has no events in the log: the empty answer stands, but
  /// a typo (`U1`, `" u1"`) must not read as "not entitled".
  static func warnIfUnknown(subject: String, in ledger: Ledger, log: String, console: Console) {
    guard !ledger.knows(subject: subject) else { return }
    warn([Diagnostic(file: log, .subjectWithoutEvents(ledger.subjectHint(subject)), severity: .warning)], console)
  }

  /// One bounded warning for every query of `batch` whose subject has no events in the log.
  static func warnIfUnknown(subjectsOf batch: QueryBatch, in ledger: Ledger, log: String, console: Console) {
    var queries = 0
    var shown: [String] = []
    var queriesOfShown = 0
    batch.forEach { subject, _, _ in
      guard ledger.symbols.subjects.lookup(subject) == nil else { return }
      let name = String(decoding: subject, as: UTF8.self)
      guard !ledger.knows(subject: name) else { return }
      queries += 1
      if shown.contains(name) {
        queriesOfShown += 1
      } else if shown.count < unknownSubjectsShownMax {
        shown.append(name)
        queriesOfShown += 1
      }
    }
    guard queries > 0 else { return }
    let hints = shown.map { ledger.subjectHint($0) }
    warn([Diagnostic(file: log, .subjectsWithoutEvents(queries: queries, shown: hints, more: queries - queriesOfShown), severity: .warning)], console)
  }

  /// The longest a writer waits for the log's lock: `--wait SECONDS` (0 to 86400, decimals allowed), else 10 s.
  static func lockWait(_ arguments: ParsedArguments) throws(UsageError) -> LogLock.Wait {
    guard let text = arguments.value("wait") else { return .standard }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
      throw UsageError(message: "Invalid value for '--wait': expected seconds from 0 to 86400, found '\(text)'.")
    }
    return LogLock.Wait(limitMilliseconds: Int((seconds * 1000).rounded()))
  }

  /// What a writer says on stderr once it has waited a second for the lock.
  static func waitNotice(_ console: Console, log: String) -> (String) -> Void {
    { holder in console.err("waiting for the lock on \(log), held by \(holder)\n") }
  }

  static func warn(_ warnings: [Diagnostic], _ console: Console) {
    guard !warnings.isEmpty else { return }
    console.err(warnings.map { $0.description + "\n" }.joined())
  }

  /// Reads a named file, or stdin for `-`, stopping as soon as it passes `limits`.
  static func input(_ name: String, console: Console, limits: InputLimits = .document) throws(Diagnostic) -> [UInt8] {
    if name == "-" { return try console.readInput(name: "<stdin>", limits: limits) }
    return try LedgerLoader.readFile(name, limits: limits)
  }
}
