import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Loads `lines` as a log file in a fresh directory with the Events catalog.
func logFile(_ lines: [String], in directory: URL, name: String = "log.jsonl") throws -> String {
  let path = directory.appendingPathComponent(name).path
  try (lines.map { $0 + "\n" }.joined()).write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

private func makeSnapshot(of logPath: String, catalogPath: String, catalog: Catalog) throws -> [UInt8] {
  try writtenSnapshot(of: logPath, catalogPath: catalogPath, catalog: catalog).bytes
}

@Suite("Snapshots: restore plus tail equals a full replay")
struct SnapshotRestoreTests {
  static let catalogPath = repoPath("Events/catalog.json")

  /// Logs to cut: every scenario, and generated logs.
  static func logs() throws -> [(String, [String])] {
    var result: [(String, [String])] = []
    for name in scenarioNames {
      let text = try String(contentsOfFile: repoPath("Events/\(name).jsonl"), encoding: .utf8)
      result.append((name, text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }))
    }
    for seed in testSeeds([21, 22]) {
      result.append(("random-\(seed)", RandomLog(seed: seed, subjects: 4, eventsPerSubject: 40).lines))
    }
    return result
  }

  @Test("for random cut points, snapshot of the prefix plus the tail answers exactly like a full replay")
  func cutPoints() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    var random = SeededGenerator(seed: testSeeds([99])[0])
    for (name, lines) in try Self.logs() {
      // Shuffle random logs so tail events land before earlier lines in effective time.
      let ordered = name.hasPrefix("random") ? lines.shuffled(using: &random) : lines
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      try FileManager.default.copyItem(atPath: Self.catalogPath, toPath: directory.appendingPathComponent("catalog.json").path)
      let fullPath = try logFile(ordered, in: directory)
      let full = try LedgerLoader.load(logPath: fullPath, catalog: catalog).ledger
      var fullEngine = QueryEngine(ledger: full)
      let subjects = (0..<full.subjectCount).map { full.symbols.subjects.string(Symbol(rawValue: UInt32($0))) } + ["nobody"]
      let times = full.events.flatMap { [$0.at, $0.recorded, $0.at.adding(milliseconds: -1)] }
      let cuts = Set([0, ordered.count] + (0..<8).map { _ in Int.random(in: 0...ordered.count, using: &random) })
      var restoredCuts = 0
      for cut in cuts.sorted() {
        let prefixPath = try logFile(Array(ordered.prefix(cut)), in: directory, name: "prefix.jsonl")
        let snapshotPath = directory.appendingPathComponent("snap-\(cut).json").path
        // A prefix of a shuffled log can spend coins bought later in the file: no snapshot there.
        guard let bytes = try? makeSnapshot(of: prefixPath, catalogPath: Self.catalogPath, catalog: catalog) else {
          #expect(name.hasPrefix("random"), "\(name): prefix of \(cut) lines is invalid")
          continue
        }
        restoredCuts += 1
        try SnapshotFiles.write(bytes, to: snapshotPath)
        let restored = try SnapshotFiles.restore(
          snapshotPath: snapshotPath, logPath: fullPath, catalogPath: Self.catalogPath, catalog: catalog)
        #expect(restored.ledger.events.count == full.events.count, "\(name) cut \(cut)")
        #expect(restored.ledger.duplicatesSkipped == full.duplicatesSkipped, "\(name) cut \(cut)")
        var engine = QueryEngine(ledger: restored.ledger)
        for _ in 0..<60 {
          let subject = subjects.randomElement(using: &random)!
          let at = times.randomElement(using: &random) ?? ts("2026-01-01T00:00:00Z")
          let asOf: Timestamp? = Bool.random(using: &random) ? times.randomElement(using: &random) : nil
          let expected = fullEngine.answer(subject: subject, at: at, asOf: asOf, explain: true)
          let actual = engine.answer(subject: subject, at: at, asOf: asOf, explain: true)
          #expect(actual == expected, "\(name) cut \(cut): \(subject) at \(at) as of \(String(describing: asOf))")
        }
      }
      #expect(restoredCuts >= 2, "\(name): too few valid cut points")
    }
  }

  @Test("snapshotting the same log twice gives identical bytes, and restoring it with no tail gives them again")
  func determinism() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let logPath = repoPath("Events/out-of-order-late.jsonl")
    let first = try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    let second = try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    #expect(first == second)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(first, to: snapshotPath)
    let restored = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    let (_, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
    let header = try SnapshotFiles.header(for: restored.ledger, extent: extent, logPath: logPath, catalogPath: Self.catalogPath)
    #expect(SnapshotWriter.write(restored.ledger, header: header) == first)
  }

  /// A change to the log's prefix, and the phrase the refusal must contain.
  static let tamperings: [(String, String)] = [
    ("a changed byte", "does not begin with"),
    ("a removed line", "does not begin with"),
    ("an inserted line", "does not begin with"),
    ("two swapped lines", "does not begin with"),
    ("a truncated log", "shorter than"),
  ]

  @Test("a snapshot is refused when the log's prefix was tampered with", arguments: tamperings)
  func tampering(kind: String, phrase: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let lines = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let prefixPath = try logFile(Array(lines.prefix(5)), in: directory, name: "prefix.jsonl")
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(try makeSnapshot(of: prefixPath, catalogPath: Self.catalogPath, catalog: catalog), to: snapshotPath)
    var changed = lines
    switch kind {
    case "a changed byte": changed[1] = changed[1].replacingOccurrences(of: "29990", with: "29991")
    case "a removed line": changed.remove(at: 2)
    case "an inserted line":
      changed.insert(EventLines.line(.purchasePending(id: "x", subject: "u9", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual")), at: 1)
    case "two swapped lines": changed.swapAt(0, 1)
    default: changed = Array(lines.prefix(3))
    }
    let logPath = try logFile(changed, in: directory)
    #expect(throws: DiagnosticList.self) {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    }
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    } catch {
      #expect(error.exitCode == 65)
      #expect(error.diagnostics.first?.message.contains(phrase) == true, "\(error.diagnostics)")
    }
  }

  @Test("a snapshot made with another catalog is refused")
  func otherCatalog() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let logPath = repoPath("Events/demo.jsonl")
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog), to: snapshotPath)
    let otherCatalog = directory.appendingPathComponent("catalog.json").path
    try (exampleCatalogText + "\n").write(toFile: otherCatalog, atomically: true, encoding: .utf8)
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: otherCatalog, catalog: catalog)
      Issue.record("expected a refusal")
    } catch {
      #expect(error.diagnostics.first?.message.contains("different catalog") == true)
    }
  }

  /// Damage to a snapshot's restore section or trailer, and the phrase its refusal must contain.
  /// "resealed" damage has its digest written again, so the section's own checks must catch it.
  static let damages: [(String, String)] = [
    ("a truncated file", "last line is not a restore trailer"),
    ("a flipped byte in a record", "does not match the digest"),
    ("a flipped byte in the header", "does not match the digest"),
    ("a flipped byte in the string tables", "does not match the digest"),
    ("an id index out of range, resealed", "record 0 (subject 0, event 1) is damaged"),
    ("an unknown kind code, resealed", "record 0 (subject 0, event 1) is damaged"),
    ("an id repeated, resealed", "record 1 repeats the id of an earlier record"),
    ("an id string repeated, resealed", "of table 'ids' does not follow string"),
    ("a transaction string repeated, resealed", "of table 'transactions' does not follow string"),
    ("two id strings swapped, resealed", "of table 'ids' does not follow string"),
    ("an event count over the limit, resealed", "expected at most"),
    ("extras running past their subject, resealed", "subject 0 ends at record"),
    ("a subject ending past the records, resealed", "subject 0 ends at record"),
    ("a string longer than the limit, resealed", "expected 1 to"),
    ("an unknown section version, resealed", "magic bytes"),
    ("a trailer pointing outside the file", "last line is not a restore trailer"),
    ("the previous format", "expected 'storeledger-snapshot/7': make a new snapshot"),
    ("a prefix block size under the minimum, resealed", "missing or impossible 'catalog', 'format' or 'log'"),
  ]

  @Test("a damaged snapshot is refused with exit 65 and a message naming the file and what was expected", arguments: damages)
  func damaged(damage: String, phrase: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let logPath = repoPath("Events/consumables.jsonl")
    let bytes = try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    let damaged = try SnapshotDamage.apply(damage, to: bytes)
    #expect(damaged != bytes)
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(damaged, to: snapshotPath)
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
      Issue.record("expected an error for \(damage)")
    } catch {
      #expect(error.exitCode == 65)
      let message = error.diagnostics.first?.description ?? ""
      #expect(message.contains(snapshotPath), "\(message)")
      #expect(message.contains(phrase), "\(damage): \(message)")
    }
  }

  /// Records are decoded in runs of subjects, each run refusing its own repeated ids; an id
  /// repeated across two runs is caught when the runs are joined, with the same words.
  @Test("an id held by records of two runs of subjects is refused, naming the later record")
  func idRepeatedAcrossRuns() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Three events each for two subjects: the decoder's two runs take one subject each.
    let events = ["a", "b"].flatMap { subject in
      (1...3).map { k in
        NewEvent.grant(id: EventID(rawValue: "\(subject)\(k)"), subject: SubjectID(rawValue: subject), at: ts("2026-03-0\(k)T00:00:00Z"), entitlements: ["pro"])
      }
    }
    let logPath = try logFile(events.map(EventLines.line), in: directory)
    var bytes = try makeSnapshot(of: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    let section = try #require(bytes.withUnsafeBytes { SnapshotTrailer.parse($0) }).sectionAt
    let first = section + SnapshotSection.headerBytes
    let last = first + 5 * RecordCoding.recordBytes
    bytes.replaceSubrange((last + 8)..<(last + 12), with: bytes[(first + 8)..<(first + 12)])
    SnapshotSeal.seal(&bytes)
    let snapshotPath = directory.appendingPathComponent("s.json").path
    try SnapshotFiles.write(bytes, to: snapshotPath)
    #expect {
      try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
    } throws: { error in
      let message = (error as? DiagnosticList)?.diagnostics.first?.description ?? ""
      return message.contains(snapshotPath) && message.contains("record 5 repeats the id of an earlier record")
    }
  }
}

