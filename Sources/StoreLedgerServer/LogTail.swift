import StoreLedger

/// Follows a log file's committed lines from a line position on: the change feed's source,
/// for lines already in the log (a resumed feed) and for lines appended later, by this server
/// or by any other process, all read the same way.
///
/// Only committed bytes are read (`AppendIntent.visibleLength`), so a batch an appender is
/// still writing, or one it will roll back, is never sent.
struct LogTail {
  /// The log file.
  let path: String
  /// Lines read so far: the line position the next line follows.
  private(set) var line: Int
  /// The byte offset just after line `line`.
  private(set) var offset: Int64
  /// Bytes read at once.
  static let chunkBytes = 1 << 20

  /// A tail starting after `line`, which ends at byte `offset`.
  init(path: String, line: Int, offset: Int64) {
    self.path = path
    self.line = line
    self.offset = offset
  }

  /// A tail starting after line `position`, found by reading the log's first lines; a position
  /// past the log's end starts at its end.
  /// - Complexity: O(bytes of the first `position` lines).
  init(path: String, after position: Int) throws(Diagnostic) {
    self.init(path: path, line: 0, offset: 0)
    while line < position {
      let lines = try next(linesMax: position - line)
      if lines.isEmpty { break }
    }
  }

  /// The next complete committed lines (at most `linesMax`, at most about a chunk of bytes),
  /// each with its 1-based line number; empty when none were appended since.
  /// - Throws: `log_shrank` when the log is now shorter than what was read; I/O problems.
  /// - Complexity: O(bytes returned).
  mutating func next(linesMax: Int) throws(Diagnostic) -> [(line: Int, text: ArraySlice<UInt8>)] {
    let file = try PlatformFile(path: path, mode: .read)
    let committed = try AppendIntent.visibleLength(of: file, logPath: path).length
    guard committed >= offset else {
      throw Diagnostic(file: path, .logShrank(bytes: committed, known: offset))
    }
    guard committed > offset else { return [] }
    let bytes = try file.readBytes(count: Int(min(committed - offset, Int64(Self.chunkBytes))), at: offset)
    var lines: [(line: Int, text: ArraySlice<UInt8>)] = []
    var start = 0
    for index in bytes.indices where bytes[index] == 10 {
      guard lines.count < linesMax else { break }
      line += 1
      lines.append((line, bytes[start..<index]))
      start = index + 1
    }
    offset += Int64(start)
    return lines
  }
}
