import Synchronization

/// A loaded log held open read-only, so strings interned as spans of it (event ids and
/// transactions, `SymbolTable`) are read back from the file when printed instead of being
/// copied into memory while loading (Docs/decisions.md, "Ids as references into the log").
///
/// Reads use `pread` on one descriptor, which is safe from any thread. Each span is read with
/// the byte before and after it, which must be the quotes of the JSON string it was interned
/// from: a log cut or rewritten under a loaded ledger is noticed, not misread. The first such
/// failure is kept (`failure`) for callers that can throw.
package final class LogSource: SpanSource, @unchecked Sendable {
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
  package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int? {
    do {
      return try file.read(into: buffer, at: offset)
    } catch {
      note(error)
      return nil
    }
  }

  /// Whether `count` bytes at `at` of `window` (read from the log) are still the string
  /// interned from there: quoted, with the quotes in the window. Records a failure otherwise.
  package func checkQuoted(_ window: UnsafeRawBufferPointer, at: Int, count: Int, fileOffset: Int64) -> Bool {
    if at >= 1 && at + count < window.count && window[at - 1] == 0x22 && window[at + count] == 0x22 { return true }
    note(LogSource.changed(path: path, offset: fileOffset))
    return false
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
}
