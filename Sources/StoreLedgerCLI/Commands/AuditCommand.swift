import StoreLedger

/// `storeledger audit LOG --queries FILE|-`: one answer line per query line.
enum AuditCommand: LedgerCommand {
  static let spec = CommandSpec(
    name: "audit", abstract: "Answer many queries in bulk: one answer line per query line.",
    usage: "audit <log|-> --queries <file|-> [--stream] [--shard <i/n>] [--tz <offset>] [--catalog <file>]",
    positionals: [("<log|->", "The JSON-lines event log; '-' streams it from stdin (needs --catalog).")], requiredPositionals: 1,
    options: [
      .value("queries", "file|-", "JSON lines {\"subject\": …, \"at\": …, \"as_of\": …}; '-' reads stdin."),
      .flag("stream", "Answer queries as they arrive, in bounded memory (for pipelines)."),
      CommandSpec.shardOption, CommandSpec.tzOption, CommandSpec.snapshotOption, CommandSpec.catalogOption,
    ],
    discussion: """
      Every query line is checked before any answer is printed, so a bad query gives an error
      naming its line and no partial output. `as_of` is optional (null or absent: all knowledge).
      `at` and `as_of` take the forms --at takes: RFC 3339, a date, now, today, yesterday.
      With --stream, queries are answered as they arrive (each read's complete lines at once) and
      memory stays bounded however many there are; a bad line stops the command with exit 65
      after the answers to the lines before it were printed, and nothing after it is answered.
      With --shard, only the queries of the shard's subjects are answered, in their order
      (Docs/scale-out.md shows how to merge the shards' answers back into query order).
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let queriesName = arguments.value("queries") else {
      throw UsageError(message: "Missing expected option '--queries <file|->'.")
    }
    let (ledger, _) = try CommandSupport.ledger(arguments, console: console)
    let time = try ArgumentParser.timeInput(arguments)
    if arguments.has("stream") {
      return try stream(queriesName, ledger: ledger, shard: ledger.shard, time: time, console: console)
    }
    let input = try CommandSupport.input(queriesName, console: console, limits: .queries)
    // The shard the ledger was read as: it places subjects joined by transfers by their group.
    let shard = ledger.shard
    let batch = keeping(shard, try QueryBatch.parse(input, file: queriesName == "-" ? "<stdin>" : queriesName, time: time))
    var engine = QueryEngine(ledger: ledger)
    engine.writeAnswers(batch) { console.outBytes($0) }
    CommandSupport.warnIfUnknown(subjectsOf: batch, in: ledger, log: CommandSupport.logPath(arguments), console: console)
    return 0
  }

  /// Answers each run of complete query lines as soon as it is read.
  /// The queries of `shard`'s subjects (all of them without a shard).
  static func keeping(_ shard: Shard?, _ batch: QueryBatch) -> QueryBatch {
    guard let shard else { return batch }
    return batch.filter { shard.contains(subject: $0) }
  }

  static func stream(_ queriesName: String, ledger: Ledger, shard: Shard?, time: TimeInput, console: Console) throws -> Int32 {
    let name = queriesName == "-" ? "<stdin>" : queriesName
    var engine = QueryEngine(ledger: ledger)
    func answer(_ lines: [UInt8], _ firstLine: Int) throws {
      do {
        let batch = keeping(shard, try QueryBatch.parse(lines, file: name, time: time))
        engine.writeAnswers(batch) { console.outBytes($0) }
      } catch {
        // Line numbers within the run, moved to the input's.
        throw DiagnosticList(error.diagnostics.map { diagnostic in
          var moved = diagnostic
          moved.line = diagnostic.line.map { $0 + firstLine - 1 }
          return moved
        })
      }
    }
    if queriesName == "-" {
      try console.streamInput(name: name, lineBytesMax: Limits.lineBytesMax, body: answer)
    } else {
      let file = try PlatformFile(path: queriesName, mode: .read)
      try LedgerLoader.streamLines(
        name: name, lineBytesMax: Limits.lineBytesMax, read: { (buffer) throws(Diagnostic) in try file.read(into: buffer) },
        body: answer)
    }
    return 0
  }
}
