/// The intent record that makes an append all or nothing across a crash.
///
/// Before an appender writes a batch it writes `LOG.intent` ("this file, device D inode I, had
/// C committed bytes ending in these bytes; a batch of B bytes with this digest follows"),
/// fsyncs it and its directory. After the batch is written and fsynced the record is removed
/// (and the removal fsynced) before success is reported. Whoever finds a record left by a
/// crashed appender rolls the batch back: the next append and `repair` truncate the log to C;
/// readers read only the first C bytes. A record that is itself torn was never followed by a
/// write, so it is discarded.
///
/// The record belongs to the file, not to a name: it lives beside the log's canonical path (every
/// symbolic link resolved), and it describes the file's identity, the end of its committed
/// prefix and the batch. Writers refuse a log with several hard links, whose other names would
/// not find it. A record that does not describe the file it sits beside (the log was replaced,
/// truncated or rewritten, or the record was copied from elsewhere) never shortens what a reader
/// sees: readers ignore it with a warning; writers refuse (65) until `repair --discard-intent`.
/// Docs/durability.md states the guarantee.
package enum AppendIntent {
  /// The format tag at the start of the record.
  static let format = "storeledger-append-intent/2"
  /// Largest record read (a valid one is under 300 bytes).
  static let recordBytesMax = 4096
  /// Bytes before the committed length whose digest the record keeps.
  static let tailBytes: Int64 = 64

  /// What an intent record says.
  struct Record: Equatable {
    /// The log file the batch was written to.
    var identity: FileIdentity
    /// The log's length before the batch: what was committed.
    var committed: Int64
    /// Bytes in the batch.
    var batch: Int64
    /// Digest of the (up to) `tailBytes` bytes before `committed`: the end of the committed prefix.
    var tailDigest: String
    /// Digest of the batch's bytes.
    var batchDigest: String
  }

  /// What a record found beside a log means for it.
  enum Verdict: Equatable {
    /// No record (or a torn one, never followed by a write).
    case none
    /// An append that did not finish: the log's committed length is `record.committed`.
    case unfinished(Record)
    /// A record that does not describe this log: `reason` says how.
    case foreign(reason: String)
  }

  /// The record's path for a log: beside its canonical path, whatever name was typed.
  static func path(forLog logPath: String) -> String { PlatformFile.canonicalPath(logPath) + ".intent" }

  /// A short digest of some bytes (16 hex digits of SHA-256).
  static func digest(_ bytes: [UInt8]) -> String { String(SHA256.hash(bytes).hex.prefix(16)) }

  /// The record's text, ending with a check digest so a torn record is recognised.
  static func encode(_ record: Record) -> [UInt8] {
    let body =
      "\(format) device=\(record.identity.device) inode=\(record.identity.inode) committed=\(record.committed)"
      + " batch=\(record.batch) tail=\(record.tailDigest) batch_sha256=\(record.batchDigest)"
    return Array((body + " check=" + digest(Array(body.utf8)) + "\n").utf8)
  }

  /// Parses a record; nil when it is torn, damaged or not a record of this format.
  static func decode(_ bytes: [UInt8]) -> Record? {
    guard bytes.last == 10, let text = String(validating: bytes.dropLast(), as: UTF8.self) else { return nil }
    let parts = text.split(separator: " ")
    guard parts.count == 8, parts[0] == format else { return nil }
    var values: [Substring: Substring] = [:]
    for part in parts.dropFirst() {
      guard let equals = part.firstIndex(of: "=") else { return nil }
      values[part[..<equals]] = part[part.index(after: equals)...]
    }
    guard let device = values["device"].flatMap({ UInt64($0) }), let inode = values["inode"].flatMap({ UInt64($0) }),
      let committed = values["committed"].flatMap({ Int64($0) }), let batch = values["batch"].flatMap({ Int64($0) }),
      let tail = values["tail"], let batchDigest = values["batch_sha256"], values["check"] != nil,
      committed >= 0, batch > 0, committed <= Int64.max - batch
    else { return nil }
    let record = Record(
      identity: FileIdentity(device: device, inode: inode), committed: committed, batch: batch,
      tailDigest: String(tail), batchDigest: String(batchDigest))
    return encode(record) == bytes ? record : nil
  }

  /// The record for a batch about to be written at `committed` of `log`.
  static func record(for batch: [UInt8], log: borrowing PlatformFile, committed: Int64) throws(Diagnostic) -> Record {
    Record(
      identity: try log.identityAndLinks().identity, committed: committed, batch: Int64(batch.count),
      tailDigest: try tailDigest(of: log, committed: committed), batchDigest: digest(batch))
  }

  /// Digest of the bytes just before `committed`.
  static func tailDigest(of log: borrowing PlatformFile, committed: Int64) throws(Diagnostic) -> String {
    let start = max(0, committed - tailBytes)
    return digest(try log.readBytes(count: Int(committed - start), at: start))
  }

  /// The raw record beside `logPath`: nil when there is none; `.some(nil)` when one is there
  /// but torn or not a record (never followed by a write).
  static func read(logPath: String) throws(Diagnostic) -> Record?? {
    let path = path(forLog: logPath)
    switch PlatformFile.entryKind(path) {
    case .missing: return nil
    case .regular: break
    default: return .some(nil)
    }
    let bytes: [UInt8]
    do {
      bytes = try LedgerLoader.readFile(path, limit: recordBytesMax)
    } catch {
      if case .fileNotFound = error.problem { return nil }
      if case .cannotRead(_, let reason) = error.problem, reason.hasPrefix("larger than") { return .some(nil) }
      throw error
    }
    return .some(decode(bytes))
  }

  /// Whether `record` describes `log` as it is now (`size` bytes), and if not, why.
  static func verdict(_ record: Record, log: borrowing PlatformFile, size: Int64) throws(Diagnostic) -> Verdict {
    guard try log.identityAndLinks().identity == record.identity else {
      return .foreign(reason: "it was written for another file (device and inode differ): the log was replaced")
    }
    guard size >= record.committed else {
      return .foreign(reason: "it says the log had \(record.committed) committed bytes, but the log has \(size)")
    }
    guard try tailDigest(of: log, committed: record.committed) == record.tailDigest else {
      return .foreign(reason: "the log's bytes before offset \(record.committed) are not the ones it recorded")
    }
    if size > record.committed + record.batch {
      return .foreign(
        reason: "it says a batch of \(record.batch) bytes followed byte \(record.committed), but the log has \(size): "
          + "something else wrote to it")
    }
    if size == record.committed + record.batch {
      let batch = try log.readBytes(count: Int(record.batch), at: record.committed)
      guard digest(batch) == record.batchDigest else {
        return .foreign(reason: "the bytes after offset \(record.committed) are not the batch it describes")
      }
    }
    return .unfinished(record)
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

  /// Removes any recovery state beside a log that was just replaced by a new file (`generate
  /// --force`, an output written over an old log): it described the old file.
  static func discardAfterReplacing(_ logPath: String) {
    try? PlatformFile.remove(path(forLog: logPath))
  }

  /// Rolls back the batch of an interrupted append, if any; returns the bytes removed.
  ///
  /// The caller holds the log's exclusive lock. A record that does not describe the log is
  /// refused (65), naming it and the command that discards it; nothing is cut.
  package static func recover(_ log: borrowing PlatformFile, logPath: String) throws(Diagnostic) -> Int64 {
    guard let found = try read(logPath: logPath) else { return 0 }
    var removed: Int64 = 0
    if let record = found {
      let size = try log.size()
      switch try verdict(record, log: log, size: size) {
      case .none: break
      case .foreign(let reason):
        throw Diagnostic(file: logPath, .foreignIntentRecord(record: path(forLog: logPath), reason: reason, log: logPath))
      case .unfinished(let record):
        if size > record.committed {
          try log.truncate(to: record.committed)
          try log.sync()
          removed = size - record.committed
        }
      }
    }
    try commit(logPath: logPath)
    return removed
  }

  /// The log's length a reader may read, without taking a lock (a stopped appender never
  /// blocks a reader), and a warning when a record beside the log was ignored.
  ///
  /// The record is read before and after the log's size, twice over: an append that began
  /// (its record appears) or committed (its record goes, the size grows) while the reader
  /// looked makes it look again, so the length returned is always the end of a committed batch,
  /// never inside one. After `attemptsMax` unsettled looks (a log growing without pause) the
  /// last size with no record around it is used.
  package static func visibleLength(of log: borrowing PlatformFile, logPath: String) throws(Diagnostic) -> (
    length: Int64, warning: Diagnostic?
  ) {
    var size: Int64 = 0
    for attempt in 0..<attemptsMax {
      let before = try read(logPath: logPath)
      size = try log.size()
      let after = try read(logPath: logPath)
      let sizeAfter = try log.size()
      guard before == after, size == sizeAfter else {
        PlatformFile.sleep(milliseconds: attempt < 4 ? 0 : 1)
        continue
      }
      guard let found = after, let record = found else { return (size, nil) }
      switch try verdict(record, log: log, size: size) {
      case .none: return (size, nil)
      case .unfinished(let record): return (record.committed, nil)
      case .foreign(let reason):
        let warning = Diagnostic(
          file: logPath, .foreignIntentRecord(record: path(forLog: logPath), reason: reason, log: logPath),
          severity: .warning)
        return (size, warning)
      }
    }
    return (size, nil)
  }

  /// Looks a reader takes at most for a settled length.
  static let attemptsMax = 64
}
