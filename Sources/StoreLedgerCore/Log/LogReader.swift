/// Where a log's complete lines end, for `repair` and `append`.
package struct LogExtent: Sendable, Equatable {
  /// Bytes of complete lines: up to and including the last `\n`, or the whole log when its last
  /// line lacks only its `\n` (a complete JSON value, as editors save files).
  package var completeBytes: Int64
  /// Bytes after the last `\n` that are not a complete JSON value (a torn write), 0 when the log ends cleanly.
  package var tornBytes: Int64
  /// Number of complete lines.
  package var lineCount: Int

  /// Creates an extent (for logs not read from a file, such as stdin).
  package init(completeBytes: Int64, tornBytes: Int64, lineCount: Int) {
    self.completeBytes = completeBytes
    self.tornBytes = tornBytes
    self.lineCount = lineCount
  }
}

/// Finding line ends in the log's bytes.
package enum LogReader {
  /// The offset of the first newline in `bytes[from..<to]`, or nil (a `ByteScan` of 16 bytes a step).
  /// - Complexity: O(to - from).
  @inline(__always)
  package static func findNewline(_ bytes: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    let newline = ByteScan.first(10, in: UnsafeBufferPointer(bytes), from: from, end: to)
    return newline < to ? newline : nil
  }
}

extension LogReader {
  /// The length of the log a reader may read now (the end of its last committed batch), and a
  /// warning when an intent record beside it does not describe it and was ignored. Never waits.
  package static func committedLength(of file: borrowing PlatformFile, logPath: String) throws(Diagnostic) -> (
    length: Int64, warning: Diagnostic?
  ) {
    try AppendIntent.visibleLength(of: file, logPath: logPath)
  }

  /// Whether a last line without `\n` is complete: one JSON object or array, closed, followed by
  /// nothing but spaces. Anything else (cut inside a string or a container) is a torn write.
  /// Only the structure is checked; the line is then read like any other (and may be invalid).
  /// - Complexity: O(bytes).
  package static func isCompleteLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == 123 || bytes[index] == 91 else { return false }
    var depth = 0
    var inString = false
    var escaped = false
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if inString {
        if escaped {
          escaped = false
        } else if byte == 92 {
          escaped = true
        } else if byte == 34 {
          inString = false
        }
        continue
      }
      switch byte {
      case 34: inString = true
      case 123, 91: depth += 1
      case 125, 93:
        depth -= 1
        if depth == 0 {
          while index < bytes.count, isSpace(bytes[index]) { index += 1 }
          return index == bytes.count
        }
      default: break
      }
    }
    return false
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }

  /// Where the log's last line begins: just after the last `\n` before `size` (0 when there is
  /// none), searching backwards at most `limit` bytes; nil when no line start is within reach.
  /// - Complexity: O(length of the last line), bounded by `limit`.
  package static func lastLineStart(of file: borrowing PlatformFile, size: Int64, limit: Int) throws(Diagnostic) -> Int64? {
    let chunk = 1 << 16
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 8)
    defer { buffer.deallocate() }
    var offset = size
    while offset > 0 {
      if size - offset > Int64(limit) { return nil }
      let start = max(0, offset - Int64(chunk))
      let count = Int(offset - start)
      _ = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: start)
      for index in stride(from: count - 1, through: 0, by: -1) where buffer[index] == 10 {
        return start + Int64(index) + 1
      }
      offset = start
    }
    return size > Int64(limit) ? nil : 0
  }

  /// How a log ends: cleanly, with a complete last line lacking its `\n`, or with a torn write of
  /// `bytes` bytes (a last line longer than a line may be is torn, whatever it holds).
  package static func ending(of file: borrowing PlatformFile, size: Int64) throws(Diagnostic) -> LogEnding {
    guard size > 0 else { return .clean }
    let last = try file.readBytes(count: 1, at: size - 1)
    if last == [10] { return .clean }
    guard let start = try lastLineStart(of: file, size: size, limit: Limits.lineBytesMax) else {
      let start = try lastLineStart(of: file, size: size, limit: Int.max) ?? 0
      return .torn(bytes: size - start, start: start)
    }
    let line = try file.readBytes(count: Int(size - start), at: start)
    let complete = line.withUnsafeBufferPointer { isCompleteLine($0) }
    return complete ? .missingNewline : .torn(bytes: size - start, start: start)
  }
}

/// How a log's last bytes end (`LogReader.ending`).
package enum LogEnding: Equatable, Sendable {
  /// Empty, or the last byte is `\n`.
  case clean
  /// The last line is complete but has no `\n`: `append` writes one before its batch.
  case missingNewline
  /// The bytes from `start` are a torn write.
  case torn(bytes: Int64, start: Int64)
}
