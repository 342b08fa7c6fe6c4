import StoreLedgerCore

/// What the Google Play documents kept beside a log held after the last import that recorded
/// them (`LOG.googleplay-documents.record`, Docs/import-googleplay.md, "The record of the kept
/// documents"), and the log it was written for.
///
/// The kept documents are part of the ledger's state: an import derives its events from all
/// of them, so a file lost, truncated or replaced would change answers without a word. The
/// record names the file's length and the SHA-256 of those bytes; the file may only have grown
/// since (documents an interrupted import kept). It also names a committed length of the log
/// and a digest of the bytes before it: the log only grows, so a record copied from another log
/// (or a log replaced under it) does not match. One line, ending with a check digest; written
/// whole under a temporary name and renamed. Pure: bytes in, values out.
package struct GooglePlayDocumentRecord: Sendable, Equatable {
  /// The format tag at the start of the record.
  static let format = "storeledger-googleplay-documents/1"
  /// Largest record read (a valid one is under 250 bytes).
  package static let recordBytesMax = 4096
  /// Bytes of the log before `logBytes` whose digest the record keeps.
  package static let logTailBytes: Int64 = 64

  /// The documents file's length when recorded.
  package var documentsBytes: Int64
  /// SHA-256 of the file's first `documentsBytes` bytes.
  package var documentsSHA256: SHA256Digest
  /// A committed length of the log when recorded.
  package var logBytes: Int64
  /// Digest of the (up to) `logTailBytes` bytes of the log before `logBytes`.
  package var logTail: String

  /// Creates a record.
  package init(documentsBytes: Int64, documentsSHA256: SHA256Digest, logBytes: Int64, logTail: String) {
    self.documentsBytes = documentsBytes
    self.documentsSHA256 = documentsSHA256
    self.logBytes = logBytes
    self.logTail = logTail
  }

  /// A short digest of the log bytes before `logBytes` (16 hex digits of SHA-256).
  package static func tailDigest(_ bytes: some Collection<UInt8>) -> String {
    String(SHA256.hash(bytes).hex.prefix(16))
  }

  /// The record's text, ending with a check digest so damage is recognised.
  package func encoded() -> [UInt8] {
    let body =
      "\(Self.format) documents_bytes=\(documentsBytes) documents_sha256=\(documentsSHA256.hex)"
      + " log_bytes=\(logBytes) log_tail=\(logTail)"
    return Array((body + " check=" + Self.tailDigest(Array(body.utf8)) + "\n").utf8)
  }

  /// Parses a record; why not when it is not one of this format.
  package static func decode(_ bytes: [UInt8]) -> Result<Self, RecordDamage> {
    guard bytes.last == 10, let text = String(validating: bytes.dropLast(), as: UTF8.self) else {
      return .failure(RecordDamage(reason: "it is not one line of text"))
    }
    let parts = text.split(separator: " ")
    guard parts.first.map(String.init) == format else {
      return .failure(RecordDamage(reason: "it does not begin with '\(format)'"))
    }
    var values: [Substring: Substring] = [:]
    for part in parts.dropFirst() {
      guard let equals = part.firstIndex(of: "=") else { continue }
      values[part[..<equals]] = part[part.index(after: equals)...]
    }
    guard parts.count == 6, let documents = values["documents_bytes"].flatMap({ Int64($0) }), documents >= 0,
      let digest = values["documents_sha256"].flatMap({ SHA256Digest(hex: String($0)) }),
      let log = values["log_bytes"].flatMap({ Int64($0) }), log >= 0, let tail = values["log_tail"],
      values["check"] != nil
    else { return .failure(RecordDamage(reason: "a field is missing or malformed")) }
    let record = Self(documentsBytes: documents, documentsSHA256: digest, logBytes: log, logTail: String(tail))
    guard record.encoded() == bytes else { return .failure(RecordDamage(reason: "its check digest does not match")) }
    return .success(record)
  }

  /// Why bytes are not a record.
  package struct RecordDamage: Error, Sendable, Equatable {
    /// In words.
    package var reason: String
  }
}
