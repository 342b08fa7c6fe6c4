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
/// and never interns, and allocates nothing per event. Subjects are in byte order; ids and
/// transactions in `TableOrder` (by hash, then bytes), so a restore checks that no string
/// appears twice in one pass over neighbours.
enum SnapshotSection {
  /// The section's first eight bytes.
  static let magic: [UInt8] = Array("SLRS\u{0}\u{0}\u{0}6".utf8)
  /// Bytes before the first record.
  static let headerBytes = 40
  /// Bytes per subject in the table of where subjects end.
  static let subjectEndBytes = 12

  /// Subjects whose records one task writes.
  static let subjectsPerBatch = 512

  /// Appends the section of `ledger`, its subjects in the order `order` (symbols of `ledger`), to
  /// `out`, written in place; returns where it lies. Records go straight to their places (a
  /// record is fixed-width) on every core, a batch of subjects per task; each batch's extras go
  /// to a buffer of its own and are joined in order after, so each event's details are looked
  /// up once.
  /// - Complexity: O(events + string bytes).
  @discardableResult
  static func encode(_ ledger: Ledger, subjectOrder order: [Int], into out: inout [UInt8]) -> Range<Int> {
    // Where each subject's records begin, counted from the section's first record.
    var recordStarts = [Int](repeating: 0, count: order.count + 1)
    for (n, subject) in order.enumerated() {
      recordStarts[n + 1] = recordStarts[n] + ledger.events(of: Symbol(rawValue: UInt32(subject))).count
    }
    let eventCount = recordStarts[order.count]
    let endsAt = headerBytes + eventCount * RecordCoding.recordBytes
    let extrasAt = endsAt + order.count * subjectEndBytes
    let start = out.count
    // Where the ids' and transactions' strings go places the records' references.
    let placements: Placements = (
      TableOrder.placement(of: ledger.symbols.ids), TableOrder.placement(of: ledger.symbols.transactions)
    )
    out.append(contentsOf: repeatElement(0, count: extrasAt))
    let batches = (order.count + subjectsPerBatch - 1) / subjectsPerBatch
    // Where each subject's extras end: in its batch's buffer, then in the section's extras.
    var extrasEnds = [Int](repeating: 0, count: order.count)
    var extrasBytes = 0
    var round = 0
    // A round of batches at a time, so memory holds one round's extras beside the section.
    while round < batches {
      let batchRange = round..<min(batches, round + batchesPerRound)
      let buffers = encodeRound(
        ledger, batches: batchRange, order: order, recordStarts: recordStarts, placements: placements,
        into: &out, at: start, extrasEnds: &extrasEnds)
      for (batch, buffer) in zip(batchRange, buffers) {
        for n in subjects(ofBatch: batch, count: order.count) { extrasEnds[n] += extrasBytes }
        extrasBytes += buffer.count
        out.append(contentsOf: buffer)
      }
      round = batchRange.upperBound
    }
    out.withUnsafeMutableBytes { raw in
      for n in order.indices {
        let end = start + endsAt + n * subjectEndBytes
        raw.storeBytes(of: UInt32(recordStarts[n + 1]).littleEndian, toByteOffset: end, as: UInt32.self)
        raw.storeBytes(of: UInt64(extrasEnds[n]).littleEndian, toByteOffset: end + 4, as: UInt64.self)
      }
    }
    writeHeader(ledger.symbols, events: eventCount, subjects: order.count, extrasBytes: extrasBytes, into: &out, at: start)
    writeTables(ledger.symbols, subjectOrder: order, placements: placements, into: &out)
    return start..<out.count
  }

  /// Batches of subjects one round of `encode` writes at once.
  static let batchesPerRound = 16

  /// The subjects (positions in the order) of `batch`.
  private static func subjects(ofBatch batch: Int, count: Int) -> Range<Int> {
    (batch * subjectsPerBatch)..<min(count, (batch + 1) * subjectsPerBatch)
  }

  /// Writes the records of `batches` on every core into the section that begins at `start` of
  /// `out`, and returns each batch's extras; `extrasEnds` gets where each subject's end in them.
  /// - Complexity: O(records of the batches).
  private static func encodeRound(
    _ ledger: Ledger, batches: Range<Int>, order: [Int], recordStarts: [Int], placements: Placements,
    into out: inout [UInt8], at start: Int, extrasEnds: inout [Int]
  ) -> [[UInt8]] {
    var buffers = [[UInt8]](repeating: [], count: batches.count)
    out.withUnsafeMutableBytes { whole in
      let raw = UnsafeMutableRawBufferPointer(rebasing: whole[start...])
      buffers.withUnsafeMutableBufferPointer { buffers in
        extrasEnds.withUnsafeMutableBufferPointer { ends in
          // Each task writes only its own subjects' records, its own buffer and its subjects' ends.
          nonisolated(unsafe) let (shared, buffers, ends) = (raw, buffers, ends)
          DispatchQueue.concurrentPerform(iterations: batches.count) { k in
            let range = subjects(ofBatch: batches.lowerBound + k, count: order.count)
            buffers[k] = encodeBatch(
              ledger, subjects: range, order: order, recordStarts: recordStarts, placements: placements,
              into: shared, ends: ends)
          }
        }
      }
    }
    return buffers
  }

  /// Where the ids' and the transactions' strings are written.
  typealias Placements = (ids: TableOrder.Placement, transactions: TableOrder.Placement)

