import StoreLedger

/// `storeledger find LOG TERM [--limit N] [--no-index]`: the subjects a customer's identifier points at.
enum FindCommand: LedgerCommand {
  /// The default and the largest `--limit`.
  static let limitDefault = 20
  static let limitMax = 1_000
  /// The longest line of the kept store documents read (a document is bigger than an event line).
  static let documentLineBytesMax = 4 << 20
  /// Bytes of the log read at a time; a longer line is searched in pieces (no valid line is: `Limits.lineBytesMax`).
  static let blockBytes = 4 << 20

  static let spec = CommandSpec(
    name: "find", abstract: "Find the subjects an id a customer sends points at.",
    usage: "find <log> <term> [--limit <n>] [--no-index] [--catalog <file>]",
    positionals: [("<log>", "The JSON-lines event log."), ("<term>", "What the customer sent.")], requiredPositionals: 2,
    options: [
      .value("limit", "n", "List at most this many subjects (1 to \(limitMax)). Default: \(limitDefault)."),
      IndexedRead.option, CommandSpec.catalogOption,
    ],
    discussion: """
      Matches a subject whose id contains the term, and a subject with an event whose id,
      transaction or original transaction is the term, or with a 'meta' value equal to it (an
      order id, a purchase token, an appAccountToken), or whose kept Google Play documents
      (LOG.googleplay-documents.jsonl) hold it. With an index beside the log, subject ids, event
      ids and charged transactions are found through it; when it finds nothing, the log and the
      kept documents are read. Prints one subject a line with how it matched; at the limit it
      says that more match and stops.
      Example: storeledger find Events/demo.jsonl u1-t2
      """)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let log = CommandSupport.logPath(arguments)
    let term = arguments.positionals[1]
    guard !term.isEmpty else { throw UsageError(message: "The term to find is empty.") }
    var limit = limitDefault
    if let text = arguments.value("limit") {
      guard let value = Int(text), (1...limitMax).contains(value) else {
        throw UsageError(message: "Invalid value for '--limit': '\(text)' (expected a number from 1 to \(limitMax)).")
      }
      limit = value
    }
    guard PlatformFile.exists(log) else { throw DiagnosticList([Diagnostic(.fileNotFound(path: log))]) }
    var finder = SubjectFinder(term: term, subjectsMax: limit)
    var through = "the log"
    if !arguments.has("no-index"), PlatformFile.entryKind(LogIndex.directory(forLog: log)) != .missing,
      try indexed(&finder, log: log, arguments, console: console)
    {
      through = "the index (subject ids, event ids, transactions; --no-index also reads meta and kept documents)"
    } else {
      try scan(&finder, log: log)
    }
    console.outText(text(finder, through: through))
    return finder.found.isEmpty ? 1 : 0
  }

  /// Finds through the index; false when it is not usable or finds nothing (the log is read then).
  static func indexed(_ finder: inout SubjectFinder, log: String, _ arguments: ParsedArguments, console: Console) throws -> Bool {
    let catalog = try CommandSupport.catalog(arguments, log: log, console: console)
    guard let candidates = IndexSearch.candidates(logPath: log, catalog: catalog, term: finder.term, subjectsMax: finder.subjectsMax),
      case .loaded(let ledger, _) = try IndexedLedger.load(logPath: log, catalog: catalog, subjects: candidates.subjects)
    else { return false }
    finder.note(ledger: ledger)
    if candidates.isFull { finder.markFull() }
    return !finder.found.isEmpty
  }

  /// Reads the kept store documents for the term (their tokens), then every line of the log.
  static func scan(_ finder: inout SubjectFinder, log: String) throws {
    let documents = log + ".googleplay-documents.jsonl"
    if PlatformFile.exists(documents) {
      let file = try PlatformFile(path: documents, mode: .read)
      try LedgerLoader.streamLines(
        name: documents, lineBytesMax: documentLineBytesMax, read: { (buffer) throws(Diagnostic) in try file.read(into: buffer) }
      ) { lines, _ in
        for line in lines.split(separator: 10) where finder.mayMatch(line) {
          guard let value = try? JSONValue.parse(bytes: Array(line)), case .object(let fields) = value,
            let token = fields.first(where: { $0.0 == "token" })?.1.stringValue
          else { continue }
          finder.tokens.insert(token)
        }
      }
    }
    let file = try PlatformFile(path: log, mode: .read)
    let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes, alignment: 16)
    defer { raw.deallocate() }
    let buffer = raw.bindMemory(to: UInt8.self)
    var kept = 0
    var line = 1
    var atEnd = false
    while !finder.isFull && !atEnd {
      let read = kept < blockBytes ? try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[kept...])) : 0
      let filled = kept + read
      guard filled > 0 else { break }
      let end: Int
      if read == 0 {
        end = filled  // the end of the file: what is left is the last line
        atEnd = true
      } else if let newline = buffer[..<filled].lastIndex(of: 10) {
        end = newline + 1
      } else if filled == blockBytes {
        end = filled  // a line longer than a block (no valid line is) is searched in pieces
      } else {
        kept = filled
        continue
      }
      line += finder.scan(block: UnsafeBufferPointer(rebasing: buffer[..<end]), firstLine: line)
      kept = filled - end
      // The regions may overlap: copyMemory moves.
      if kept > 0 { raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[end..<filled])) }
    }
  }

  /// One subject a line, escaped, then what happened at the limit.
  static func text(_ finder: SubjectFinder, through: String) -> String {
    guard !finder.found.isEmpty else {
      return TerminalText.escaped("no subject matches '\(TerminalText.clipped(finder.term))' (searched \(through))") + "\n"
    }
    var text = finder.found.map {
      TerminalText.escaped(TerminalText.clipped($0.subject) + ": " + $0.matches.joined(separator: ", ")) + "\n"
    }.joined()
    if finder.isFull {
      text += "more subjects match: stopped after \(finder.found.count) (raise --limit, up to \(limitMax), or use a longer term)\n"
    }
    return text + TerminalText.escaped("(searched \(through))") + "\n"
  }
}
