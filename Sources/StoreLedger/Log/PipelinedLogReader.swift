import Dispatch

/// One line as the reader thread left it.
enum ParsedLine {
  case event(PendingEvent)
  case failure(Diagnostic)
  case empty
}

/// A block of the log parsed by the reader thread, waiting for the builder.
final class ParsedBlock: @unchecked Sendable {
  /// The block's bytes; string references of pending events point into it.
  let buffer: UnsafeMutableRawBufferPointer
  /// Decoded (escaped or non-ASCII) strings of the block.
  var scratch: [UInt8] = []
  /// Lines in order.
  var lines: [ParsedLine] = []
  /// An I/O error that ended reading.
  var readError: Diagnostic? = nil
  /// Set on the last block: where the log's complete lines end.
  var extent: LogExtent? = nil

  init(capacity: Int) {
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
    lines.reserveCapacity(capacity / 128)
  }

  deinit { buffer.deallocate() }
}

/// A bounded hand-off between the reader thread and the builder.
final class BlockChannel: @unchecked Sendable {
  private var filled: [ParsedBlock] = []
  private var free: [ParsedBlock]
  private let filledCount = DispatchSemaphore(value: 0)
  private let freeCount: DispatchSemaphore
  private let lock = DispatchSemaphore(value: 1)

  init(blocks: Int, capacity: Int) {
    free = (0..<blocks).map { _ in ParsedBlock(capacity: capacity) }
    freeCount = DispatchSemaphore(value: blocks)
  }

  func takeFree() -> ParsedBlock {
    freeCount.wait()
    lock.wait()
    defer { lock.signal() }
    return free.removeLast()
  }

  func giveBack(_ block: ParsedBlock) {
    lock.wait()
    free.append(block)
    lock.signal()
    freeCount.signal()
  }

  func send(_ block: ParsedBlock) {
    lock.wait()
    filled.append(block)
    lock.signal()
    filledCount.signal()
  }

  func receive() -> ParsedBlock {
    filledCount.wait()
    lock.wait()
    defer { lock.signal() }
    return filled.removeFirst()
  }
}

/// Reads and parses a log on a second thread while the caller's builder interns and
/// admits the events in line order, so the two halves of loading use both cores.
///
/// Memory is bounded by a few blocks however large the log is.
enum PipelinedLogReader {
  /// Blocks in flight between the threads.
  static let blocksInFlight = 4
  /// Bytes read per block: small enough that blocks in flight cost little memory.
  static let blockBytes = 1 << 20

  /// Feeds every complete line of the log at `path` from `offset` into `builder`.
  /// - Complexity: O(file size).
  static func feed(
    _ builder: inout LedgerBuilder, path: String, catalog: Catalog, startingAt offset: Int64 = 0,
    firstLineNumber: Int = 1
  ) throws(Diagnostic) -> LogExtent {
    let file = try PlatformFile(path: path, mode: .read)
    builder.reserve(events: Int(max(0, try file.size() - offset) / 100))
    let descriptor = file.descriptor
    let blockBytes = Self.blockBytes
    let capacity = blockBytes + Limits.lineBytesMax + 1
    let channel = BlockChannel(blocks: blocksInFlight, capacity: capacity)
    let reader = ReaderThreadState(
      descriptor: descriptor, path: path, catalog: catalog, offset: offset, firstLineNumber: firstLineNumber)
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      reader.run(channel: channel, blockBytes: blockBytes, capacity: capacity)
      finished.signal()
    }
    var extent: LogExtent? = nil
    var failure: Diagnostic? = nil
    while extent == nil && failure == nil {
      let block = channel.receive()
      let bytes = UnsafeBufferPointer(block.buffer.bindMemory(to: UInt8.self))
      block.scratch.withUnsafeBufferPointer { scratch in
        builder.add(parsed: block.lines, buffer: bytes, scratch: scratch)
      }
      failure = block.readError
      extent = block.extent
      block.lines.removeAll(keepingCapacity: true)
      channel.giveBack(block)
    }
    finished.wait()
    withExtendedLifetime(file) {}
    if let failure { throw failure }
    return extent!
  }
}

/// What the reader thread owns: its parser and its position in the file.
private final class ReaderThreadState: @unchecked Sendable {
  let descriptor: Int32
  let path: String
  var parser: EventLineParser
  let offset: Int64
  let firstLineNumber: Int

  init(descriptor: Int32, path: String, catalog: Catalog, offset: Int64, firstLineNumber: Int) {
    self.descriptor = descriptor
    self.path = path
    parser = EventLineParser(catalog: catalog)
    self.offset = offset
    self.firstLineNumber = firstLineNumber
  }

  func run(channel: BlockChannel, blockBytes: Int, capacity: Int) {
    var position = offset
    var lineNumber = firstLineNumber
    var consumed = offset
    var carry: [UInt8] = []
    var skippingLongLine = false
    while true {
      let block = channel.takeFree()
      let bytes = block.buffer.bindMemory(to: UInt8.self)
      carry.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: block.buffer[0..<$0.count]).copyMemory(from: $0) }
      var filled = carry.count
      carry.removeAll(keepingCapacity: true)
      let n: Int
      do {
        n = try PlatformFile.read(
          descriptor: descriptor, path: path,
          into: UnsafeMutableRawBufferPointer(rebasing: block.buffer[filled..<(filled + blockBytes)]), at: position)
      } catch {
        block.readError = error
        channel.send(block)
        return
      }
      position += Int64(n)
      filled += n
      var lineStart = 0
      var scan = 0
      while scan < filled, let newline = LogReader.findNewline(bytes, from: scan, to: filled) {
        let length = newline - lineStart
        if skippingLongLine {
          skippingLongLine = false
        } else if length > Limits.lineBytesMax {
          block.lines.append(
            .failure(Diagnostic(line: lineNumber, .lineTooLong(bytes: length, limit: Limits.lineBytesMax))))
        } else {
          let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<newline])
          if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
            block.lines.append(.empty)
          } else {
            switch parser.parsePending(line, lineNumber: lineNumber, lineStart: lineStart) {
            case .success(let pending): block.lines.append(.event(pending))
            case .failure(let diagnostic): block.lines.append(.failure(diagnostic))
            }
          }
        }
        lineNumber += 1
        consumed += Int64(length + 1)
        lineStart = newline + 1
        scan = lineStart
      }
      block.scratch = parser.takeScratch()
      let rest = filled - lineStart
      if n == 0 {
        block.extent = LogExtent(
          completeBytes: consumed, tornBytes: skippingLongLine ? 0 : Int64(rest), lineCount: lineNumber - firstLineNumber)
        channel.send(block)
        return
      }
      if rest > Limits.lineBytesMax {
        // A line longer than the limit: report it once, then skip to its newline.
        if !skippingLongLine {
          block.lines.append(
            .failure(Diagnostic(line: lineNumber, .lineTooLong(bytes: rest, limit: Limits.lineBytesMax))))
          skippingLongLine = true
        }
        consumed += Int64(rest)
      } else {
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: block.buffer[lineStart..<filled]))
      }
      channel.send(block)
    }
  }
}