  /// Writes `subjects`' records (of `order`) at their places in `records`, naming ids and
  /// transactions by `placements`, and returns their extras; `ends` gets where each subject's
  /// extras end in them.
  /// - Complexity: O(records of the subjects).
  private static func encodeBatch(
    _ ledger: Ledger, subjects: Range<Int>, order: [Int], recordStarts: [Int], placements: Placements,
    into records: UnsafeMutableRawBufferPointer, ends: UnsafeMutableBufferPointer<Int>
  ) -> [UInt8] {
    let capacity = (recordStarts[subjects.upperBound] - recordStarts[subjects.lowerBound]) * RecordCoding.extrasBytesMax
    return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      let extrasOut = UnsafeMutableRawBufferPointer(buffer)
      var extras = 0
      for n in subjects {
        var record = headerBytes + recordStarts[n] * RecordCoding.recordBytes
        for var event in ledger.events(of: Symbol(rawValue: UInt32(order[n]))) {
          let details = ledger.details.details(line: event.line)
          event.id = placements.ids.placed(event.id)
          event.transaction = placements.transactions.placed(event.transaction)
          event.originalTransaction = placements.transactions.placed(event.originalTransaction)
          RecordCoding.encode(
            event, details, into: records, at: record,
            extrasInto: extrasOut, at: &extras)
          record += RecordCoding.recordBytes
        }
        ends[n] = extras
      }
      initialized = extras
    }
  }

  /// Writes the section's header at `at` of `out` (which has room for it).
  private static func writeHeader(
    _ symbols: LedgerSymbols, events: Int, subjects: Int, extrasBytes: Int, into out: inout [UInt8], at start: Int
  ) {
    var at = start
    func put<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { out.replaceSubrange(at..<(at + $0.count), with: $0) }
      at += MemoryLayout<T>.size
    }
    for byte in magic { put(byte) }
    put(UInt64(events))
    put(UInt32(subjects))
    for table in [symbols.ids, symbols.transactions, symbols.currencies] { put(UInt32(table.count)) }
    put(UInt64(extrasBytes))
    precondition(at - start == headerBytes, "snapshot section header miscounted")
  }

  /// Appends the string tables: subjects in `order`, then ids and transactions by their
  /// `placements` (`TableOrder`), then currencies in symbol order.
  /// - Complexity: O(string bytes); a table of log spans reads the log once, in order.
  private static func writeTables(
    _ symbols: LedgerSymbols, subjectOrder order: [Int], placements: Placements, into out: inout [UInt8]
  ) {
    let tables = [symbols.subjects, symbols.ids, symbols.transactions, symbols.currencies]
    var size = 0
    for table in tables { size += table.count * 4 + table.stringBytes }
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: size))
    out.withUnsafeMutableBytes { whole in
      let raw = UnsafeMutableRawBufferPointer(rebasing: whole[start...])
      var at = 0
      writeTable(symbols.subjects, order: order.map { UInt32($0) }, into: raw, at: &at)
      writePlaced(symbols.ids, placements.ids, into: raw, at: &at)
      writePlaced(symbols.transactions, placements.transactions, into: raw, at: &at)
      writeTable(symbols.currencies, order: (0..<symbols.currencies.count).map { UInt32($0) }, into: raw, at: &at)
      precondition(at == raw.count, "snapshot section size miscounted")
    }
  }

  /// One string table, its strings in `order` (symbols): the end of each string, then the strings.
  private static func writeTable(_ table: SymbolTable, order: [UInt32], into raw: UnsafeMutableRawBufferPointer, at: inout Int) {
    var end: UInt32 = 0
    for symbol in order {
      end += UInt32(table.byteCount(of: Symbol(rawValue: symbol)))
      raw.storeBytes(of: end.littleEndian, toByteOffset: at, as: UInt32.self)
      at += 4
    }
    for symbol in order {
      table.withBytes(Symbol(rawValue: symbol)) { bytes in
        UnsafeMutableRawBufferPointer(rebasing: raw[at..<(at + bytes.count)]).copyMemory(from: UnsafeRawBufferPointer(bytes))
        at += bytes.count
      }
    }
  }

  /// One string table in the order of `placement`: the ends first, then each string, read in
  /// symbol order (a table of log spans reads the log once, in order), copied to its place. A
  /// span the log no longer holds leaves zero bytes, and its source keeps the failure: the caller
  /// refuses to keep the file (`LedgerSymbols.readFailure`).
  private static func writePlaced(
    _ table: SymbolTable, _ placement: TableOrder.Placement, into raw: UnsafeMutableRawBufferPointer, at: inout Int
  ) {
    let endsAt = at
    var end: UInt32 = 0
    for symbol in placement.symbols {
      end += UInt32(table.byteCount(of: Symbol(rawValue: symbol)))
      raw.storeBytes(of: end.littleEndian, toByteOffset: at, as: UInt32.self)
      at += 4
    }
    let stringsAt = at
    _ = table.forEachString { index, bytes in
      let place = Int(placement.rank[index])
      let start = place == 0 ? 0 : Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: endsAt + 4 * (place - 1), as: UInt32.self)))
      UnsafeMutableRawBufferPointer(rebasing: raw[(stringsAt + start)..<(stringsAt + start + bytes.count)])
        .copyMemory(from: UnsafeRawBufferPointer(bytes))
    }
    at = stringsAt + Int(end)
  }
}
