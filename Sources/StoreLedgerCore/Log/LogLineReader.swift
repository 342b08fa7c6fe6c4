/// Reads chosen lines of a log file again, by line number: what loading keeps only as a hash
/// (a charge's v1.3 facts, a line's `meta`) is read back from the file when a command needs it.
package enum LogLineReader {
  /// Calls `body` with the bytes (without the newline) of each of `lines` (increasing line
  /// numbers, 1-based) of the file at `path`, in one pass of `chunkBytes` reads that stops after
  /// the last of them. A line past the end of the file is not reported.
  /// - Complexity: O(bytes up to the last line wanted).
  package static func read(
    path: String, lines wanted: [UInt32], chunkBytes: Int = 1 << 20, _ body: (UInt32, [UInt8]) -> Void
  ) throws(Diagnostic) {
    guard let last = wanted.last else { return }
    let file = try PlatformFile(path: path, mode: .read)
    var next = 0
    var lineNumber: UInt32 = 1
    var pending: [UInt8] = []
    var offset: Int64 = 0
    while next < wanted.count {
      let chunk = try file.readBytes(count: chunkBytes, at: offset)
      offset += Int64(chunk.count)
      var lineStart = 0
      for (index, byte) in chunk.enumerated() where byte == 0x0A {
        if lineNumber == wanted[next] {
          body(lineNumber, pending + chunk[lineStart..<index])
          next += 1
          if lineNumber == last { return }
        }
        pending.removeAll(keepingCapacity: true)
        lineStart = index + 1
        lineNumber += 1
      }
      // Only the line being read is carried over; lines not wanted are never copied whole.
      if lineNumber == wanted[next] { pending += chunk[lineStart...] }
      if chunk.count < chunkBytes {
        if lineNumber == wanted[next] { body(lineNumber, pending) }
        return
      }
    }
  }
}
