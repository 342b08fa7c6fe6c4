import StoreLedgerCore
import Dispatch

/// What `storeledger index` did.
package struct IndexSummary: Sendable, Equatable {
  /// Segments and bytes of the index afterwards.
  package var segments: Int
  package var indexBytes: Int64
  /// Bytes and lines of the log it covers.
  package var coveredBytes: Int64
  package var coveredLines: Int64
  /// Bytes of the log indexed by this run (0: it was up to date).
  package var indexedBytes: Int64
  /// Whether it was built from the whole log (no usable index before).
  package var rebuilt: Bool
}

/// Building the index from a whole log, and extending it over lines appended since.
package enum IndexBuild {
  /// `storeledger index LOG`: builds the index, or brings a usable one up to date.
  ///
  /// The log is checked first (a log with errors gets no index: exit 65, as `check` would): the
  /// whole log for a build, the subjects the new lines involve for an update. An index that does
  /// not describe the log is rebuilt, with a warning.
  /// - Complexity: a build is a full load plus one more read of the log; an update reads the new lines.
  package static func run(
    logPath: String, catalog: Catalog, rebuild: Bool = false, progress: ((_ done: Int64, _ total: Int64) -> Void)? = nil
  ) throws(DiagnosticList) -> (summary: IndexSummary, warnings: [Diagnostic]) {
    try DiagnosticList.collecting(path: logPath, writing: true) {
      let log = try PlatformFile(path: logPath, mode: .read)
      let length = try AppendIntent.visibleLength(of: log, logPath: logPath).length
      var warnings: [Diagnostic] = []
      switch LogIndex.open(logPath: logPath, log: log, length: length, catalog: catalog) {
      case .usable(let opened) where !rebuild && length - opened.manifest.coveredBytes <= LogIndex.tailBytesMax:
        do {
          return (try update(opened, log: log, logPath: logPath, length: length, catalog: catalog), [])
        } catch let damage as IndexDamage {
          warnings.append(Diagnostic(file: logPath, .indexBuilt(.damaged(damage.reason)), severity: .warning))
        }
      case .usable, .absent: break
      case .unusable(let issue):
        warnings.append(Diagnostic(file: logPath, .indexBuilt(issue), severity: .warning))
      }
      return (try build(log: log, logPath: logPath, catalog: catalog, progress: progress), warnings)
    }
  }

  /// Checks the lines appended since the index was brought up to date, then indexes them.
  private static func update(
    _ opened: LogIndex.Opened, log: borrowing PlatformFile, logPath: String, length: Int64, catalog: Catalog
  ) throws -> IndexSummary {
    var prepared = try IndexedLedger.prepare(opened, log: log, logPath: logPath, length: length, catalog: catalog, subjects: [], batch: nil)
    if case .failure(let list) = prepared.builder.finish() { throw list }
    // Writers' lock, with their bounded wait: a stopped appender makes this exit 75, never hang.
    try LogLock.acquire(log, logPath: logPath, command: "index", wait: .standard, notice: nil)
    defer { LogLock.release(log, logPath: logPath) }
    // An appender may have extended the index since it was opened: extend what is there now.
    guard case .usable(let current) = LogIndex.open(logPath: logPath, log: log, length: try log.size(), catalog: catalog) else {
      throw IndexDamage("the index changed while the new lines were checked")
    }
    let manifest = try extend(current, log: log, to: length, catalog: catalog)
    return summary(manifest, directory: opened.directory, indexed: manifest.coveredBytes - opened.manifest.coveredBytes, rebuilt: false)
  }

  private static func summary(_ manifest: IndexManifest, directory: String, indexed: Int64, rebuilt: Bool) -> IndexSummary {
    IndexSummary(
      segments: manifest.segments.count,
      indexBytes: manifest.segments.reduce(0) { $0 + $1.fileBytes } + Int64(manifest.encoded.count),
      coveredBytes: manifest.coveredBytes, coveredLines: manifest.coveredLines, indexedBytes: indexed, rebuilt: rebuilt)
  }

  /// Builds the index of the whole log from scratch.
  private static func build(
    log: borrowing PlatformFile, logPath: String, catalog: Catalog,
    progress: ((_ done: Int64, _ total: Int64) -> Void)?
  ) throws -> IndexSummary {
    guard let identity = log.identity() else { throw Diagnostic(.cannotRead(path: logPath, reason: "fstat failed")) }
    let origin = log.origin()
    // Where each line starts, and the chained digest, on a second thread while the log loads.
    let length = try AppendIntent.visibleLength(of: log, logPath: logPath).length
    final class ScanBox: @unchecked Sendable { var result: Result<LineScan, any Error>? = nil }
    let box = ScanBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      box.result = Result { try LineScan.scan(try PlatformFile(path: logPath, mode: .read), upTo: length) }
    }
    var builder = LedgerBuilder(catalog: catalog, file: logPath)
    let loaded = Result { () throws(Diagnostic) in try LedgerLoader.feed(&builder, path: logPath, endingAt: length, progress: progress) }
    group.wait()
    _ = try loaded.get()
    let scan = try box.result!.get()
    let ledger: Ledger
    switch builder.finish() {
    case .success(let finished): ledger = finished
    case .failure(let list): throw list
    }
    guard PlatformFile.identity(logPath) == identity else {
      throw Diagnostic(.cannotRead(path: logPath, reason: "the log was replaced while it was being indexed"))
    }
    let directory = LogIndex.directory(forLog: logPath)
    let lineCount = Int64(scan.lineStarts.count - 1)
    // Writers' lock, with their bounded wait: a stopped appender makes this exit 75, never hang.
    try LogLock.acquire(log, logPath: logPath, command: "index", wait: .standard, notice: nil)
    defer { LogLock.release(log, logPath: logPath) }
    let previous = (LogIndex.readManifest(directory).flatMap { try? $0.get() })?.generation ?? 0
    try LogIndex.makeDirectory(directory)
    let generation = previous + 1
    let name = LogIndex.segmentName(generation: generation, start: 0, end: scan.covered)
    // Normally every event is on a covered line; a copy only when a last unterminated line is not.
    // Redeliveries that made an event known earlier are kept too: a subject's lines must tell the same.
    var events: [Event] = []
    var subjects: [Symbol] = []
    events.reserveCapacity(ledger.events.count + ledger.learnedEarlier.count)
    subjects.reserveCapacity(events.capacity)
    func take(_ event: Event, _ subject: Symbol) {
      guard Int64(event.line) <= lineCount else { return }
      events.append(event)
      subjects.append(subject)
    }
    ledger.forEachEvent(take)
    for event in ledger.learnedEarlier { take(event, event.loadingSubject) }
    let header = try SegmentBuild.write(
      path: directory + "/" + name, range: 0..<scan.covered, firstLine: 1, lineCount: lineCount,
      events: events, subjects: subjects, symbols: ledger.symbols
    ) { event in scan.record(line: Int(event.line)) }
    guard let firstBlock = try PrefixDigest.firstBlock(of: log, covered: scan.covered),
      let lastBlock = try PrefixDigest.lastBlock(of: log, covered: scan.covered)
    else {
      throw Diagnostic(.cannotRead(path: logPath, reason: "the log shrank while it was being indexed"))
    }
    let manifest = IndexManifest(
      log: identity, origin: origin, coveredBytes: scan.covered, coveredLines: lineCount, firstBlock: firstBlock,
      lastBlock: lastBlock, chainBytes: scan.chainBytes, chain: scan.chain, catalog: catalog.indexDigest, generation: generation,
      segments: [LogIndex.entry(name: name, header)])
    try LogIndex.commit(manifest, directory: directory)
    return summary(manifest, directory: directory, indexed: scan.covered, rebuilt: true)
  }

  /// Indexes the complete lines of `[covered, length)` as one new segment, merges, and commits.
  /// The caller holds the log's exclusive lock and has checked those lines; the lines an append
  /// just wrote (`written`) are taken from their typed events, not parsed again.
  /// - Complexity: O(new bytes) plus merges, amortized O(log appends) per indexed byte.
  static func extend(
    _ opened: LogIndex.Opened, log: borrowing PlatformFile, to length: Int64, catalog: Catalog,
    written: WrittenLines = WrittenLines()
  ) throws -> IndexManifest {
    let old = opened.manifest
    guard length > old.coveredBytes else { return old }
    let tail = try log.readBytes(count: Int(length - old.coveredBytes), at: old.coveredBytes)
    guard let lastNewline = tail.lastIndex(of: 10) else { return old }
    let end = old.coveredBytes + Int64(lastNewline + 1)
    var parser = EventLineParser(catalog: catalog)
    var symbols = LedgerSymbols()
    var events: [Event] = []
    var records: [UInt32: LineRecord] = [:]
    var lineNumber = Int(old.coveredLines)
    var start = 0
    var writtenCursor = 0
    for index in 0...lastNewline where tail[index] == 10 {
      lineNumber += 1
      let line = tail[start..<index]
      let offset = old.coveredBytes + Int64(start)
      start = index + 1
      if var known = written.line(at: offset, length: line.count, cursor: &writtenCursor, into: &symbols)?.event {
        known.line = UInt32(lineNumber)
        events.append(known)
        records[UInt32(lineNumber)] = LineRecord(offset: offset, line: UInt32(lineNumber), length: UInt32(line.count))
        continue
      }
      let parsed: Result<Event, Diagnostic>? = line.withUnsafeBufferPointer { bytes in
        switch LineIntake.check(bytes, lineNumber: lineNumber) {
        case .empty: return nil
        case .refused(let diagnostic): return .failure(diagnostic)
        case .parse: return parser.parse(bytes, lineNumber: lineNumber, symbols: &symbols)
        }
      }
      switch parsed {
      case nil: continue
      case .failure(let diagnostic)?: throw IndexDamage("line \(lineNumber) cannot be indexed: \(diagnostic.message)")
      case .success(let event)?:
        events.append(event)
        records[UInt32(lineNumber)] = LineRecord(offset: offset, line: UInt32(lineNumber), length: UInt32(line.count))
      }
    }
    var manifest = old
    manifest.generation += 1
    let name = LogIndex.segmentName(generation: manifest.generation, start: old.coveredBytes, end: end)
    let header = try SegmentBuild.write(
      path: opened.directory + "/" + name, range: old.coveredBytes..<end, firstLine: old.coveredLines + 1,
      lineCount: Int64(lineNumber) - old.coveredLines, events: events, subjects: events.map(\.loadingSubject),
      symbols: symbols
    ) { event in records[event.line]! }
    // The first block grows until it is whole; its old bytes were checked on open (as the last block's).
    let firstBlock =
      old.coveredBytes >= PrefixDigest.blockBytes ? old.firstBlock : try PrefixDigest.firstBlock(of: log, covered: end)
    guard let chained = try PrefixDigest.extend(old.chain, from: old.chainBytes, to: end, of: log),
      let lastBlock = try PrefixDigest.lastBlock(of: log, covered: end), let firstBlock
    else { throw IndexDamage("the log shrank while it was being indexed") }
    manifest.segments.append(LogIndex.entry(name: name, header))
    manifest.coveredBytes = end
    manifest.coveredLines = Int64(lineNumber)
    manifest.chainBytes = chained.bytes
    manifest.chain = chained.chain
    manifest.firstBlock = firstBlock
    manifest.lastBlock = lastBlock
    manifest = try LogIndex.compacted(manifest, directory: opened.directory)
    try LogIndex.commit(manifest, directory: opened.directory)
    return manifest
  }

  /// After an append committed `committed` bytes: extends an existing index over the lines it
  /// does not cover (the batch, and lines appended behind its back). Never fails the append:
  /// whatever goes wrong is a warning, and the lines stay the unindexed tail.
  ///
  /// Only an index of `catalog`, the catalog the append checked the new lines with, is extended:
  /// an index of another catalog is left as it is, so it never claims its catalog over lines
  /// checked with another (its readers read them as the tail, under their own catalog).
  /// The caller holds the log's exclusive lock.
  package static func afterAppend(
    log: borrowing PlatformFile, logPath: String, committed: Int64, catalog: Catalog, written: WrittenLines
  ) -> [Diagnostic] {
    func warning(_ issue: IndexIssue) -> [Diagnostic] { [Diagnostic(file: logPath, .indexNotUpdated(issue), severity: .warning)] }
    switch LogIndex.open(logPath: logPath, log: log, length: committed, catalog: catalog) {
    case .absent: return []
    case .unusable(let issue): return warning(issue)
    case .usable(let opened):
      let behind = committed - opened.manifest.coveredBytes
      guard behind <= LogIndex.tailBytesMax else { return warning(.tailTooLong(bytes: behind, limit: LogIndex.tailBytesMax)) }
      do {
        _ = try extend(opened, log: log, to: committed, catalog: catalog, written: written)
        return []
      } catch let damage as IndexDamage {
        return warning(.damaged(damage.reason))
      } catch let diagnostic as Diagnostic {
        return warning(.damaged(diagnostic.message))
      } catch {
        return warning(.damaged("\(error)"))
      }
    }
  }
}

