/// An append's input with every line parsed once: the typed events an append checks, the
/// subjects it involves and the lines it writes all come from here, never from parsing a line
/// again (Docs/architecture.md, "How often an appended line is parsed").
///
/// The strings of its events are interned in the batch's own `symbols`; an admission moves them
/// into its builder's tables (`moved(_:into:)`), so one parsed batch serves every admission of a
/// group commit and any builder, whatever it holds already. A line that does not parse keeps
/// its diagnostic, reported when the batch is admitted, where the append reported it before.
package struct AppendBatch: Sendable {
  /// One input line.
  package enum Line: Sendable {
    /// Only spaces, tabs and carriage returns: takes no line in the log.
    case blank
    /// A line that parsed.
    case parsed(ParsedLine)
    /// A line that did not parse: its diagnostic, numbered by input line, without a file.
    case failed(Diagnostic)
  }

  /// A line that parsed: its typed event and where its text is in the input.
  package struct ParsedLine: Sendable {
    /// The event, its strings in the batch's `symbols` and its subject in `loadingSubject`.
    package var event: Event
    /// Its price and meta hash.
    package var details: EventDetails
    /// Its text in `input`, without trailing spaces, tabs and carriage returns.
    package var text: Range<Int>
  }

  /// The input as given.
  package let input: [UInt8]
  /// Each input line, as `LogAppender.forEachInputLine` splits the input.
  package private(set) var lines: [Line] = []
  /// The strings of the parsed events: sized by the batch, not for a whole log.
  package private(set) var symbols: LedgerSymbols

  /// Parses every line of `input` once against `catalog`.
  /// - Complexity: O(input).
  package init(parsing input: [UInt8], catalog: Catalog) {
    self.input = input
    symbols = LedgerSymbols(expectedStrings: min(1 << 16, max(64, input.count / 64)))
    var parser = EventLineParser(catalog: catalog)
    var inputLine = 0
    var lines: [Line] = []
    lines.reserveCapacity(input.reduce(1) { $1 == 10 ? $0 + 1 : $0 })
    input.withUnsafeBufferPointer { bytes in
      LogAppender.forEachInputLine(input) { line in
        inputLine += 1
        guard !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) else { return lines.append(.blank) }
        var end = line.endIndex
        while end > line.startIndex, line[end - 1] == 32 || line[end - 1] == 9 || line[end - 1] == 13 { end -= 1 }
        let text = UnsafeBufferPointer(rebasing: bytes[line.startIndex..<end])
        switch parser.parseDetailed(text, lineNumber: inputLine, symbols: &symbols) {
        case .failure(let diagnostic): lines.append(.failed(diagnostic))
        case .success(let parsed):
          lines.append(.parsed(ParsedLine(event: parsed.event, details: parsed.details, text: line.startIndex..<end)))
        }
      }
    }
    self.lines = lines
  }

  /// The events that parsed, in input order.
  package var events: some Sequence<Event> {
    lines.lazy.compactMap { line -> Event? in
      if case .parsed(let parsed) = line { return parsed.event }
      return nil
    }
  }

  /// The event of `parsed` as the append stores it: stamped with `now` as its `recorded` when
  /// it has none (and its text is an object, as every parsed line's is), and whether it was.
  package func stamped(_ parsed: ParsedLine, now: Timestamp?) -> (event: Event, isStamped: Bool) {
    var event = parsed.event
    guard let now, !event.hasRecorded, input[parsed.text.upperBound - 1] == 125 else { return (event, false) }
    event.recorded = now
    event.hasRecorded = true
    return (event, true)
  }

  /// `event` and `details` (a parsed line's, its strings in this batch's tables) with their
  /// strings interned in `target` instead, in the order the line parser interns them, so a
  /// builder numbers them as it would have numbered them parsing the line.
  /// - Complexity: O(the event's strings) expected.
  package func moved(_ event: Event, details: EventDetails, into target: inout LedgerSymbols) -> (event: Event, details: EventDetails) {
    symbols.moved(event, details: details, into: &target, movingSubject: true)
  }

  /// Writes the log line of `parsed` as the append stores `event` (its value after stamping):
  /// the input's text, with `"recorded"` added before the closing brace when the event carries a
  /// knowledge time its text does not. The one writer of appended lines, so what the log holds
  /// is the value the append checked.
  /// - Complexity: O(the line's length).
  package func encode(_ parsed: ParsedLine, as event: Event, into output: inout [UInt8]) {
    output.append(contentsOf: input[parsed.text])
    guard event.hasRecorded, !parsed.event.hasRecorded, output.last == 125 else { return }
    output.removeLast()
    output.append(contentsOf: #","recorded":""#.utf8)
    event.recorded.appendRFC3339(to: &output)
    output.append(contentsOf: #""}"#.utf8)
  }
}

extension LedgerSymbols {
  /// `event`'s strings and its price's currency, interned in these tables, interned in `target`
  /// instead (ids, subject, transactions, currency: the order the line parser interns them). The
  /// subject only when `movingSubject`: a ledger implies it by where it keeps the event.
  /// - Complexity: O(the event's strings) expected.
  package func moved(
    _ event: Event, details: EventDetails, into target: inout LedgerSymbols, movingSubject: Bool
  ) -> (event: Event, details: EventDetails) {
    var event = event
    var details = details
    func moved(_ symbol: Symbol, _ source: SymbolTable, _ table: inout SymbolTable) -> Symbol {
      symbol.isSome ? source.withBytes(symbol) { table.intern($0) } : .none
    }
    event.id = moved(event.id, ids, &target.ids)
    if movingSubject { event.loadingSubject = moved(event.loadingSubject, subjects, &target.subjects) }
    event.transaction = moved(event.transaction, transactions, &target.transactions)
    event.originalTransaction = moved(event.originalTransaction, transactions, &target.transactions)
    if event.kind == .consumption { event.balanceCurrency = moved(event.balanceCurrency, currencies, &target.currencies) }
    details.priceCurrency = moved(details.priceCurrency, currencies, &target.currencies)
    return (event, details)
  }
}

/// The lines an append wrote, with the typed events they were encoded from: what extends the
/// index beside the log after the commit (`IndexBuild.afterAppend`) reads instead of parsing
/// the lines back from the log. It refers to the batches' parsed lines rather than copying them.
package struct WrittenLines: Sendable {
  /// One line written.
  package struct Line: Sendable {
    /// The admission's segment whose batch holds the line.
    package var segment: Int32
    /// The line's place in that batch's `lines`.
    package var index: Int32
    /// Its length without the newline.
    package var length: Int32
    /// Where the line starts in the written bytes.
    package var start: Int
  }

  /// The batches of the admission's segments.
  package var batches: [AppendBatch] = []
  /// The knowledge time each segment stamps (`LogAppender.Segment.now`).
  package var nows: [Timestamp?] = []
  /// The lines written, in order.
  package var lines: [Line] = []
  /// Where the written bytes start in the log (-1: not written yet).
  package var logOffset: Int64 = -1

  /// Nothing written.
  package init() {}

  /// The event and details of the line written at `offset` of the log, `length` bytes long,
  /// as stamped and with their strings interned in `symbols`; nil when no line written starts
  /// there. Asked in increasing offsets, `cursor` (start at 0) finds each in O(1) amortized.
  package func line(
    at offset: Int64, length: Int, cursor: inout Int, into symbols: inout LedgerSymbols
  ) -> (event: Event, details: EventDetails)? {
    guard logOffset >= 0 else { return nil }
    while cursor < lines.count, logOffset + Int64(lines[cursor].start) < offset { cursor += 1 }
    guard cursor < lines.count, logOffset + Int64(lines[cursor].start) == offset, Int(lines[cursor].length) == length,
      case .parsed(let parsed) = batches[Int(lines[cursor].segment)].lines[Int(lines[cursor].index)]
    else { return nil }
    let batch = batches[Int(lines[cursor].segment)]
    let event = batch.stamped(parsed, now: nows[Int(lines[cursor].segment)]).event
    return batch.moved(event, details: parsed.details, into: &symbols)
  }
}