/// A table with one string twice, or two strings out of place, is refused on both restore paths:
/// with a tail (the look-up slots are built, `SymbolTable.distinct`) and without (no slots): the
/// order check (`TableOrder`) runs on both, first.
@Suite("Snapshots: a string repeated or out of place in a sealed table")
struct SnapshotRepeatedStringTests {
  static let cases: [(String, Bool)] = [
    ("an id string repeated, resealed", false), ("an id string repeated, resealed", true),
    ("a transaction string repeated, resealed", false), ("a transaction string repeated, resealed", true),
    ("two id strings swapped, resealed", false), ("two id strings swapped, resealed", true),
  ]

  @Test("a table holding one string twice or two strings swapped is refused, with an empty tail and with a tail", arguments: cases)
  func repeated(damage: String, withTail: Bool) throws {
    let catalogPath = repoPath("Events/catalog.json")
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try String(contentsOfFile: repoPath("Events/consumables.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let prefixPath = try logFile(Array(lines.dropLast(withTail ? 2 : 0)), in: directory, name: "prefix.jsonl")
    let logPath = try logFile(lines, in: directory)
    let bytes = try makeSnapshot(of: prefixPath, catalogPath: catalogPath, catalog: catalog)
    let snapshotPath = directory.appendingPathComponent("s.json").path
    // Undamaged, it restores on this path.
    try SnapshotFiles.write(bytes, to: snapshotPath)
    let restored = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: catalogPath, catalog: catalog)
    #expect(restored.ledger.linesRead == lines.count)
    try SnapshotFiles.write(try SnapshotDamage.apply(damage, to: bytes), to: snapshotPath)
    let table = damage.hasPrefix("a transaction") ? "transactions" : "ids"
    #expect {
      try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: catalogPath, catalog: catalog)
    } throws: { error in
      let message = (error as? DiagnosticList)?.diagnostics.first?.description ?? ""
      return message.contains(snapshotPath) && message.contains("of table '\(table)' does not follow string")
        && message.contains("a string repeated or out of place")
    }
  }
}

