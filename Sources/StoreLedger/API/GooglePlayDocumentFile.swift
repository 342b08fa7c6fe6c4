import StoreLedgerCore
import StoreLedgerImport

/// The Google Play documents `import googleplay --append LOG` and `LedgerStore.importGooglePlay`
/// keep beside the log, in
/// `LOG.googleplay-documents.jsonl` (Docs/import-googleplay.md, "Importing as data arrives";
/// the library's `GooglePlayDocumentStore` reads and forms its lines). Append-only and
/// fsynced like the log; a line a crash cut short is passed over by the reader.
package struct GooglePlayDocumentFile {
  /// The file.
  package let path: String
  /// Its length before this import appended to it.
  package let previousLength: Int64

  /// Where the documents of `log` are kept.
  package static func path(log: String) -> String { log + ".googleplay-documents.jsonl" }

  /// Runs `body` holding the exclusive lock on `log`'s kept documents. An import holds it from
  /// reading what the log and its documents know until its events are appended, so two imports
  /// into one log never decide from the same stale set; the log's own lock, which the append
  /// takes inside, always comes second. Creates the (empty) documents file when missing.
  /// - Throws: `lockBusy` (exit 75) when `wait` passes, and whatever `body` throws.
  package static func whileLocked<R>(
    log: String, wait: LogLock.Wait, notice: ((String) -> Void)?, _ body: () throws -> R
  ) throws -> R {
    let path = path(log: log)
    let isNew = !PlatformFile.exists(path)
    let file = try PlatformFile(path: path, mode: .readWriteCreate)
    if isNew { try PlatformFile.syncDirectory(of: path) }
    try LogLock.acquire(file, logPath: path, command: "import", wait: wait, notice: notice)
    defer { LogLock.release(file, logPath: path) }
    return try body()
  }

  /// The kept documents of `log`; empty when there are none yet.
  package static func read(log: String) throws(Diagnostic) -> [UInt8] {
    let path = path(log: log)
    guard PlatformFile.exists(path) else { return [] }
    return try LedgerLoader.readFile(path)
  }

  /// Appends `lines` to the documents of `log` and fsyncs them; returns what undoes it.
  package static func append(_ lines: [String], log: String) throws(Diagnostic)
    -> GooglePlayDocumentFile?
  {
    guard !lines.isEmpty else { return nil }
    let path = path(log: log)
    let isNew = !PlatformFile.exists(path)
    var bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
    var length: Int64 = 0
    if !isNew {
      let reader = try PlatformFile(path: path, mode: .read)
      length = try reader.size()
      // A line a crash cut short stays a line of its own, which the reader passes over.
      if length > 0, try reader.readBytes(count: 1, at: length - 1) != [10] {
        bytes.insert(10, at: 0)
      }
    }
    // Appended in one write: another import appending at the same time cannot interleave.
    let file = try PlatformFile(path: path, mode: .appendCreateRegular)
    try file.write(bytes)
    try file.sync()
    if isNew { try PlatformFile.syncDirectory(of: path) }
    return GooglePlayDocumentFile(path: path, previousLength: length)
  }

  /// Takes back what `append` wrote (the events of those documents were refused).
  package func undo() throws(Diagnostic) {
    let file = try PlatformFile(path: path, mode: .readWriteCreate)
    try file.truncate(to: previousLength)
    try file.sync()
  }
}
