import StoreLedgerCore
import StoreLedgerImport

/// The commit protocol of a Google Play import into a log (Docs/durability.md, "Google Play
/// documents"): under the import lock, the kept documents are read and checked against their
/// record, the import decides from them, its new documents are appended and fsynced, its events
/// appended to the log (the log's own all-or-nothing append), and then the record is replaced
/// with the documents' new length and digest and a committed length of the log.
///
/// A crash after the documents' append leaves lines after what the record covers: the next
/// import reads them (every one parsed) as kept documents whose events it writes, and a line
/// cut short it removes. A crash after the log's append leaves a record that covers less than
/// the file holds: the same. Only a file shorter than recorded, or other bytes where the record
/// has its digest, or a record for another log, is damage.
extension GooglePlayDocumentFile {
  /// Where the import lock of `log` is: a file that nothing replaces or removes, so the lock
  /// follows the name, whatever happens to the documents file.
  package static func lockPath(log: String) -> String { PlatformFile.canonicalPath(log) + ".googleplay-documents.lock" }

  /// How often the lock is taken again when its file was removed and made anew meanwhile.
  static let lockAttemptsMax = 8

  /// Runs `body` holding the exclusive import lock of `log`. An import holds it from reading
  /// what the log and its documents know until its events are appended and its documents
  /// recorded, so two imports into one log never decide from the same stale set; the log's own
  /// lock, which the append takes inside, always comes second.
  /// - Throws: `lockBusy` (exit 75) when `wait` passes, and whatever `body` throws.
  package static func whileLocked<R>(
    log: String, wait: LogLock.Wait, notice: ((String) -> Void)?, _ body: () throws -> R
  ) throws -> R {
    let path = lockPath(log: log)
    for _ in 0..<lockAttemptsMax {
      let file = try PlatformFile(path: path, mode: .readWriteCreate)
      try LogLock.acquire(file, logPath: path, command: "import", wait: wait, notice: notice)
      // A lock on a file the name no longer names excludes nobody: take the one it names.
      guard let held = file.identity(), PlatformFile.identity(path) == held else {
        file.unlock()
        continue
      }
      defer { LogLock.release(file, logPath: path) }
      return try body()
    }
    throw Diagnostic(.cannotWrite(path: path, reason: "the lock file was replaced \(lockAttemptsMax) times while it was taken"))
  }

  /// Runs an import into `log` that keeps its documents: under the import lock, `decide` gets
  /// the kept documents (checked) and returns the import's result; its document lines are
  /// appended; `commit` appends its events to the log; then the documents are recorded. A
  /// failed `commit` takes the documents back. Returns what `commit` returns, and a warning
  /// when the record could not be written after the events were committed.
  /// - Throws: `googlePlayDocuments` (65) for damaged documents, `lockBusy` (75), and whatever
  ///   `decide` and `commit` throw.
  /// - Complexity: O(kept documents), plus `decide` and `commit`.
  package static func importing<R>(
    log: String, wait: LogLock.Wait, notice: ((String) -> Void)?,
    decide: (_ kept: [UInt8]) throws -> ImportResult, commit: (ImportResult) throws -> R
  ) throws -> (value: R, warnings: [Diagnostic]) {
    try whileLocked(log: log, wait: wait, notice: notice) {
      // An erasure a crash interrupted is finished first (the log's writers do it under its lock).
      if PlatformFile.entryKind(EraseJournal.path(forLog: log)) != .missing {
        try LogAppender.withLockedLog(logPath: log, command: "import", wait: wait, waitNotice: notice) { _ in }
      }
      let kept = try read(log: log)
      let result = try decide(kept.bytes)
      let appended = try kept.append(result.documentLines)
      let value: R
      do {
        value = try commit(result)
      } catch {
        // The events were refused: the documents go too (a crash here leaves them, as allowed).
        if appended.length > Int64(kept.bytes.count) { try? kept.truncate(to: Int64(kept.bytes.count)) }
        throw error
      }
      var warnings = kept.writeRecord(after: appended)
      if kept.identity == nil && kept.record == nil && result.knownPurchaseTokens > 0 {
        warnings.append(diagnostic(.noneKept(tokens: result.knownPurchaseTokens), log: log, severity: .warning))
      }
      return (value, warnings)
    }
  }

