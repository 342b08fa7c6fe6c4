import StoreLedgerCore
import StoreLedgerImport

/// The kept Google Play documents in an erasure (Docs/erasure.md): the documents of an erased
/// customer's purchase tokens go, every other line loses any erased subject or token it names,
/// and the record is written anew for the new file and the new log.
extension GooglePlayDocumentFile {
  /// Learns the purchase tokens of the erased customers from the kept documents.
  /// - Complexity: O(n × rounds) in the size of the file.
  func learnTokens(into rewrite: inout ErasureRewrite) { rewrite.learnTokens(fromDocuments: bytes) }

  /// The new documents (an erased token's lines dropped, others rewritten) and their record for
  /// the new log (`logBytes`, ending with `logTail`); nil when no documents are kept.
  func erased(by rewrite: ErasureRewrite, newLog: [UInt8]) -> (documents: [UInt8], record: [UInt8], dropped: Int)? {
    guard identity != nil || record != nil else { return nil }
    let tokens = rewrite.tokens
    let result = rewrite.rewrite(bytes, documents: true) { line in line["token"]?.stringValue.map(tokens.contains) ?? false }
    let dropped = bytes.count(where: { $0 == 10 }) - result.bytes.count(where: { $0 == 10 })
    let tail = newLog.suffix(Int(GooglePlayDocumentRecord.logTailBytes))
    let newRecord = GooglePlayDocumentRecord(
      documentsBytes: Int64(result.bytes.count), documentsSHA256: SHA256.hash(result.bytes),
      logBytes: Int64(newLog.count), logTail: GooglePlayDocumentRecord.tailDigest(tail))
    return (result.bytes, newRecord.encoded(), dropped)
  }
}
