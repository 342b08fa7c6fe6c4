/// Limits on an input read whole before it is checked: stdin and the files `append`, `audit
/// --queries`, `diff` and `import` read.
package struct InputLimits: Sendable {
  /// Longest line; a longer one stops reading with `lineTooLong` (Int.max: no line limit).
  package var lineBytesMax: Int
  /// Most bytes in all.
  package var totalBytesMax: Int

  /// Limits.
  package init(lineBytesMax: Int, totalBytesMax: Int) {
    self.lineBytesMax = lineBytesMax
    self.totalBytesMax = totalBytesMax
  }

  /// An `append` batch: log lines, at most `Limits.batchBytesMax`.
  package static let batch = InputLimits(lineBytesMax: Limits.lineBytesMax, totalBytesMax: Limits.batchBytesMax)
  /// A query file for `audit`.
  package static let queries = InputLimits(lineBytesMax: Limits.lineBytesMax, totalBytesMax: Limits.queryInputBytesMax)
  /// A snapshot read whole (`diff`, `snapshot --check`).
  package static let snapshot = InputLimits(lineBytesMax: Limits.snapshotLineBytesMax, totalBytesMax: Limits.snapshotBytesMax)
  /// A log or catalog read whole from stdin: no size limit, but an endless line stops it.
  package static let log = InputLimits(lineBytesMax: Limits.skippedLineBytesMax, totalBytesMax: Int.max)
  /// Anything else read whole (import payloads).
  package static let document = InputLimits(lineBytesMax: Int.max, totalBytesMax: Limits.batchBytesMax)
}

