/// The intent record that makes an append all or nothing across a crash.
///
/// Before an appender writes a batch it writes `LOG.intent` ("the log's committed length is
/// C; a batch of B bytes follows"), fsyncs it and its directory. After the batch is written
/// and fsynced the record is removed (and the removal fsynced) before success is reported.
/// Whoever finds a record left by a crashed appender rolls the batch back: the next append and
/// `repair` truncate the log to C; readers read only the first C bytes. A record that is itself
/// torn was never followed by a write, so it is discarded. Docs/durability.md states the guarantee.
enum AppendIntent {
  /// The format tag at the start of the record.
  static let format = "storeledger-append-intent/1"
  /// Largest record read (a valid one is under 200 bytes).
  static let recordBytesMax = 4096

  /// What an intent record says.
  struct Record: Equatable {
    /// The log's length before the batch: what was committed.
    var committed: Int64
    /// Bytes in the batch.
    var batch: Int64
  }

  /// The record's path for a log.
  static func path(forLog logPath: String) -> String { logPath + ".intent" }

  /// The record's text, ending with a check digest so a torn record is recognised.
  static func encode(_ record: Record) -> [UInt8] {
    let body = "\(format) committed=\(record.committed) batch=\(record.batch)"
    return Array((body + " check=" + SHA256.hash(Array(body.utf8)).hex.prefix(16) + "\n").utf8)
  }

  /// Parses a record; nil when it is torn, damaged or not a record.
  static func decode(_ bytes: [UInt8]) -> Record? {
    guard bytes.last == 10, let text = String(validating: bytes.dropLast(), as: UTF8.self) else { return nil }
    let parts = text.split(separator: " ")
    guard parts.count == 4, parts[0] == format, parts[1].hasPrefix("committed="), parts[2].hasPrefix("batch="),
      parts[3].hasPrefix("check="),
      let committed = Int64(parts[1].dropFirst(10)), let batch = Int64(parts[2].dropFirst(6)),
      committed >= 0, batch > 0
    else { return nil }
    let record = Record(committed: committed, batch: batch)
    return encode(record) == bytes ? record : nil
  }

  /// Reads the record beside `logPath`; nil when there is none or it is torn.
  static func read(logPath: String) throws(Diagnostic) -> Record? {
    let path = path(forLog: logPath)
    guard PlatformFile.entryKind(path) == .regular else { return nil }
    let bytes: [UInt8]
    do {
      bytes = try LedgerLoader.readFile(path, limit: recordBytesMax)
    } catch {
      if case .fileNotFound = error.problem { return nil }
      if case .cannotRead(_, let reason) = error.problem, reason.hasPrefix("larger than") { return nil }
      throw error
    }
    return decode(bytes)
  }

  /// Writes the record durably before the batch is written (caller holds the exclusive lock).
  static func begin(logPath: String, _ record: Record) throws(Diagnostic) {
    let path = path(forLog: logPath)
    do {
      let file = try PlatformFile(path: path, mode: .writeTruncate)
      try file.write(encode(record))
      try file.sync()
      try PlatformFile.syncDirectory(of: path)
    } catch {
      // The log is untouched; a record left behind would be discarded as torn anyway.
      try? PlatformFile.remove(path)
      throw error
    }
  }

  /// Removes the record durably: from here on the batch is committed.
  static func commit(logPath: String) throws(Diagnostic) {
    let path = path(forLog: logPath)
    try PlatformFile.remove(path)
    try PlatformFile.syncDirectory(of: path)
  }

  /// Rolls back the batch of an interrupted append, if any; returns the bytes removed.
  ///
  /// The caller holds the log's exclusive lock. A log that is longer than the record allows
  /// (something else wrote to it) is not touched: that is an error.
  static func recover(_ log: borrowing PlatformFile, logPath: String) throws(Diagnostic) -> Int64 {
    let path = path(forLog: logPath)
    guard PlatformFile.entryKind(path) != .missing else { return 0 }
    var removed: Int64 = 0
    if let record = try read(logPath: logPath) {
      let size = try log.size()
      if size > record.committed {
        guard size <= record.committed + record.batch else {
          throw Diagnostic(
            file: logPath,
            .unfinishedAppendUnrecoverable(
              "\(path) says the log had \(record.committed) bytes before a batch of \(record.batch), but it has \(size); "
                + "something else wrote to it. Inspect both, then remove \(path)"))
        }
        try log.truncate(to: record.committed)
        try log.sync()
        removed = size - record.committed
      }
    }
    try commit(logPath: logPath)
    return removed
  }

  /// The log's length a reader may read: the committed length while an append is unfinished.
  ///
  /// Taken under a shared lock held only for this instant, so it never falls inside a write
  /// of a live appender (which holds the exclusive lock from before it writes the record
  /// until after it removes it).
  static func visibleLength(of log: borrowing PlatformFile, logPath: String) throws(Diagnostic) -> Int64 {
    try log.lockShared()
    defer { log.unlock() }
    let size = try log.size()
    guard let record = try read(logPath: logPath) else { return size }
    return min(size, record.committed)
  }
}