/// The section's order of the ids and transactions tables: what the writer places, the reader
/// accepts, and nothing else.
@Suite("Snapshots: the ids' and transactions' tables in hash order")
struct TableOrderTests {
  /// Strings `txn-…`, with string `copy.to` replaced by string `copy.from`.
  static func strings(count: Int, copy: (from: Int, to: Int)?) -> [[UInt8]] {
    var strings = (0..<count).map { Array("txn-\($0 * 7919)".utf8) }
    if let copy { strings[copy.to] = strings[copy.from] }
    return strings
  }

  /// The reader's check of `strings` as a table in that order (of `range`, or the whole).
  static func firstOutOfOrder(_ strings: [[UInt8]], in range: Range<Int>? = nil) -> Int? {
    tableOrderCheck(strings, in: range)
  }

  /// `strings` laid out in the writer's order.
  static func placed(_ strings: [[UInt8]]) -> [[UInt8]] {
    tableOrderPlaced(strings)
  }

  static let cases: [(Int, (from: Int, to: Int)?)] = [
    (0, nil), (1, nil), (2, nil), (2, (0, 1)), (100, nil), (100, (99, 0)), (50_000, nil), (50_000, (0, 49_999)),
    (50_000, (31_337, 31_338)), (50_000, (12, 40_000)),
  ]

