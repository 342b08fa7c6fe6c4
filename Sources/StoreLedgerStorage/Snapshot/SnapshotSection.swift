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
    // The ids' and transactions' strings, read once, place the records' references.
    let strings = [TableOrder.Strings(ledger.symbols.ids), TableOrder.Strings(ledger.symbols.transactions)]
    let placements = placed(strings)
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
        ledger, batches: batchRange, order: order, recordStarts: recordStarts, placements: (placements[0], placements[1]),
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
    writeTables(ledger.symbols, subjectOrder: order, sorted: Array(zip(strings, placements)), into: &out)
    return start..<out.count
  }

  /// Each table's `TableOrder.placement`, the tables at once on every core.
  /// - Complexity: O(strings + bytes).
  private static func placed(_ strings: [TableOrder.Strings]) -> [TableOrder.Placement] {
    var placements = [TableOrder.Placement](repeating: TableOrder.Placement(symbols: [], rank: []), count: strings.count)
    placements.withUnsafeMutableBufferPointer { out in
      // Each task writes its own element through the pointer.
      nonisolated(unsafe) let out = out
      DispatchQueue.concurrentPerform(iterations: strings.count) { out[$0] = TableOrder.placement(of: strings[$0]) }
    }
    return placements
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

  /// Appends the string tables: subjects in `order`, then ids and transactions in their
  /// `sorted` order (`TableOrder`), then currencies in symbol order.
  /// - Complexity: O(string bytes).
  private static func writeTables(
    _ symbols: LedgerSymbols, subjectOrder order: [Int], sorted: [(TableOrder.Strings, TableOrder.Placement)],
    into out: inout [UInt8]
  ) {
    var size = symbols.subjects.count * 4 + symbols.subjects.stringBytes
    size += symbols.currencies.count * 4 + symbols.currencies.stringBytes
    for (strings, _) in sorted { size += strings.count * 4 + strings.arena.count }
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: size))
    out.withUnsafeMutableBytes { whole in
      let raw = UnsafeMutableRawBufferPointer(rebasing: whole[start...])
      var at = 0
      writeTable(count: order.count, into: raw, at: &at) { k, body in
        symbols.subjects.withBytes(Symbol(rawValue: UInt32(order[k])), body)
      }
      for (strings, placement) in sorted {
        writeTable(count: strings.count, into: raw, at: &at) { k, body in
          strings.withString(Int(placement.symbols[k]), body)
        }
      }
      writeTable(count: symbols.currencies.count, into: raw, at: &at) { k, body in
        symbols.currencies.withBytes(Symbol(rawValue: UInt32(k)), body)
      }
      precondition(at == raw.count, "snapshot section size miscounted")
    }
  }

  /// One string table of `count` strings, `string(k, body)` calling `body` with the k-th: the
  /// end of each string, then the strings.
  private static func writeTable(
    count: Int, into raw: UnsafeMutableRawBufferPointer, at: inout Int,
    string: (Int, (UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) {
    var stringAt = at + count * 4
    for k in 0..<count {
      string(k) { bytes in
        UnsafeMutableRawBufferPointer(rebasing: raw[stringAt..<(stringAt + bytes.count)]).copyMemory(from: UnsafeRawBufferPointer(bytes))
        stringAt += bytes.count
      }
      raw.storeBytes(of: UInt32(stringAt - at - count * 4).littleEndian, toByteOffset: at + k * 4, as: UInt32.self)
    }
    at = stringAt
  }
}
