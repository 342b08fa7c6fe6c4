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
  static var commands: [CommandEntry] {
    [
      CommandEntry(CheckCommand.self), CommandEntry(ReplayCommand.self),
      CommandEntry(QueryCommand.self), CommandEntry(CanCommand.self), CommandEntry(AuditCommand.self),
      CommandEntry(AppendCommand.self), CommandEntry(RepairCommand.self),
      CommandEntry(GenerateCommand.self), CommandEntry(SnapshotCommand.self),
      CommandEntry(DiffCommand.self), CommandEntry(ImportCommand.self),
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
      65 bad data, 66 missing or unreadable input, 74 I/O error while writing.
      See 'storeledger <subcommand> --help' for details.

      """
    return text
  }

  /// Runs with arguments (without the program name); returns the exit code.
  static func run(arguments: [String], console: Console) -> Int32 {
    guard let name = arguments.first else {
      console.err(overview)
      return 64
    }
    if name == "--help" || name == "-h" || name == "help" {
      console.out(overview)
      return 0
    }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
      let suggestion = ArgumentParser.closest(name, among: commands.map(\.spec.name))
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
      text += "… and \(found - errors) more errors not shown\n"
    }
    console.err(text)
  }
}

/// Loading shared by the commands that read a log.
enum CommandSupport {
  static func logPath(_ arguments: ParsedArguments) -> String { arguments.positionals[0] }

  static func catalogPath(_ arguments: ParsedArguments, log: String) -> String {
    arguments.value("catalog") ?? LedgerLoader.defaultCatalogPath(forLog: log)
  }

  static func catalog(_ arguments: ParsedArguments, log: String) throws(DiagnosticList) -> Catalog {
    try LedgerLoader.loadCatalog(path: catalogPath(arguments, log: log))
  }

  /// Loads the log named by the first positional argument (with `--snapshot` when given).
  static func ledger(_ arguments: ParsedArguments, console: Console) throws -> (Ledger, LogExtent) {
    let log = logPath(arguments)
    let catalog = try catalog(arguments, log: log)
    let loaded: (ledger: Ledger, extent: LogExtent)
    if let snapshot = arguments.value("snapshot") {
      loaded = try SnapshotFiles.restore(
        snapshotPath: snapshot, logPath: log, catalogPath: catalogPath(arguments, log: log), catalog: catalog)
    } else {
      loaded = try LedgerLoader.load(logPath: log, catalog: catalog)
    }
    warn(
      loaded.ledger.warnings.filter {
        if case .tornLastLine = $0.problem { return true }
        return false
      }, console)
    return (loaded.ledger, loaded.extent)
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
