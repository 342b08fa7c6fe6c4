/// Where a log's complete lines end, for `repair` and `append`.
package struct LogExtent: Sendable, Equatable {
  /// Bytes up to and including the last `\n`.
  package var completeBytes: Int64
  /// Bytes after the last `\n` (a torn write), 0 when the log ends cleanly.
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
enum LogReader {
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
