import StoreLedgerCore
import Dispatch

/// The binary restore section of a snapshot: what restoring reads, laid out to be read in place.
///
/// Little-endian throughout, explicitly encoded:
///
/// | offset | bytes | what |
/// | --- | --- | --- |
/// | 0 | 8 | `magic` |
/// | 8 | 8 | events |
/// | 16 | 4 × 4 | subjects, ids, transactions, currencies (string counts) |
/// | 32 | 8 | bytes of the extras stream |
/// | 40 | events × `RecordCoding.recordBytes` | the event records, subject after subject in byte order of the subjects' names, each subject's in effective order |
/// | … | subjects × 12 | where each subject's records end (a record count, 4 bytes) and its extras end (8 bytes) |
/// | … | extras | the records' extra values (`RecordCoding`), in record order |
/// | … | per table | the string tables of subjects, ids, transactions, currencies: each string's end (4 bytes each), then the strings back to back |
///
/// Records name strings by their index in the tables, so a restore builds the tables in bulk
/// and never interns, and allocates nothing per event.
enum SnapshotSection {
  /// The section's first eight bytes.
  static let magic: [UInt8] = Array("SLRS\u{0}\u{0}\u{0}5".utf8)
  /// Bytes before the first record.
  static let headerBytes = 40
  /// Bytes per subject in the table of where subjects end.
  static let subjectEndBytes = 12

  /// Subjects whose records one task writes.
  static let subjectsPerBatch = 512

  /// Appends the section of `ledger`, its subjects in the order `order` (symbols of `ledger`), to
  /// `out`, written in place (sizes are counted first, so nothing is built twice; records on
  /// every core, a batch of subjects per task); returns where it lies.
  /// - Complexity: O(events + string bytes).
  @discardableResult
  static func encode(_ ledger: Ledger, subjectOrder order: [Int], into out: inout [UInt8]) -> Range<Int> {
    let symbols = ledger.symbols
    let tables = [symbols.subjects, symbols.ids, symbols.transactions, symbols.currencies]
    // Where each subject's records and extras begin, counted from the section's records and extras.
    var recordStarts = [Int](repeating: 0, count: order.count + 1)
    var extrasStarts = [Int](repeating: 0, count: order.count + 1)
    for (n, subject) in order.enumerated() {
      let events = ledger.events(of: Symbol(rawValue: UInt32(subject)))
      recordStarts[n + 1] = recordStarts[n] + events.count
      extrasStarts[n + 1] =
        extrasStarts[n] + events.reduce(0) { $0 + RecordCoding.extrasBytes($1, ledger.details.details(line: $1.line)) }
    }
    let (eventCount, extrasBytes) = (recordStarts[order.count], extrasStarts[order.count])
    let endsAt = headerBytes + eventCount * RecordCoding.recordBytes
    let extrasAt = endsAt + order.count * subjectEndBytes
    var size = extrasAt + extrasBytes
    for table in tables { size += table.count * 4 + table.arenaBytes }
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: size))
    out.withUnsafeMutableBytes { whole in
      let raw = UnsafeMutableRawBufferPointer(rebasing: whole[start...])
      var at = 0
      func put<T: FixedWidthInteger>(_ value: T) {
        raw.storeBytes(of: value.littleEndian, toByteOffset: at, as: T.self)
        at += MemoryLayout<T>.size
      }
      for byte in magic { put(byte) }
      put(UInt64(eventCount))
      put(UInt32(order.count))
      for table in tables.dropFirst() { put(UInt32(table.count)) }
      put(UInt64(extrasBytes))
      // Each task writes only its own subjects' records, extras and ends.
      nonisolated(unsafe) let shared = raw
      let (recordStarts, extrasStarts) = (recordStarts, extrasStarts)
      DispatchQueue.concurrentPerform(iterations: (order.count + subjectsPerBatch - 1) / subjectsPerBatch) { batch in
        for n in (batch * subjectsPerBatch)..<min(order.count, (batch + 1) * subjectsPerBatch) {
          var record = headerBytes + recordStarts[n] * RecordCoding.recordBytes
          var extras = extrasAt + extrasStarts[n]
          for event in ledger.events(of: Symbol(rawValue: UInt32(order[n]))) {
            RecordCoding.encode(event, ledger.details.details(line: event.line), into: shared, at: record, extras: &extras)
            record += RecordCoding.recordBytes
          }
          precondition(extras == extrasAt + extrasStarts[n + 1], "snapshot extras miscounted")
          let end = endsAt + n * subjectEndBytes
          shared.storeBytes(of: UInt32(recordStarts[n + 1]).littleEndian, toByteOffset: end, as: UInt32.self)
          shared.storeBytes(of: UInt64(extrasStarts[n + 1]).littleEndian, toByteOffset: end + 4, as: UInt64.self)
        }
      }
      at = extrasAt + extrasBytes
      writeTable(symbols.subjects, order: order.map { Symbol(rawValue: UInt32($0)) }, into: raw, at: &at)
      for table in tables.dropFirst() {
        writeTable(table, order: (0..<table.count).map { Symbol(rawValue: UInt32($0)) }, into: raw, at: &at)
      }
      precondition(at == raw.count, "snapshot section size miscounted")
    }
    return start..<out.count
  }

  /// One string table: the end of each string, then the strings.
  private static func writeTable(
    _ table: SymbolTable, order: [Symbol], into raw: UnsafeMutableRawBufferPointer, at: inout Int
  ) {
    var end: UInt32 = 0
    for symbol in order {
      end += UInt32(table.withBytes(symbol) { $0.count })
      raw.storeBytes(of: end.littleEndian, toByteOffset: at, as: UInt32.self)
      at += 4
    }
    for symbol in order {
      table.withBytes(symbol) { bytes in
        UnsafeMutableRawBufferPointer(rebasing: raw[at..<(at + bytes.count)]).copyMemory(from: UnsafeRawBufferPointer(bytes))
        at += bytes.count
      }
    }
  }
}
