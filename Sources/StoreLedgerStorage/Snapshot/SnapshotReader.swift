import StoreLedgerCore

/// Restores a `Ledger` from snapshot bytes written by `SnapshotWriter`.
///
/// Reads the readable header, the trailer and the binary restore section (`SnapshotSection`),
/// never the readable timeline. Nothing is used before the snapshot's digest matches, and then
/// every record is checked against the limits and indices of the section and the catalog, so a
/// damaged snapshot is an error naming the file, never a crash.
package enum SnapshotReader {
  /// Reads only the readable header (the first 64 KiB of a snapshot hold it), to start
  /// digesting the log early. Nothing in it is trusted until `read` has checked the digest.
  package static func header(_ bytes: [UInt8], file: String) throws(Diagnostic) -> SnapshotHeader {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in
      var parser = SnapshotHeaderParser(p: buffer, file: file)
      return try parser.header().header
    }
  }

  /// Reads a snapshot held in memory; `file` names it in errors.
  /// - Complexity: O(header + restore section).
  package static func read(_ bytes: [UInt8], file: String, catalog: Catalog) throws(Diagnostic) -> (
    ledger: Ledger, header: SnapshotHeader
  ) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in try read(buffer, file: file, catalog: catalog) }
  }

  /// Reads a whole snapshot file's bytes (for example mapped).
  ///
  /// The section is decoded while its seal is computed on the other cores; what was decoded is
  /// used only once the seal matches (a damaged section decodes to an error or to values that are
  /// then thrown away, never to a crash: every index and count is checked as it is read).
  /// `spareEvents` reserves room for that many events after the restored ones (a log's
  /// tail), so extending the ledger does not regrow its event array. Without `indexStrings` (the
  /// caller will intern nothing: an empty tail), the ids and transactions tables come without
  /// look-up slots; the first `intern` builds them (`SymbolTable.unindexed`).
  /// - Complexity: O(header + restore section); the readable timeline is not read.
  package static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, file: String, catalog: Catalog, spareEvents: Int = 0,
    indexStrings: Bool = true
  ) throws(Diagnostic) -> (ledger: Ledger, header: SnapshotHeader) {
    var parser = SnapshotHeaderParser(p: buffer, file: file)
    let (header, headerEnd) = try parser.header()
    let raw = UnsafeRawBufferPointer(buffer)
    guard let trailer = SnapshotTrailer.parse(raw) else {
      throw Diagnostic(file: file, .snapshotMismatch("not a valid snapshot: its last line is not a restore trailer (the file was truncated or damaged); make a new snapshot"))
    }
    let damaged = Diagnostic(
      file: file,
      .snapshotMismatch(
        "not a valid snapshot: its content does not match the digest in its last line (the file was damaged or edited); make a new snapshot"))
    guard trailer.headerBytes == headerEnd else { throw damaged }
    let seal = SnapshotSeal.Pending(raw, trailer: trailer)
    let section = UnsafeRawBufferPointer(rebasing: raw[trailer.sectionAt..<(trailer.sectionAt + trailer.sectionBytes)])
    let decoder = SectionDecoder(bytes: section, file: file, catalog: catalog)
    let decoded = Result { () throws(Diagnostic) in try decoder.decode(spareEvents: max(0, spareEvents), indexStrings: indexStrings) }
    // Nothing the header or the section says is trusted before the digest matches.
    guard seal.wait() == trailer.digest else { throw damaged }
    let restored = try decoded.get()
    guard restored.events.count == header.events else {
      throw decoder.fail("the header says \(Plural.counted(header.events, "event")), the section holds \(restored.events.count)")
    }
    return (try restored.ledger(catalog: catalog, header: header, file: file), header)
  }

  /// The readable part of a snapshot (a JSON document), without the restore section and trailer;
  /// all of `bytes` when it has no trailer. The trailer of an earlier format (another digest, so
  /// another width) is found too, so `diff` and `snapshot --check` read a golden file written by
  /// an earlier version and show what changed instead of refusing it as invalid JSON.
  package static func readablePart(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    let sectionAt = bytes.withUnsafeBytes { raw in SnapshotTrailer.parse(raw)?.sectionAt ?? SnapshotTrailer.sectionAtOfAnyFormat(raw) }
    guard let sectionAt else { return bytes[...] }
    return bytes[0..<sectionAt]
  }
}

/// What a restore section decodes to, before it becomes a `Ledger`.
struct RestoredSection {
  var symbols = LedgerSymbols()
  var details = EventDetailTable()
  var events: [Event] = []
  var subjectStarts: [UInt32] = [0]
  var subscriptionCounts: [UInt32] = []
  var latest = Timestamp.distantPast
  var transferSubjects: [Symbol] = []

  /// The ledger these make with `catalog`, whose currencies must be the section's first ones.
  func ledger(catalog: Catalog, header: SnapshotHeader, file: String) throws(Diagnostic) -> Ledger {
    var context = symbols
    let fold = FoldContext(catalog: catalog, symbols: &context)
    guard context.currencies.count == symbols.currencies.count else {
      throw Diagnostic(file: file, .snapshotMismatch("not a valid snapshot: the currencies table does not match the catalog"))
    }
    var ledger = Ledger(
      context: fold, symbols: symbols, details: details, events: events, subjectStarts: subjectStarts,
      subscriptionCounts: subscriptionCounts, linesRead: header.lines, duplicatesSkipped: header.duplicatesSkipped,
      latestEffective: latest, warnings: [])
    ledger.transferSubjects = transferSubjects
    return ledger
  }
}
