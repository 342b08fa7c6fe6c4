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
  /// The offset of the first newline in `bytes[from..<to]`, or nil (a `ByteScan` of 16 bytes a step).
  /// - Complexity: O(to - from).
  @inline(__always)
  static func findNewline(_ bytes: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    let newline = ByteScan.first(10, in: UnsafeBufferPointer(bytes), from: from, end: to)
    return newline < to ? newline : nil
  }
}
