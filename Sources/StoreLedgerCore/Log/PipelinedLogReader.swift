import Dispatch

/// One line as a parsing worker left it.
enum ParsedLine {
  case event(PendingEvent)
  case failure(Diagnostic)
  case empty

  /// Whether it is an event.
  var isEvent: Bool { if case .event = self { true } else { false } }
}

/// A parsed block's lines in line order, stored so the builder reads each event where the worker
/// wrote it: the events in one array of plain values, the few other lines (empty or refused)
/// beside them by their index among the block's lines. An array of `ParsedLine` cost two copies
/// of every event on the builder's thread (the look-ahead's and the admission's) and a value
/// witness call per line (Docs/performance.md, "Records handed over in place").
struct ParsedLines {
  /// The events, in line order.
  var events: [PendingEvent] = []
  /// The lines without an event, in line order, each with its index among all the lines.
  var others: [(index: Int, line: ParsedLine)] = []
  /// Lines in all.
  var count = 0

  /// Appends the next line, an event.
  @inline(__always)
  mutating func append(event pending: PendingEvent) {
    events.append(pending)
    count += 1
  }

  /// Appends the next line, one without an event (never `.event`).
  mutating func append(other line: ParsedLine) {
    precondition(!line.isEvent, "an event goes to `events`")
    others.append((count, line))
    count += 1
  }

  /// Empties it, keeping its storage for the next block.
  mutating func removeAll() {
    events.removeAll(keepingCapacity: true)
    others.removeAll(keepingCapacity: true)
    count = 0
  }

  /// Every line in order, as `ParsedLine` values (for what reads few lines: the sniffer).
  /// - Complexity: O(lines).
  func forEach(_ body: (ParsedLine) -> Bool) {
    var event = 0
    var other = 0
    for index in 0..<count {
      let line: ParsedLine
      if other < others.count && others[other].index == index {
        line = others[other].line
        other += 1
      } else {
        line = .event(events[event])
        event += 1
      }
      guard body(line) else { return }
    }
  }
}

/// A block of whole lines of the log, parsed by a worker, waiting for the builder.
final class ParsedBlock: @unchecked Sendable {
  /// The block's bytes; string references of pending events point into it.
  let buffer: UnsafeMutableRawBufferPointer
  /// Bytes of whole lines in `buffer`.
  var length = 0
  /// The number of the block's first line.
  var firstLineNumber = 1
  /// Where `buffer` starts in the log file (-1: a stream).
  var fileOffset: Int64 = -1
  /// A diagnostic to emit before the lines (a line longer than the limit ended in this block).
  var leadingFailure: Diagnostic? = nil
  /// Decoded (escaped or non-ASCII) strings of the block.
  var scratch: [UInt8] = []
  /// Lines in order.
  var lines = ParsedLines()
  /// The partitions lines go to (1: none).
  var partitionCount = 1
  /// With partitions: per event (`lines.events`), its partition and what that partition prefetches (`LineOwner`).
  var owners: [LineOwner] = []
  /// Signalled when a worker has parsed the block.
  let parsed = DispatchSemaphore(value: 0)
  /// The catalog lines are parsed against.
  let catalog: Catalog

  init(capacity: Int, catalog: Catalog) {
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
    self.catalog = catalog
    lines.events.reserveCapacity(capacity / 256)
  }

  deinit { buffer.deallocate() }

