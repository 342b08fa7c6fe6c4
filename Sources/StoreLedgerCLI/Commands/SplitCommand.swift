import StoreLedger

/// `storeledger split LOG --shards N --out DIR`: one file per shard of subjects, for other engines.
enum SplitCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "split", abstract: "Cut a log into shard files by subject, to process each on its own.",
    usage: "split <log|-> --shards <n> --out <dir> [--force] [--catalog <file>]",
    positionals: [("<log|->", "The JSON-lines event log; '-' reads it from stdin (needs --catalog).")],
    requiredPositionals: 1,
    options: [
      .value("shards", "n", "How many shards, 1 to \(Shard.countMax)."),
      .value("out", "dir", "The directory for shard-II-of-NN.jsonl and catalog.json (made if missing)."),
      .flag("force", "Replace existing shard files and catalog.json in the directory."),
      CommandSpec.catalogOption,
    ],
    discussion: """
      Reads the log once and copies every line, unchanged and in log order, to the file of its
      subject's shard: FNV-1a 64 of the subject's UTF-8 bytes modulo n, the same shards as
      --shard i/n (Docs/scale-out.md). Only the subject is read: other fields are checked when a
      shard is folded. Writes a copy of the catalog beside the shards, so each shard folds with
      'storeledger replay DIR/shard-00-of-16.jsonl'. Empty lines and a torn last line are left out.
      Files are written under temporary names and renamed only when every line was routed: on
      an error (exit 65 for a line without a string subject) no shard file is left.
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let shardsText = arguments.value("shards") else {
      throw UsageError(message: "Missing expected option '--shards <n>'.")
    }
    guard let count = Int(shardsText), count >= 1, count <= Shard.countMax else {
      throw UsageError(message: "Invalid value for '--shards': '\(shardsText)' (expected a whole number from 1 to \(Shard.countMax)).")
    }
    guard let directory = arguments.value("out") else {
      throw UsageError(message: "Missing expected option '--out <dir>'.")
    }
    let directoryKind = PlatformFile.entryKind(directory)
    guard directoryKind == .directory || directoryKind == .missing else {
      throw Diagnostic(.cannotWrite(path: directory, reason: "not a directory"))
    }
    let log = CommandSupport.logPath(arguments)
    if log == "-" && arguments.value("catalog") == "-" {
      throw UsageError(message: "Only one input can be read from stdin ('-').")
    }
    // The catalog is checked (and copied) before the long read.
    _ = try CommandSupport.catalog(arguments, log: log)
    let catalogPath = CommandSupport.catalogPath(arguments, log: log)
    let catalogBytes = try LedgerLoader.readFile(catalogPath, limit: Limits.catalogBytesMax)
    let catalogCopy = directory + "/catalog.json"
    let inUse = [catalogPath] + (log == "-" ? [] : [log])
    // The same catalog already there (split again) is kept; another one needs --force.
    let catalogIsThere = (try? LedgerLoader.readFile(catalogCopy, limit: Limits.catalogBytesMax)) == catalogBytes
    if !catalogIsThere { try PendingFile.checkTarget(catalogCopy, force: arguments.has("force"), inUse: inUse) }
    let force = arguments.has("force")
    // A missing output directory is made, and removed again if the split fails before writing.
    if directoryKind == .missing { try PlatformFile.makeDirectory(directory) }
    do {
      return try split(
        log: log, count: count, directory: directory, catalogCopy: catalogIsThere ? nil : (catalogBytes, catalogCopy),
        force: force, inUse: inUse, console: console)
    } catch {
      if directoryKind == .missing { PlatformFile.removeEmptyDirectory(directory) }
      throw error
    }
  }

  /// Routes every line, then writes the catalog copy (if any) and prints the summary.
  private static func split(
    log: String, count: Int, directory: String, catalogCopy: (bytes: [UInt8], path: String)?, force: Bool,
    inUse: [String], console: Console
  ) throws -> Int32 {
    let started = monotonicNanoseconds()
    let name = log == "-" ? "<stdin>" : log
    let summary: LogSplitter.Summary
    if log == "-" {
      summary = try LogSplitter.split(
        name: name, count: count, directory: directory, force: force, inUse: inUse, groups: .unknown
      ) { (buffer) throws(Diagnostic) in try console.readSome(into: buffer) }
    } else {
      // Only what is committed: never part of a batch an appender is writing or left unfinished.
      let file = try PlatformFile(path: log, mode: .read)
      guard file.entryKind() == .regular else {
        throw Diagnostic(file: log, .cannotRead(path: log, reason: "not a regular file (use '-' to split a stream)"))
      }
      let committed = try LogReader.committedLength(of: file, logPath: log)
      if let warning = committed.warning { CommandSupport.warn([warning], console) }
      var position: Int64 = 0
      // Subjects joined by transfers stay in one shard: found by a first pass over the file.
      let groups = try ShardGroups.scan(path: log)
      summary = try LogSplitter.split(
        name: name, count: count, directory: directory, force: force, inUse: inUse, groups: groups
      ) {
        (buffer) throws(Diagnostic) in
        let want = Int(min(Int64(buffer.count), committed.length - position))
        guard want > 0 else { return 0 }
        let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: position)
        position += Int64(n)
        return n
      }
    }
    if let catalogCopy { try SnapshotFiles.write(catalogCopy.bytes, to: catalogCopy.path, force: force, inUse: inUse) }
    let seconds = Double(monotonicNanoseconds() - started) / 1e9
    if summary.tornBytes > 0 {
      let line = summary.lines.reduce(0, +) + summary.emptyLines + 1
      CommandSupport.warn(
        [Diagnostic(file: name, line: line, .tornLastLine(bytes: Int(summary.tornBytes)), severity: .warning)], console)
    }
    var text = ""
    for index in 0..<count {
      text += "\(LogSplitter.fileName(index: index, count: count)): \(Plural.counted(summary.lines[index], "line")), \(Plural.counted(summary.bytes[index], "byte"))\n"
    }
    let lines = summary.lines.reduce(0, +)
    let bytes = summary.bytes.reduce(0, +)
    text += "split \(name) into \(Plural.counted(count, "shard")) in \(directory): \(Plural.counted(lines, "line")), \(Plural.counted(bytes, "byte"))"
    text += summary.emptyLines > 0 ? ", \(Plural.counted(summary.emptyLines, "empty line")) left out" : ""
    text += ", \(formatSeconds(seconds)) s\n"
    console.out(text)
    return 0
  }
}
