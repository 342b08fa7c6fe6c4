import StoreLedgerCore
import StoreLedgerImport

/// The Google Play documents `import googleplay --append LOG` and `LedgerStore.importGooglePlay`
/// keep beside the log, read and checked against their record (Docs/import-googleplay.md,
/// "Importing as data arrives" and "The record of the kept documents"; `GooglePlayDocumentStore`
/// forms and reads the lines, `GooglePlayDocumentRecord` the record).
///
/// Beside the log's canonical path, so that every name of the log sees one set:
/// `LOG.googleplay-documents.jsonl`, append-only and fsynced; `LOG.googleplay-documents.record`,
/// replaced whole after each import; `LOG.googleplay-documents.lock`, the import lock
/// (`GooglePlayDocumentFile+Import.swift` has the commit protocol). The value holds the file's
/// complete lines as checked: the record's bytes with the digest it names, then what an
/// interrupted import kept after them (every line parsed), a last line cut short left out.
package struct GooglePlayDocumentFile {
  /// The kept lines, checked (complete lines only).
  package let bytes: [UInt8]
  /// The documents file.
  package let path: String
  /// The record beside it.
  package let recordPath: String
  /// The log, as named by the caller (for messages).
  package let logPath: String
  /// The file's identity when read; nil when there was none.
  let identity: FileIdentity?
  /// The file's length when read, a last line cut short included.
  let length: Int64
  /// The record found, if any.
  let record: GooglePlayDocumentRecord?
  /// SHA-256 over `bytes` so far, to be continued by what an import appends.
  let hasher: SHA256
  /// What `check` says about documents that can still be imported with: no record yet, a
  /// last line cut short.
  package let warnings: [Diagnostic]

  /// Where the documents of `log` are kept.
  package static func path(log: String) -> String { PlatformFile.canonicalPath(log) + ".googleplay-documents.jsonl" }
  /// Where the record of the documents of `log` is.
  package static func recordPath(log: String) -> String {
    PlatformFile.canonicalPath(log) + ".googleplay-documents.record"
  }

  /// A problem with the documents of `log`, at `line` when there is one.
  static func diagnostic(
    _ issue: GooglePlayDocumentsIssue, log: String, line: Int? = nil, severity: Severity = .error
  ) -> Diagnostic {
    Diagnostic(
      file: path(log: log), line: line, .googlePlayDocuments(issue, record: recordPath(log: log), log: log),
      severity: severity)
  }

  /// The kept documents of `log`, checked against their record; empty when none are kept.
  ///
  /// The record is read first, then the file, then the log: an import that commits meanwhile
  /// only makes the file longer than the record says, which is allowed. Every line after the
  /// recorded bytes is parsed; every line is parsed so before any record covers it, so the
  /// recorded bytes, whose SHA-256 is checked, need only their token prefix checked.
  /// - Throws: `googlePlayDocuments` (exit 65) when the file is lost, shorter than recorded,
  ///   not the bytes recorded, unreadable, holds a line that is not a kept document, or the
  ///   record is damaged or was written for another log.
  /// - Complexity: O(n) in the size of the file (a SHA-256 and a scan for newlines).
  package static func read(log: String) throws(Diagnostic) -> GooglePlayDocumentFile {
    let record = try readRecord(log: log)
    let path = path(log: log)
    guard PlatformFile.exists(path) else {
      if let record { throw diagnostic(.missing(recordedBytes: record.documentsBytes), log: log) }
      return GooglePlayDocumentFile(
        bytes: [], path: path, recordPath: recordPath(log: log), logPath: log, identity: nil, length: 0, record: nil,
        hasher: SHA256(), warnings: [])
    }
    var (bytes, identity) = try readDocuments(path, log: log)
    let length = Int64(bytes.count)
    var hasher = SHA256()
    if let record {
      guard length >= record.documentsBytes else {
        throw diagnostic(.shorter(bytes: length, recordedBytes: record.documentsBytes), log: log)
      }
      hasher.update(bytes[..<Int(record.documentsBytes)])
      let digest = hasher
      guard digest.finalize() == record.documentsSHA256 else {
        throw diagnostic(.changed(recordedBytes: record.documentsBytes), log: log)
      }
      try checkLog(record, log: log)
    }
    let recorded = Int(record?.documentsBytes ?? 0)
    let scan = GooglePlayDocumentStore.scan(bytes, parsingFrom: recorded)
    if let line = scan.badLine { throw diagnostic(.badLine(reason: scan.reason), log: log, line: line) }
    // What a record vouches for ends with a line's newline; anything else was never recorded here.
    guard scan.completeBytes >= recorded else { throw diagnostic(.changed(recordedBytes: Int64(recorded)), log: log) }
    hasher.update(bytes[recorded..<scan.completeBytes])
    var warnings: [Diagnostic] = []
    if record == nil && scan.completeBytes > 0 { warnings.append(diagnostic(.notRecorded, log: log, severity: .warning)) }
    if scan.completeBytes < bytes.count {
      warnings.append(diagnostic(.tornLastLine(bytes: bytes.count - scan.completeBytes), log: log, severity: .warning))
      bytes.removeSubrange(scan.completeBytes...)
    }
    return GooglePlayDocumentFile(
      bytes: bytes, path: path, recordPath: recordPath(log: log), logPath: log, identity: identity, length: length,
      record: record, hasher: hasher, warnings: warnings)
  }

  /// What `storeledger check LOG` reports about the documents kept beside the log: the error
  /// that stops imports, if any, and the warnings: the checks an import makes.
  /// - Complexity: O(n) in the size of the file.
  package static func problems(log: String) -> [Diagnostic] {
    do {
      return try read(log: log).warnings
    } catch {
      return [error]
    }
  }

  /// The record beside the documents of `log`; nil when there is none.
  private static func readRecord(log: String) throws(Diagnostic) -> GooglePlayDocumentRecord? {
    let path = recordPath(log: log)
    switch PlatformFile.entryKind(path) {
    case .missing: return nil
    case .regular: break
    default: throw diagnostic(.recordDamaged(reason: "it is not a regular file"), log: log)
    }
    let bytes: [UInt8]
    do {
      bytes = try LedgerLoader.readFile(path, limit: GooglePlayDocumentRecord.recordBytesMax)
    } catch {
      if case .fileNotFound = error.problem { throw diagnostic(.recordDamaged(reason: "it went while it was read"), log: log) }
      throw diagnostic(.recordDamaged(reason: error.message), log: log)
    }
    switch GooglePlayDocumentRecord.decode(bytes) {
    case .success(let record): return record
    case .failure(let damage): throw diagnostic(.recordDamaged(reason: damage.reason), log: log)
    }
  }

  /// The whole documents file and its identity; any failure is `unreadable`.
  private static func readDocuments(_ path: String, log: String) throws(Diagnostic) -> ([UInt8], FileIdentity?) {
    do throws(Diagnostic) {
      let file = try PlatformFile(path: path, mode: .read)
      guard file.entryKind() == .regular else {
        throw diagnostic(.unreadable(reason: "it is not a regular file"), log: log)
      }
      return (try file.readBytes(count: Int(try file.size()), at: 0), file.identity())
    } catch {
      if case .googlePlayDocuments = error.problem { throw error }
      throw diagnostic(.unreadable(reason: error.message), log: log)
    }
  }

  /// Refuses a record that was not written for `log`: the log is shorter than the committed
  /// length it names, or its bytes before that length are not the ones it recorded.
  private static func checkLog(_ record: GooglePlayDocumentRecord, log: String) throws(Diagnostic) {
    let (size, tail) = try logTail(log: log, before: record.logBytes)
    guard size >= record.logBytes else {
      throw diagnostic(
        .otherLog(
          reason: "it was written when the log had \(Plural.counted(record.logBytes, "committed byte")), "
            + "but the log has \(size): the log was truncated or replaced, or the record is another log's"),
        log: log)
    }
    guard tail == record.logTail else {
      throw diagnostic(
        .otherLog(
          reason: "the log's bytes before offset \(record.logBytes) are not the ones it recorded: "
            + "the log was replaced, or the record is another log's"),
        log: log)
    }
  }

  /// The log's committed length as a reader sees it, and the digest of the bytes before
  /// `offset` (nil when the log is shorter); a log that does not exist has no bytes.
  static func logTail(log: String, before offset: Int64) throws(Diagnostic) -> (size: Int64, digest: String?) {
    guard PlatformFile.exists(log) else {
      return (0, offset == 0 ? GooglePlayDocumentRecord.tailDigest([]) : nil)
    }
    let file = try PlatformFile(path: log, mode: .read)
    let size = try AppendIntent.visibleLength(of: file, logPath: log).length
    guard size >= offset else { return (size, nil) }
    let start = max(0, offset - GooglePlayDocumentRecord.logTailBytes)
    return (size, GooglePlayDocumentRecord.tailDigest(try file.readBytes(count: Int(offset - start), at: start)))
  }
}