  @Test("the writer's order passes the reader's check exactly when no string repeats, as the slot-building check finds", arguments: cases)
  func writerOrderPasses(count: Int, copy: (from: Int, to: Int)?) {
    let placed = Self.placed(Self.strings(count: count, copy: copy))
    #expect((Self.firstOutOfOrder(placed) != nil) == (copy != nil))
    let (arena, starts) = tableArena(placed)
    #expect((SymbolTable.distinct(arena: arena, starts: starts) == nil) == (copy != nil))
    // The place a repeat is found at holds the second copy, right after the first.
    if copy != nil, let found = Self.firstOutOfOrder(placed) { #expect(placed[found] == placed[found - 1]) }
  }

  @Test("checked in 2 or 3 ranges, the ranges together find what the whole check finds", arguments: cases)
  func rangesTogether(count: Int, copy: (from: Int, to: Int)?) {
    let placed = Self.placed(Self.strings(count: count, copy: copy))
    let whole = Self.firstOutOfOrder(placed)
    for parts in [2, 3] {
      let found = SectionDecoder.ranges(count: count, parts: parts).compactMap { Self.firstOutOfOrder(placed, in: $0) }
      #expect(found.first == whole, "\(parts) ranges: \(found)")
      #expect(SectionDecoder.ranges(count: count, parts: parts).reduce(0) { $0 + $1.count } == count)
    }
  }

  @Test("any two strings swapped in the writer's order are refused at the later place", arguments: [(0, 1), (10, 11), (0, 999), (500, 501)])
  func swapRefused(first: Int, second: Int) {
    var placed = Self.placed(Self.strings(count: 1_000, copy: nil))
    placed.swapAt(first, second)
    #expect(Self.firstOutOfOrder(placed) == (second == first + 1 ? second : first + 1))
  }

  @Test("strings that differ only in length or in their last byte are told apart")
  func nearTwins() {
    let strings = ["a", "aa", "aaa", "aaaaaaaa", "aaaaaaaaa", "aaaaaaab", "aaaaaaaab", "b"].map { Array($0.utf8) }
    #expect(Self.firstOutOfOrder(Self.placed(strings)) == nil)
    #expect(Self.firstOutOfOrder(Self.placed(strings + [Array("aaaaaaab".utf8)])) != nil)
  }

  @Test("the radix sort orders keys by their bits from lowBit up as the standard library's stable sort does",
    arguments: [0, 1, 2, 1_000, 100_000], [0, 31, 63])
  func radixSortAgrees(count: Int, lowBit: Int) {
    var generator = SeededGenerator(seed: UInt64(count) + 7)
    // Few distinct values in the high bits and the low, so keys tie and stability shows.
    var keys = (0..<count).map { _ in
      UInt64.random(in: 0..<64, using: &generator) << 58 | UInt64.random(in: 0..<4, using: &generator) << 30 | UInt64.random(in: 0..<4, using: &generator)
    }
    let expected = keys.enumerated().sorted { ($0.element >> lowBit, $0.offset) < ($1.element >> lowBit, $1.offset) }
    TableOrder.radixSort(&keys, fromBit: lowBit)
    #expect(keys == expected.map(\.element))
  }

  @Test("strings whose hashes share their top bits but not the rest are placed by the whole hash")
  func sharedTopBits() {
    // Enough strings that some pairs share the radix-sorted top 32 bits (about n^2 / 2^33 of them).
    let strings = (0..<300_000).map { Array("id-\($0)".utf8) }
    let placed = Self.placed(strings)
    #expect(Self.firstOutOfOrder(placed) == nil)
    let hashes = placed.map { $0.withUnsafeBufferPointer { SymbolTable.hash($0) } }
    let sharing = zip(hashes, hashes.dropFirst()).filter { $0 >> 32 == $1 >> 32 }
    #expect(!sharing.isEmpty && sharing.allSatisfy { $0 < $1 })
  }
}

/// Ways to damage a snapshot's bytes on purpose, by where its trailer says things are.
enum SnapshotDamage {
  static func apply(_ damage: String, to original: [UInt8]) throws -> [UInt8] {
    var bytes = original
    let trailer = try #require(bytes.withUnsafeBytes { SnapshotTrailer.parse($0) })
    let section = trailer.sectionAt
    let record = section + SnapshotSection.headerBytes
    func put(_ value: UInt32, at offset: Int) {
      for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
    }
    switch damage {
    case "a truncated file": bytes.removeLast(100)
    case "a flipped byte in a record": bytes[record + 3] ^= 0x10
    case "a flipped byte in the header":
      // A digit of the log's byte count: still a number, so only the digest can tell.
      let digit = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("\"bytes\": ".utf8)) }) + 9
      bytes[digit] = bytes[digit] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
    case "a flipped byte in the string tables": bytes[section + trailer.sectionBytes - 2] ^= 0x01
    case "an id index out of range, resealed": put(UInt32.max - 1, at: record + 8)
    case "an unknown kind code, resealed": put(15, at: record + 28)
    case "an id repeated, resealed":
      let next = record + RecordCoding.recordBytes
      bytes.replaceSubrange((next + 8)..<(next + 12), with: bytes[(record + 8)..<(record + 12)])
    case "an event count over the limit, resealed":
      for k in 0..<8 { bytes[section + 8 + k] = 0xFF }
    case "a subject ending past the records, resealed":
      let events = Int(bytes[section + 8]) | Int(bytes[section + 9]) << 8
      put(UInt32(events + 1), at: record + events * RecordCoding.recordBytes)
    case "a string longer than the limit, resealed":
      // The first string of the subjects table, after the records, the subjects' ends and the extras.
      let events = Int(bytes[section + 8]) | Int(bytes[section + 9]) << 8
      let subjects = Int(bytes[section + 16])
      let extras = Int(bytes[section + 32]) | Int(bytes[section + 33]) << 8
      let tables = record + events * RecordCoding.recordBytes + subjects * SnapshotSection.subjectEndBytes + extras
      put(UInt32(Limits.subjectLengthMax + 1), at: tables)
    case "extras running past their subject, resealed":
      let events = Int(bytes[section + 8]) | Int(bytes[section + 9]) << 8
      for k in 0..<8 { bytes[record + events * RecordCoding.recordBytes + 4 + k] = 0xEE }
    case "an unknown section version, resealed": bytes[section + 7] = UInt8(ascii: "9")
    case "an id string repeated, resealed": try repeatString(inTable: 1, of: &bytes, sectionAt: section, count: trailer.sectionBytes)
    case "a transaction string repeated, resealed":
      try repeatString(inTable: 2, of: &bytes, sectionAt: section, count: trailer.sectionBytes)
    case "two id strings swapped, resealed":
      try repeatString(inTable: 1, of: &bytes, sectionAt: section, count: trailer.sectionBytes, swapping: true)
    case "a prefix block size under the minimum, resealed":
      // Same width, so the trailer's offsets still hold: 63 bytes, one under the minimum.
      let digits = String(PrefixTreeDigest.defaultBlockBytes)
      let key = Array("\"block_bytes\": \(digits)".utf8)
      let at = try #require(bytes.indices.first { bytes[$0...].starts(with: key) }) + key.count - digits.count
      bytes.replaceSubrange(at..<(at + digits.count), with: Array((String(repeating: "0", count: digits.count - 2) + "63").utf8))
    case "a trailer pointing outside the file":
      let at = bytes.count - SnapshotTrailer.byteCount + 17 + 20 + 9
      bytes.replaceSubrange(at..<(at + 20), with: Array("99999999999999999999".utf8))
    default:
      let text = String(decoding: bytes, as: UTF8.self)
      return Array(text.replacingOccurrences(of: SnapshotHeader.format, with: "storeledger-snapshot/6").utf8)
    }
    if damage.hasSuffix("resealed") { SnapshotSeal.seal(&bytes) }
    return bytes
  }

  /// Overwrites the last string of table `table` (1: ids, 2: transactions) with an earlier one of
  /// the same length, so the table holds one string twice (a writer bug or a forged file); or,
  /// `swapping`, exchanges the two, so the table holds the same strings out of order.
  static func repeatString(inTable table: Int, of bytes: inout [UInt8], sectionAt: Int, count: Int, swapping: Bool = false) throws {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
    let layout = try bytes.withUnsafeBytes { all in
      try SectionDecoder(
        bytes: UnsafeRawBufferPointer(rebasing: all[sectionAt..<(sectionAt + count)]), file: "s", catalog: catalog
      ).layout()
    }
    let (_, endsAt, arena, _) = layout.tables[table]
    func end(_ k: Int) -> Int {
      k < 0 ? 0 : (0..<4).reduce(0) { $0 | Int(bytes[sectionAt + endsAt + 4 * k + $1]) << (8 * $1) }
    }
    let last = layout.counts[table] - 1
    let lastRange = end(last - 1)..<end(last)
    let twin = try #require((0..<last).first { end($0) - end($0 - 1) == lastRange.count }, "no two strings of one length")
    let from = sectionAt + arena.lowerBound
    let (lastBytes, twinRange) = (Array(bytes[(from + lastRange.lowerBound)..<(from + lastRange.upperBound)]), (from + end(twin - 1))..<(from + end(twin)))
    bytes.replaceSubrange((from + lastRange.lowerBound)..<(from + lastRange.upperBound), with: bytes[twinRange])
    if swapping { bytes.replaceSubrange(twinRange, with: lastBytes) }
  }
}