  /// Parses every line of the block (runs on a worker thread).
  func parse() {
    let bytes = UnsafeBufferPointer(buffer.bindMemory(to: UInt8.self))
    // Locals, not properties, in the loop: a class property mutated per line pays a dynamic
    // exclusivity check each time. The parser's scratch is handed over per block anyway.
    var parser = EventLineParser(catalog: catalog)
    var lines = ParsedLines()
    swap(&lines, &self.lines)
    var owners: [LineOwner] = []
    swap(&owners, &self.owners)
    let partitionCount = partitionCount
    var lineStart = 0
    var lineNumber = firstLineNumber
    while lineStart < length {
      // Every block ends with a newline (the reader cuts blocks at line ends).
      let newline = ByteScan.first(10, in: bytes, from: lineStart, end: length)
      let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<newline])
      switch LineIntake.check(line, lineNumber: lineNumber) {
      case .empty: lines.append(other: .empty)
      case .refused(let diagnostic): lines.append(other: .failure(diagnostic))
      case .parse:
        switch parser.parsePending(line, lineNumber: lineNumber, lineStart: lineStart) {
        case .success(let pending):
          if partitionCount > 1 { owners.append(LineOwner(pending, partitionCount: partitionCount)) }
          lines.append(event: pending)
        case .failure(let diagnostic): lines.append(other: .failure(diagnostic))
        }
      }
      lineNumber += 1
      lineStart = newline + 1
    }
    // Hand the results back before signalling: the builder reads them as soon as it wakes.
    swap(&lines, &self.lines)
    swap(&owners, &self.owners)
    scratch = parser.takeScratch()
    parsed.signal()
  }
}

/// Loads a log on both cores: this thread reads blocks and cuts them at line
/// boundaries, workers parse blocks in parallel, and this thread interns and
/// admits the parsed blocks strictly in log order.
///
/// Memory is bounded by the blocks in flight, however large the log is.
enum PipelinedLogReader {
  /// Blocks being read, parsed or admitted at once.
  static let blocksInFlight = 6
  /// Bytes read per block: small enough that blocks in flight cost little memory.
  static let blockBytes = 1 << 20