/// Reads catalogs and logs from disk into a `Ledger`.
package enum LedgerLoader {
  /// The default catalog path for a log: `catalog.json` beside it.
  package static func defaultCatalogPath(forLog logPath: String) -> String {
    guard let slash = logPath.lastIndex(of: "/") else { return "catalog.json" }
    return String(logPath[...slash]) + "catalog.json"
  }

  /// Reads a whole small file (catalogs, query files).
  package static func readFile(_ path: String, limit: Int = Int.max) throws(Diagnostic) -> [UInt8] {
    try readFile(path, limits: InputLimits(lineBytesMax: Int.max, totalBytesMax: limit))
  }

  /// Reads a whole file, stopping with an error as soon as a line or the whole passes `limits`
  /// (so `/dev/zero` or an endless pipe ends quickly, with bounded memory).
  package static func readFile(_ path: String, limits: InputLimits) throws(Diagnostic) -> [UInt8] {
    let file = try PlatformFile(path: path, mode: .read)
    return try readBounded(name: path, limits: limits) { (buffer) throws(Diagnostic) in try file.read(into: buffer) }
  }

  /// Reads the committed part of a log whole: never a batch an appender is writing or left
  /// unfinished (`AppendIntent`). For inputs that need the log's text (an importer's look-up of
  /// what the ledger knows); folding goes through `feed`.
  /// - Complexity: O(log size) time and memory.
  package static func readCommitted(_ path: String) throws(Diagnostic) -> [UInt8] {
    let file = try PlatformFile(path: path, mode: .read)
    guard file.entryKind() == .regular else {
      throw Diagnostic(file: path, .cannotRead(path: path, reason: "not a regular file (a log is read at offsets)"))
    }
    let committed = try AppendIntent.visibleLength(of: file, logPath: path)
    let bytes = try file.readBytes(count: Int(committed.length), at: 0)
    if LineParses.isCounting { LineParses.noteLogLines(bytes.count { $0 == 10 }) }
    return bytes
  }

  /// Reads an input whole through `read` (which returns 0 at its end), checking `limits` as it goes.
  /// - Complexity: O(input), memory at most `limits.totalBytesMax`.
  package static func readBounded(
    name: String, limits: InputLimits, read: (UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int
  ) throws(Diagnostic) -> [UInt8] {
    var result: [UInt8] = []
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    defer { chunk.deallocate() }
    let bytes = chunk.bindMemory(to: UInt8.self)
    var lineBytes = 0
    var lineNumber = 1
    while true {
      let n = try read(chunk)
      if n == 0 { break }
      if limits.lineBytesMax != Int.max {
        var from = 0
        while let newline = LogReader.findNewline(bytes, from: from, to: n) {
          lineBytes += newline - from
          guard lineBytes <= limits.lineBytesMax else { break }
          lineBytes = 0
          lineNumber += 1
          from = newline + 1
        }
        if lineBytes <= limits.lineBytesMax { lineBytes += n - from }
        guard lineBytes <= limits.lineBytesMax else {
          throw Diagnostic(file: name, line: lineNumber, .lineTooLong(bytes: lineBytes, limit: limits.lineBytesMax))
        }
      }
      result.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
      if result.count > limits.totalBytesMax {
        throw Diagnostic(file: name, .cannotRead(path: name, reason: "larger than \(limits.totalBytesMax) bytes"))
      }
    }
    return result
  }

  /// Streams an input by whole lines: `body` gets each run of complete lines (with the number
  /// of the first) as soon as a read delivers them, so memory stays one chunk plus one line.
  /// A last line without a newline is delivered at the end; a line over `lineBytesMax` stops
  /// reading with `lineTooLong`.
  /// - Complexity: O(input).
  package static func streamLines(
    name: String, lineBytesMax: Int, read: (UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int,
    body: (_ lines: [UInt8], _ firstLine: Int) throws -> Void
  ) throws {
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    defer { chunk.deallocate() }
    var pending: [UInt8] = []
    var lineNumber = 1
    while true {
      let n = try read(chunk)
      if n == 0 { break }
      pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
      guard let lastNewline = pending.lastIndex(of: 10) else {
        guard pending.count <= lineBytesMax else {
          throw Diagnostic(file: name, line: lineNumber, .lineTooLong(bytes: pending.count, limit: lineBytesMax))
        }
        continue
      }
      let lines = Array(pending[...lastNewline])
      pending.removeFirst(lastNewline + 1)
      try body(lines, lineNumber)
      lineNumber += lines.count { $0 == 10 }
      guard pending.count <= lineBytesMax else {
        throw Diagnostic(file: name, line: lineNumber, .lineTooLong(bytes: pending.count, limit: lineBytesMax))
      }
    }
    if !pending.isEmpty { try body(pending, lineNumber) }
  }

  /// Loads and validates a catalog file.
  package static func loadCatalog(path: String) throws(DiagnosticList) -> Catalog {
    let bytes: [UInt8]
    do {
      bytes = try readFile(path, limit: Limits.catalogBytesMax)
    } catch {
      throw DiagnosticList([error])
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw DiagnosticList([Diagnostic(file: path, .badCatalog("not valid UTF-8"))])
    }
    return try Catalog.parse(text, file: path)
  }

  /// Streams every line of the log at `path` (from `offset`) into `builder`; returns the log's extent.
  ///
  /// Lines are parsed on a reader thread and admitted in order on this one. A torn
  /// last line is reported as a warning and not parsed.
  /// - Parameter end: where to stop reading; nil reads what is committed now (an unfinished
  ///   append's batch is left out, `AppendIntent`). An appender holding the lock passes its length.
  /// - Parameter progress: called on this thread before each block is read, with the bytes read
  ///   so far and the bytes to read (for a progress line).
  package static func feed(
    _ builder: inout LedgerBuilder, path: String, startingAt offset: Int64 = 0, firstLineNumber: Int = 1,
    endingAt end: Int64? = nil, progress: ((_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)? = nil
  ) throws(Diagnostic) -> LogExtent {
    let extent = try PipelinedLogReader.feed(
      &builder, path: path, catalog: builder.catalog, startingAt: offset, firstLineNumber: firstLineNumber,
      endingAt: end, progress: progress)
    if extent.tornBytes > 0 {
      builder.record(
        Diagnostic(
          file: path, line: firstLineNumber + extent.lineCount, .tornLastLine(bytes: Int(extent.tornBytes)),
          severity: .warning))
    }
    return extent
  }

  /// Streams every line of a log read once in order (stdin, a pipe) into `builder`, as `feed(path:)`
  /// does for a file: same limits, and a last line without `\n` is a torn line (a warning, not parsed).
  ///
  /// `read` returns what one read gives (0 at the end); short reads are gathered into whole blocks.
  /// - Complexity: O(input); memory bounded by the reader's blocks in flight.
  package static func feed(
    _ builder: inout LedgerBuilder, streamNamed name: String,
    blockBytes: Int = PipelinedLogReader.blockBytes,
    read: (UnsafeMutableRawBufferPointer) throws(Diagnostic) -> Int
  ) throws(Diagnostic) -> LogExtent {
    let extent = try PipelinedLogReader.feed(&builder, streamNamed: name, catalog: builder.catalog, blockBytes: blockBytes) {
      (buffer) throws(Diagnostic) in
      // A pipe delivers a few KiB per read: fill the block so workers get whole blocks.
      var filled = 0
      while filled < buffer.count {
        let n = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
        if n == 0 { break }
        filled += n
      }
      return filled
    }
    if extent.tornBytes > 0 {
      builder.record(
        Diagnostic(file: name, line: extent.lineCount + 1, .tornLastLine(bytes: Int(extent.tornBytes)), severity: .warning))
    }
    return extent
  }

  /// Loads a log: every line checked, duplicates skipped, the result validated.
  /// With `shard`, only that shard's subjects are kept (Docs/scale-out.md).
  /// - Complexity: O(n log k) for n events, k per subject; memory O(events), not O(file).
  package static func load(
    logPath: String, catalog: Catalog, shard: Shard? = nil,
    progress: ((_ bytesRead: Int64, _ bytesTotal: Int64) -> Void)? = nil
  ) throws(DiagnosticList) -> (ledger: Ledger, extent: LogExtent) {
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    builder.shard = shard
    let extent: LogExtent
    do {
      extent = try feed(&builder, path: logPath, progress: progress)
    } catch {
      throw DiagnosticList([error])
    }
    switch builder.finish() {
    case .success(let ledger): return (ledger, extent)
    case .failure(let list): throw list
    }
  }
}
