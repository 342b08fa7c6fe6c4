/// Where a log's complete lines end, for `repair` and `append`.
public struct LogExtent: Sendable, Equatable {
  /// Bytes up to and including the last `\n`.
  public var completeBytes: Int64
  /// Bytes after the last `\n` (a torn write), 0 when the log ends cleanly.
  public var tornBytes: Int64
  /// Number of complete lines.
  public var lineCount: Int
}

/// Streams a log file line by line in fixed-size blocks.
///
/// Memory stays at one block plus one line however large the log is; the file
/// is never held whole. A last line without `\n` is reported as torn, not parsed.
public enum LogReader {
  /// Block size for reads.
  public static let blockBytes = 4 << 20

  /// Calls `body` with each complete line (without `\n`) and its 1-based number.
  ///
  /// Returns the extent of the log. `body` may stop early by returning false.
  /// - Complexity: O(file size).
  @discardableResult
  public static func forEachLine(
    in file: borrowing PlatformFile, startingAt offset: Int64 = 0, firstLineNumber: Int = 1,
    _ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool
  ) throws(Diagnostic) -> LogExtent {
    let capacity = blockBytes + Limits.lineBytesMax + 1
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    let bytes = buffer.bindMemory(to: UInt8.self)
    try file.seek(to: offset)
    var filled = 0
    var lineNumber = firstLineNumber
    var consumedBytes = offset
    var stopped = false
    while !stopped {
      let room = capacity - filled
      let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + min(room, blockBytes))]))
      if n == 0 { break }
      filled += n
      var lineStart = 0
      var scan = 0
      while scan < filled {
        guard let newline = findNewline(bytes, from: scan, to: filled) else { break }
        if !body(UnsafeBufferPointer(rebasing: bytes[lineStart..<newline]), lineNumber) {
          stopped = true
          consumedBytes += Int64(newline + 1 - lineStart)
          lineStart = newline + 1
          break
        }
        lineNumber += 1
        consumedBytes += Int64(newline + 1 - lineStart)
        lineStart = newline + 1
        scan = lineStart
      }
      if stopped { break }
      let rest = filled - lineStart
      if rest > Limits.lineBytesMax {
        // A line longer than the limit: hand the prefix over so it is rejected, then skip it.
        _ = body(UnsafeBufferPointer(rebasing: bytes[lineStart..<filled]), lineNumber)
        var skipped = Int64(rest)
        var tail = 0
        scanning: while true {
          let m = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<blockBytes]))
          if m == 0 { return LogExtent(completeBytes: consumedBytes, tornBytes: skipped, lineCount: lineNumber - firstLineNumber) }
          if let newline = findNewline(bytes, from: 0, to: m) {
            skipped += Int64(newline + 1)
            tail = m - newline - 1
            bytes.baseAddress!.update(from: bytes.baseAddress! + newline + 1, count: tail)
            break scanning
          }
          skipped += Int64(m)
        }
        consumedBytes += skipped
        lineNumber += 1
        filled = tail
        continue
      }
      if lineStart > 0 && rest > 0 {
        bytes.baseAddress!.update(from: bytes.baseAddress! + lineStart, count: rest)
      }
      filled = rest
    }
    return LogExtent(
      completeBytes: consumedBytes, tornBytes: stopped ? 0 : Int64(filled),
      lineCount: lineNumber - firstLineNumber)
  }

  @inline(__always)
  static func findNewline(_ bytes: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    var i = from
    let base = bytes.baseAddress!
    // Eight bytes at a time: a word has a 0x0A byte when (w ^ 0x0A..) has a zero byte.
    while i + 8 <= to {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
      let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
      if zero != 0 { return i + zero.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < to {
      if base[i] == 10 { return i }
      i += 1
    }
    return nil
  }
}
