import StoreLedger

/// `storeledger snapshot LOG --out FILE` and `storeledger snapshot --check FILE LOG`.
enum SnapshotCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "snapshot", abstract: "Write the folded state of a log, or check a log against a golden snapshot.",
    usage: "snapshot <log> (--out <file> [--force] | --check <file>) [--shard <i/n>] [--snapshot <file>] [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log.")], requiredPositionals: 1,
    options: [
      .value("out", "file", "Write the snapshot of the whole log here (never the log or catalog being read)."),
      .flag("force", "Replace an existing --out file."),
      .value("check", "file", "Compare the log's snapshot with this golden file; exit 1 with a readable diff if they differ."),
      .value("snapshot", "file", "Start from this earlier snapshot and fold only the log's tail."),
      CommandSpec.shardOption, CommandSpec.catalogOption,
    ],
    discussion: """
      A snapshot is deterministic: pretty-printed JSON with sorted keys, per subject the timeline
      of entitlement intervals, subscription state changes and balance changes, then a binary
      section of event records that make restoring exact. It records the lines and bytes of the
      log it covers and their checksum (XXH64 of 8 MiB blocks, checked on every core). replay,
      query and audit accept --snapshot FILE to start from it.
      Golden files in CI: storeledger snapshot LOG --check golden.json (exit 1 and a diff on change).
      --out writes a temporary file beside FILE and renames it over FILE when complete, so FILE
      is the old snapshot or the whole new one; it refuses an existing FILE without --force and
      anything that is not a regular file.
      With --shard, the snapshot holds the shard's subjects only; restore it with the same --shard
      (another shard's snapshot is refused; Docs/scale-out.md).
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let out = arguments.value("out")
    let check = arguments.value("check")
    guard (out == nil) != (check == nil) else {
      throw UsageError(message: "Give exactly one of '--out <file>' and '--check <file>'.")
    }
    let log = CommandSupport.logPath(arguments)
    guard log != "-" else {
      throw UsageError(message: "'snapshot' needs the log as a file: a snapshot records the digest of the file's bytes.")
    }
    if let out, let slash = out.lastIndex(of: "/"), !out[..<slash].isEmpty, !PlatformFile.exists(String(out[..<slash])) {
      throw Diagnostic(.cannotWrite(path: out, reason: "no such directory: \(out[..<slash]) (create it first)"))
    }
    if let check, !PlatformFile.exists(check) {
      throw Diagnostic(.goldenNotFound(path: check, log: log))
    }
    let catalogPath = CommandSupport.catalogPath(arguments, log: log)
    let inUse = [log, catalogPath] + (arguments.value("snapshot").map { [$0] } ?? [])
    if let out {
      // Before the (long) load: a refused target costs nothing.
      try PendingFile.checkTarget(out, force: arguments.has("force"), inUse: inUse)
    }
    let (ledger, extent) = try CommandSupport.ledger(arguments, console: console)
    let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: log, catalogPath: catalogPath)
    if let out {
      let count = try SnapshotFiles.write(ledger, header: header, to: out, force: arguments.has("force"), inUse: inUse)
      console.out(
        "wrote \(out): \(Plural.counted(header.lines, "line")), \(Plural.counted(header.events, "event")), "
          + "\(Plural.counted(ledger.namedSubjectCount, "subject")), \(Plural.counted(count, "byte"))\n")
      return 0
    }
    let bytes = SnapshotWriter.write(ledger, header: header)
    // Ids read back from a log that changed since loading: not a snapshot to compare.
    if let failure = ledger.symbols.readFailure { throw failure }
    let golden = try LedgerLoader.readFile(check!, limits: .snapshot)
    if golden == bytes {
      console.outText("\(log) matches \(check!)\n")
      return 0
    }
    let lines = try DiffCommand.differences(golden, bytes, nameA: check!, nameB: log)
    console.outText("\(log) differs from \(check!):\n" + lines.map { "  " + TerminalText.escaped($0) + "\n" }.joined())
    return 1
  }
}

/// `storeledger diff A B`: compare two snapshots readably.
enum DiffCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "diff", abstract: "Compare two snapshots: which customers' access changed, and how.",
    usage: "diff <a> <b>",
    positionals: [("<a>", "A snapshot file."), ("<b>", "Another snapshot file.")], requiredPositionals: 2,
    options: [],
    discussion: "Exit 0 when equal, 1 with a readable list of differences otherwise.")

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let a = arguments.positionals[0]
    let b = arguments.positionals[1]
    let left = try LedgerLoader.readFile(a, limits: .snapshot)
    let right = try LedgerLoader.readFile(b, limits: .snapshot)
    if left == right {
      console.outText("\(a) and \(b) are identical\n")
      return 0
    }
    let lines = try differences(left, right, nameA: a, nameB: b)
    if lines.isEmpty {
      console.outText("\(a) and \(b) are equal as JSON values\n")
      return 0
    }
    console.outText(lines.map { TerminalText.escaped($0) + "\n" }.joined())
    return 1
  }

  static func differences(_ a: [UInt8], _ b: [UInt8], nameA: String, nameB: String) throws -> [String] {
    func parse(_ bytes: [UInt8], _ name: String) throws -> JSONValue {
      do {
        // The readable document only: the binary restore section after it is not JSON.
        return try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(bytes)))
      } catch {
        throw Diagnostic(file: name, line: error.line, column: error.column, .snapshotMismatch("not a snapshot: invalid JSON: \(error.detail)"))
      }
    }
    let (readableA, readableB) = (try parse(a, nameA), try parse(b, nameB))
    let lines = SnapshotDiff.compare(readableA, readableB, nameA: nameA, nameB: nameB)
    let note = SnapshotDiff.restoreSectionNote(a, b, readableA: readableA, readableB: readableB)
    return lines.filter { $0 != "the snapshots differ outside subjects and the header" || note == nil } + (note.map { [$0] } ?? [])
  }
}