  /// Feeds every complete line of the log at `path` from `offset` into `builder`.
  ///
  /// `blockBytes` is injectable so tests can cross block boundaries (carry, long lines) with small logs.
  /// - Complexity: O(file size).
  static func feed(
    _ builder: inout LedgerBuilder, path: String, catalog: Catalog, startingAt offset: Int64 = 0,
    firstLineNumber: Int = 1, endingAt requestedEnd: Int64? = nil, blockBytes: Int = PipelinedLogReader.blockBytes,
    progress: ((_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)? = nil
  ) throws(Diagnostic) -> LogExtent {
    // Held open after loading: ids and transactions stay spans of it (`LogSource`).
    let source = try LogSource(path: path)
    // Blocks are read at offsets: a pipe or device (`/dev/zero`) cannot be a log.
    guard try source.withFile({ (file) throws(Diagnostic) in file.entryKind() }) == .regular else {
      throw Diagnostic(file: path, .cannotRead(path: path, reason: "not a regular file (a log is read at offsets)"))
    }
    var end = requestedEnd ?? 0
    var warning: Diagnostic? = nil
    if requestedEnd == nil {
      let visible = try source.withFile { (file) throws(Diagnostic) in
        try AppendIntent.visibleLength(of: file, logPath: path)
      }
      end = visible.length
      warning = visible.warning
    }
    let fresh = builder
    let partitionCount = builder.partitionsWanted
    if partitionCount > 1 { builder.startPartitions(count: partitionCount) }
    func run(_ builder: inout LedgerBuilder) throws(Diagnostic) -> LogExtent {
      if let warning { builder.record(warning) }
      // Nothing to read (a snapshot's empty tail): the tables keep their text as it is.
      if end > offset { builder.attach(source) }
      // A shard keeps about 1/n of the events.
      builder.reserve(events: Int(max(0, end - offset) / 100) / (builder.shard?.count ?? 1))
      let extent = try feed(
        &builder, name: path, catalog: catalog, startingAt: offset, firstLineNumber: firstLineNumber, end: end,
        blockBytes: blockBytes, isFile: true, progress: progress
      ) { (buffer, position) throws(Diagnostic) in
        try source.withFile { (file) throws(Diagnostic) in try file.read(into: buffer, at: position) }
      }
      // A span compared while loading could not be read back: the log changed under the load.
      if let failure = source.failure { throw failure }
      return extent
    }
    let extent = try run(&builder)
    guard builder.isPartitioned && !builder.concludePartitions() else { return extent }
    // Two partitions share an event id or a charged transaction: an invalid log, whose errors
    // the single path finds and orders, reading the same bytes again (LedgerBuilder+Partitions.swift).
    builder = fresh
    return try run(&builder)
  }

  /// Feeds every complete line of a stream (stdin, a pipe) into `builder`, reading it once in
  /// order: the same blocks, line limits and torn-last-line rule as a file.
  ///
  /// `read` fills the buffer it is given as far as it can and returns 0 only at the end.
  /// - Complexity: O(stream size); memory bounded by the blocks in flight.
  static func feed(
    _ builder: inout LedgerBuilder, streamNamed name: String, catalog: Catalog,
    blockBytes: Int = PipelinedLogReader.blockBytes,
    read: (UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int
  ) throws(Diagnostic) -> LogExtent {
    try feed(
      &builder, name: name, catalog: catalog, startingAt: 0, firstLineNumber: 1, end: Int64.max, blockBytes: blockBytes,
      isFile: false, progress: nil
    ) { (buffer, _) throws(Diagnostic) in try read(buffer) }
  }

  /// The reading loop shared by files (read at offsets) and streams (read in order).
  private static func feed(
    _ builder: inout LedgerBuilder, name path: String, catalog: Catalog, startingAt offset: Int64,
    firstLineNumber: Int, end: Int64, blockBytes: Int, isFile: Bool,
    progress: ((_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)?,
    read: (UnsafeMutableRawBufferPointer, _ position: Int64) throws(Diagnostic) -> Int
  ) throws(Diagnostic) -> LogExtent {
    let capacity = blockBytes + Limits.lineBytesMax + 1
    var loop = FeedLoop(
      path: path, end: end, blockBytes: blockBytes, isFile: isFile, startingAt: offset, firstLineNumber: firstLineNumber,
      free: (0..<blocksInFlight).map { _ in
        let block = ParsedBlock(capacity: capacity, catalog: catalog)
        block.partitionCount = max(1, builder.partitions.count)
        return block
      })
    while !loop.atEnd || !loop.inFlight.isEmpty {
      if loop.atEnd || loop.free.isEmpty {
        loop.admitOldest(&builder)
        try loop.stopIfNotJSONLines(atEnd: false)
        continue
      }
      progress?(loop.position - offset, end - offset)
      let block = loop.free.removeLast()
      var filled = try loop.fill(block, read: read)
      if let foreign = loop.sniffer.lookAtStart(UnsafeBufferPointer(rebasing: block.buffer.bindMemory(to: UInt8.self)[0..<filled])) {
        throw foreign
      }
      if loop.longLine != nil {
        // The rest of a line already reported as too long: drop it up to its newline.
        guard let newline = try loop.dropLongLineRest(block, filled: filled, &builder) else { continue }
        let start = newline + 1
        block.buffer.baseAddress!.copyMemory(from: block.buffer.baseAddress! + start, byteCount: filled - start)
        filled -= start
        if block.fileOffset >= 0 { block.fileOffset += Int64(start) }
      }
      let rest = loop.cut(block, filled: filled)
      if loop.atEnd {
        // What follows the last newline is a torn write.
        loop.finish(block, &builder)
        try loop.stopIfNotJSONLines(atEnd: true)
        return LogExtent(
          completeBytes: loop.consumed, tornBytes: Int64(rest), lineCount: loop.lineNumber - firstLineNumber)
      }
      loop.send(block, filled: filled, rest: rest)
    }
    // The file ended inside a long line: a torn last line, however long.
    let torn = loop.longLine.map { Int64($0.bytes) } ?? 0
    try loop.stopIfNotJSONLines(atEnd: true)
    return LogExtent(completeBytes: loop.consumed - torn, tornBytes: torn, lineCount: loop.lineNumber - firstLineNumber)
  }

  /// The state of `feed`'s loop: blocks free and in flight, the partial line carried to the
  /// next block, and how far reading, cutting and counting lines got.
  private struct FeedLoop {
    let path: String
    let end: Int64
    let blockBytes: Int
    /// Whether the input is a file read at offsets (blocks then know where they start in it).
    let isFile: Bool
    var free: [ParsedBlock]
    var inFlight: [ParsedBlock] = []
    var carry: [UInt8] = []
    var position: Int64
    var consumed: Int64
    var lineNumber: Int
    /// The line being skipped as too long: its number and bytes so far. Reported when its
    /// newline comes; at the end of the file it is a torn last line (a warning) instead.
    var longLine: (line: Int, bytes: Int)? = nil
    var atEnd = false
    /// Judges whether a read from the input's start is JSON Lines at all.
    var sniffer: JSONLinesSniffer
    let workers = DispatchQueue.global()

    init(
      path: String, end: Int64, blockBytes: Int, isFile: Bool, startingAt offset: Int64, firstLineNumber: Int,
      free: [ParsedBlock]
    ) {
      self.path = path
      self.end = end
      self.blockBytes = blockBytes
      self.isFile = isFile
      self.free = free
      position = offset
      consumed = offset
      lineNumber = firstLineNumber
      sniffer = JSONLinesSniffer(name: path, isActive: offset == 0 && firstLineNumber == 1)
    }

    /// Waits for the oldest block in flight, adds its lines to `builder` and frees the block.
    mutating func admitOldest(_ builder: inout LedgerBuilder) {
      let block = inFlight.removeFirst()
      block.parsed.wait()
      let bytes = UnsafeBufferPointer(block.buffer.bindMemory(to: UInt8.self))
      sniffer.observe(block)
      builder.blockOffset = block.fileOffset
      defer { builder.blockOffset = -1 }
      block.scratch.withUnsafeBufferPointer { scratch in
        if let failure = block.leadingFailure { builder.add(refused: failure) }
        builder.add(parsed: block.lines, owners: block.owners, buffer: bytes, scratch: scratch)
      }
      LineParses.noteLogLines(block.lines.count)
      if builder.keptLines != nil { keep(block, bytes, into: &builder) }
      block.lines.removeAll()
      block.owners.removeAll(keepingCapacity: true)
      block.leadingFailure = nil
      free.append(block)
    }

    /// Stops the read with one error when the lines admitted so far show the input is not JSON
    /// Lines (`JSONLinesSniffer`), after the workers are done with the blocks in flight.
    /// Hands the block's lines that hold a marker to `builder.keptLines`.
    private func keep(_ block: ParsedBlock, _ bytes: UnsafeBufferPointer<UInt8>, into builder: inout LedgerBuilder) {
      var lineStart = 0
      while lineStart < block.length {
        let newline = ByteScan.first(10, in: bytes, from: lineStart, end: block.length)
        builder.keptLines!.consider(UnsafeBufferPointer(rebasing: bytes[lineStart..<newline]))
        lineStart = newline + 1
      }
    }

    mutating func stopIfNotJSONLines(atEnd: Bool) throws(Diagnostic) {
      guard sniffer.isOpen, let foreign = sniffer.verdict(atEnd: atEnd) else { return }
      for block in inFlight { block.parsed.wait() }
      inFlight.removeAll()
      throw foreign
    }

    /// Copies the carried partial line to the start of `block` and reads up to a block after
    /// it; returns the bytes `block` then holds. Reading nothing means the end.
    mutating func fill(
      _ block: ParsedBlock, read: (UnsafeMutableRawBufferPointer, _ position: Int64) throws(Diagnostic) -> Int
    ) throws(Diagnostic) -> Int {
      carry.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: block.buffer[0..<$0.count]).copyMemory(from: $0) }
      block.fileOffset = isFile ? position - Int64(carry.count) : -1
      var filled = carry.count
      carry.removeAll(keepingCapacity: true)
      let want = Int(min(Int64(blockBytes), max(0, end - position)))
      let n = want == 0 ? 0 : try read(UnsafeMutableRawBufferPointer(rebasing: block.buffer[filled..<(filled + want)]), position)
      position += Int64(n)
      filled += n
      if n == 0 { atEnd = true }
      return filled
    }

    /// Drops the rest of `longLine` from `block`: returns its newline's offset, with the line
    /// reported as the block's leading failure, or nil when the block holds none (freed).
    mutating func dropLongLineRest(
      _ block: ParsedBlock, filled: Int, _ builder: inout LedgerBuilder
    ) throws(Diagnostic) -> Int? {
      guard var skipped = longLine else { preconditionFailure("no long line is being skipped") }
      guard let newline = LogReader.findNewline(block.buffer.bindMemory(to: UInt8.self), from: 0, to: filled) else {
        consumed += Int64(filled)
        skipped.bytes += filled
        longLine = skipped
        free.append(block)
        if skipped.bytes > Limits.skippedLineBytesMax {
          // An endless line (a pipe of zeros): stop now rather than read forever.
          while !inFlight.isEmpty { admitOldest(&builder) }
          throw Diagnostic(file: path, line: skipped.line, .lineTooLong(bytes: skipped.bytes, limit: Limits.lineBytesMax))
        }
        return nil
      }
      consumed += Int64(newline + 1)
      block.leadingFailure = Diagnostic(
        line: skipped.line, .lineTooLong(bytes: skipped.bytes + newline, limit: Limits.lineBytesMax))
      lineNumber += 1
      longLine = nil
      return newline
    }

    /// Ends `block` after its last newline and counts its lines; returns the bytes after its end.
    /// At the end of the input a complete last line without a newline is a line like any other.
    mutating func cut(_ block: ParsedBlock, filled: Int) -> Int {
      let bytes = block.buffer.bindMemory(to: UInt8.self)
      var lastNewline = filled - 1
      while lastNewline >= 0 && bytes[lastNewline] != 10 { lastNewline -= 1 }
      block.length = lastNewline + 1
      block.firstLineNumber = lineNumber
      lineNumber += ByteScan.count(10, in: UnsafeBufferPointer(bytes), from: 0, end: block.length)
      consumed += Int64(block.length)
      let rest = filled - block.length
      guard atEnd && rest > 0 && LogReader.isCompleteLine(UnsafeBufferPointer(rebasing: bytes[block.length..<filled]))
      else { return rest }
      // A last line saved without its newline (contract §1): a line like any other. The
      // buffer has room for one byte more than a block and a carried line.
      bytes[filled] = 10
      block.length = filled + 1
      lineNumber += 1
      consumed += Int64(rest)
      return 0
    }

    /// At the end of the input: parses the last `block` when it holds anything, then admits every block.
    mutating func finish(_ block: ParsedBlock, _ builder: inout LedgerBuilder) {
      if block.length > 0 || block.leadingFailure != nil {
        inFlight.append(block)
        workers.async { block.parse() }
      } else {
        free.append(block)
      }
      while !inFlight.isEmpty { admitOldest(&builder) }
    }

    /// Carries the partial line after `block`'s end to the next block (or starts skipping it
    /// when longer than the limit), then sends `block` to a worker.
    mutating func send(_ block: ParsedBlock, filled: Int, rest: Int) {
      if rest > Limits.lineBytesMax {
        // The next line is longer than the limit: skip to its newline, then report it once.
        longLine = (line: lineNumber, bytes: rest)
        consumed += Int64(rest)
      } else {
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: block.buffer[block.length..<filled]))
      }
      if block.length > 0 {
        inFlight.append(block)
        workers.async { block.parse() }
      } else if block.leadingFailure != nil {
        inFlight.append(block)
        block.parsed.signal()
      } else {
        free.append(block)
      }
    }
  }
}
