import Synchronization

/// A loaded log held open read-only, so strings interned as spans of it (event ids and
/// transactions, `SymbolTable`) are read back from the file when printed instead of being
/// copied into memory while loading (Docs/decisions.md, "Ids as references into the log").
///
/// Reads use `pread` on one descriptor, which is safe from any thread. Each span is read with
/// the byte before and after it, which must be the quotes of the JSON string it was interned
/// from: a log cut or rewritten under a loaded ledger is noticed, not misread. The first such
/// failure is kept (`failure`) for callers that can throw.
package final class LogSource: @unchecked Sendable {
  // Sendable by hand: the descriptor and path never change, and `pread` does not move the
  // file position; the one mutable state is behind a lock.
  private let file: PlatformFile
  /// The path the log was opened with, for messages.
  package let path: String
  private let firstFailure = Mutex<Diagnostic?>(nil)

  /// Opens the log at `path` for reading.
  package init(path: String) throws(Diagnostic) {
    file = try PlatformFile(path: path, mode: .read)
    self.path = path
  }

  /// The open file, for reading the log's lines while loading it.
  package func withFile<R>(_ body: (borrowing PlatformFile) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
    try body(file)
  }

  /// The first read that failed or found other bytes than were loaded; nil while all is well.
  package var failure: Diagnostic? { firstFailure.withLock { $0 } }

  /// Reads up to `buffer.count` bytes at `offset` (fewer only at the end of the file); a
  /// failed read is kept as `failure` and returns nil.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int? {
    do {
      return try file.read(into: buffer, at: offset)
    } catch {
      note(error)
      return nil
    }
  }

  /// Whether `count` bytes at `at` of `window` (read from the log) are still the string
  /// interned from there: quoted, with the quotes in the window. Records a failure otherwise.
  func checkQuoted(_ window: UnsafeRawBufferPointer, at: Int, count: Int, fileOffset: Int64) -> Bool {
    if at >= 1 && at + count < window.count && window[at - 1] == 0x22 && window[at + count] == 0x22 { return true }
    note(LogSource.changed(path: path, offset: fileOffset))
    return false
  }

  /// Calls `body` with the `count` bytes of the string at `offset`, read from the log, or nil
  /// when they cannot be read as they were loaded (`failure` then says why).
  func withString<R>(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
    withUnsafeTemporaryAllocation(byteCount: count + 2, alignment: 8) { raw in
      guard offset >= 1, let n = read(into: raw, at: offset - 1) else { return body(nil) }
      let window = UnsafeRawBufferPointer(rebasing: raw[0..<n])
      guard checkQuoted(window, at: 1, count: count, fileOffset: offset) else { return body(nil) }
      return body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[1..<(1 + count)]))
    }
  }

  /// Keeps the first failure.
  func note(_ diagnostic: Diagnostic) {
    firstFailure.withLock { if $0 == nil { $0 = diagnostic } }
  }

  /// The failure of a string that is no longer where it was loaded from.
  static func changed(path: String, offset: Int64) -> Diagnostic {
    Diagnostic(
      file: path,
      .cannotRead(
        path: path,
        reason: "the log changed after it was loaded: the string at byte \(offset) is no longer there"
          + " (a log is only ever appended to); load it again"))
  }

  /// What a string that cannot be read back prints as: loud, never mistaken for an id.
  static let unreadablePlaceholder = "<unreadable: the log changed after loading>"
}

/// Reads a table's log spans in symbol order through one large buffer: spans interned in log
/// order lie at rising offsets, so the log is read once, sequentially, in big blocks.
struct LogWindow: ~Copyable {
  private let source: LogSource
  private let buffer: UnsafeMutableRawBufferPointer
  private var start: Int64 = 0
  private var count = 0

  /// A window of `blockBytes` (and room for the longest string) over `source`.
  init(_ source: LogSource, blockBytes: Int = 1 << 20) {
    self.source = source
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockBytes + Int(UInt16.max) + 2, alignment: 64)
  }

  deinit { buffer.deallocate() }

  /// The `length` bytes at `offset`, checked to be the string loaded from there; nil on failure
  /// (the source keeps it). Valid until the next call.
  mutating func bytes(at offset: Int64, count length: Int) -> UnsafeBufferPointer<UInt8>? {
    guard offset >= 1 else { return nil }
    if offset - 1 < start || offset + Int64(length) + 1 > start + Int64(count) {
      start = offset - 1
      guard let n = source.read(into: buffer, at: start) else {
        count = 0
        return nil
      }
      count = n
    }
    let at = Int(offset - start)
    guard source.checkQuoted(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: at, count: length, fileOffset: offset)
    else { return nil }
    return UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + at, count: length)
  }
}