/// One read of a log's covered bytes: where every line starts, and the chained digest.
struct LineScan {
  /// Start of every line, then the covered length.
  var lineStarts: [Int64]
  /// Bytes covered: up to and including the last newline before the end asked for.
  var covered: Int64
  /// The chain over the whole blocks of the covered bytes.
  var chainBytes: Int64
  var chain: SHA256Digest

  /// Where line `line` (1-based) is.
  func record(line: Int) -> LineRecord {
    let offset = lineStarts[line - 1]
    return LineRecord(offset: offset, line: UInt32(line), length: UInt32(lineStarts[line] - offset - 1))
  }

  /// Scans `[0, end)` of the log.
  /// - Complexity: O(end); memory one block plus 8 bytes a line.
  static func scan(_ log: borrowing PlatformFile, upTo end: Int64) throws -> LineScan {
    var starts: [Int64] = [0]
    starts.reserveCapacity(Int(end / 128))
    let block = Int(PrefixDigest.blockBytes)
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: block)
    defer { buffer.deallocate() }
    var chain = PrefixDigest.emptyChain
    var at: Int64 = 0
    while at < end {
      let want = Int(min(Int64(block), end - at))
      let n = try log.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<want])), at: at)
      guard n == want else { throw Diagnostic(.cannotRead(path: log.path, reason: "the log shrank while it was being indexed")) }
      var from = 0
      while let newline = LogReader.findNewline(buffer, from: from, to: n) {
        starts.append(at + Int64(newline) + 1)
        from = newline + 1
      }
      if n == block {
        var hasher = SHA256()
        chain.bytes.withUnsafeBytes { hasher.update($0) }
        hasher.update(UnsafeRawBufferPointer(buffer))
        chain = hasher.finalize()
      }
      at += Int64(n)
    }
    let covered = starts.last!
    // The chain stops at the last whole block before the covered end.
    let chainBytes = covered / PrefixDigest.blockBytes * PrefixDigest.blockBytes
    if chainBytes < at / PrefixDigest.blockBytes * PrefixDigest.blockBytes {
      guard let redone = try PrefixDigest.extend(PrefixDigest.emptyChain, from: 0, to: covered, of: log) else {
        throw Diagnostic(.cannotRead(path: log.path, reason: "the log shrank while it was being indexed"))
      }
      chain = redone.chain
    }
    return LineScan(lineStarts: starts, covered: covered, chainBytes: chainBytes, chain: chain)
  }
}