  /// The documents file after an import appended to it.
  struct Appended {
    /// Its length.
    var length: Int64
    /// SHA-256 over its bytes.
    var hasher: SHA256
  }

  /// Appends `lines` after the checked lines, removing first a last line an interrupted import
  /// cut short, and fsyncs them. Refuses a file moved or replaced since it was read.
  func append(_ lines: [String]) throws(Diagnostic) -> Appended {
    var hasher = self.hasher
    let complete = Int64(bytes.count)
    guard !lines.isEmpty || length > complete else { return Appended(length: complete, hasher: hasher) }
    if identity == nil && PlatformFile.exists(path) { throw Self.diagnostic(.changedDuringImport, log: logPath) }
    let file = try PlatformFile(path: path, mode: .readWriteCreate)
    if let identity {
      let size = try file.size()
      guard file.identity() == identity, size == length else { throw Self.diagnostic(.changedDuringImport, log: logPath) }
    }
    let added = Array(lines.map { $0 + "\n" }.joined().utf8)
    do {
      if length > complete { try file.truncate(to: complete) }
      try file.seek(to: complete)
      try file.write(added)
      try file.sync()
      if identity == nil { try PlatformFile.syncDirectory(of: path) }
    } catch {
      // Nothing of a failed write is kept; a crash may leave a part, which the next import cuts.
      try? file.truncate(to: complete)
      throw error
    }
    hasher.update(added)
    return Appended(length: complete + Int64(added.count), hasher: hasher)
  }

  /// Cuts the file back to `length` and fsyncs it.
  func truncate(to length: Int64) throws(Diagnostic) {
    let file = try PlatformFile(path: path, mode: .readWriteCreate)
    try file.truncate(to: length)
    try file.sync()
  }

  /// Records the file as `appended` left it, with a committed length of the log, written whole
  /// (temporary, fsync, rename, directory fsync). Nothing when no document is kept, or the
  /// record already says as much. A failure is a warning: the events stand, and the next
  /// import reads what the record does not cover and records it.
  func writeRecord(after appended: Appended) -> [Diagnostic] {
    guard appended.length > 0, record?.documentsBytes != appended.length else { return [] }
    do throws(Diagnostic) {
      let (logBytes, logTail) = try Self.committedEnd(log: logPath)
      let record = GooglePlayDocumentRecord(
        documentsBytes: appended.length, documentsSHA256: appended.hasher.finalize(), logBytes: logBytes, logTail: logTail)
      let pending = try PendingFile(replacing: recordPath, force: true)
      try pending.file.write(record.encoded())
      try pending.commit()
      return []
    } catch {
      return [Self.diagnostic(.recordNotWritten(reason: error.message), log: logPath, severity: .warning)]
    }
  }

  /// The end of the log's last complete committed line, and the digest of the bytes before it:
  /// a length the log keeps (`repair` moves only a torn last line aside).
  static func committedEnd(log: String) throws(Diagnostic) -> (length: Int64, tail: String) {
    guard PlatformFile.exists(log) else { return (0, GooglePlayDocumentRecord.tailDigest([])) }
    let file = try PlatformFile(path: log, mode: .read)
    var end = try AppendIntent.visibleLength(of: file, logPath: log).length
    if case .torn(_, let start) = try LogReader.ending(of: file, size: end) { end = start }
    let start = max(0, end - GooglePlayDocumentRecord.logTailBytes)
    return (end, GooglePlayDocumentRecord.tailDigest(try file.readBytes(count: Int(end - start), at: start)))
  }
}
