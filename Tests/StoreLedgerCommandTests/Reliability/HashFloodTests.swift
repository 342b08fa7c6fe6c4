import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

// Strings crafted onto one `SymbolTable.hash` (a multicollision, built here in milliseconds) must
// cost what ordinary strings do: the table moves to its keyed hash at the first flood, so a
// probe never walks a cluster of thousands nor reads the log back once per crafted string.

/// Strings of `2 * 8 * stages` bytes that all share one `SymbolTable.hash`, 2^stages of them.
///
/// Each stage is two 8-byte words; flipping bit 63 of the first and bits 63 and 34 of the second
/// leaves the hash's state unchanged whatever it was (a multiply by an odd constant carries bit 63
/// alone, and the shift by 29 moves it to bit 34), so every choice of the stages collides.
func craftedCollisions(stages: Int) -> [[UInt8]] {
  var base: [UInt8] = []
  for stage in 0..<stages {
    for word in 0..<2 { base += Array("s\(stage % 10)w\(word)-abc".utf8).prefix(8) }
  }
  return (0..<(1 << stages)).map { choice in
    var bytes = base
    for stage in 0..<stages where choice >> stage & 1 == 1 {
      bytes[stage * 16 + 7] ^= 0x80
      bytes[stage * 16 + 8 + 7] ^= 0x80
      bytes[stage * 16 + 8 + 4] ^= 0x04
    }
    return bytes
  }
}

/// A log held in memory whose spans count the reads that compare a string with the log.
final class CountingSpanSource: SpanSource, @unchecked Sendable {
  let bytes: [UInt8]
  private(set) var reads = 0
  /// Each string's offset, after its opening quote.
  let offsets: [Int64]

  init(strings: [[UInt8]]) {
    var bytes: [UInt8] = []
    var offsets: [Int64] = []
    for string in strings {
      bytes.append(34)
      offsets.append(Int64(bytes.count))
      bytes += string
      bytes.append(34)
    }
    self.bytes = bytes
    self.offsets = offsets
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int? {
    reads += 1
    let n = min(buffer.count, bytes.count - Int(offset))
    bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[Int(offset)..<(Int(offset) + n)])) }
    return n
  }

  func checkQuoted(_ window: UnsafeRawBufferPointer, at: Int, count: Int, fileOffset: Int64) -> Bool {
    at >= 1 && at + count < window.count && window[at - 1] == 34 && window[at + count] == 34
  }

  var failure: Diagnostic? { nil }
}

@Suite("Hash flooding")
struct HashFloodTests {
  @Test("the crafted strings are distinct and all share one 64-bit hash")
  func theMulticollisionIsReal() {
    let crafted = craftedCollisions(stages: 12)
    #expect(Set(crafted).count == 4096)
    let hashes = Set(crafted.map { bytes in bytes.withUnsafeBufferPointer { SymbolTable.hash($0) } })
    #expect(hashes.count == 1)
  }

  @Test("interning crafted strings as spans of a log reads the log back a bounded number of times")
  func craftedSpansCostLikeOrdinaryOnes() {
    let crafted = craftedCollisions(stages: 12)
    let log = CountingSpanSource(strings: crafted)
    var table = SymbolTable()
    table.attach(log)
    for (index, bytes) in crafted.enumerated() {
      let symbol = bytes.withUnsafeBufferPointer { table.intern($0, hash: SymbolTable.hash($0), logOffset: log.offsets[index]) }
      #expect(symbol.rawValue == UInt32(index))
    }
    #expect(table.placesByKeyedHash)
    // Before the keyed hash, each string compared with every earlier one: 8 million reads.
    // Now: a few comparisons before the flood is seen, then one sequential pass to re-place.
    #expect(log.reads < 100, "reads of the log: \(log.reads)")
    // Every string is found again, and a redelivered one interns to its first symbol.
    for (index, bytes) in crafted.enumerated() {
      #expect(bytes.withUnsafeBufferPointer { table.lookup($0) } == Symbol(rawValue: UInt32(index)))
    }
    let again = crafted[77].withUnsafeBufferPointer { table.intern($0, hash: SymbolTable.hash($0), logOffset: log.offsets[77]) }
    #expect(again == Symbol(rawValue: 77))
    #expect(table.count == crafted.count)
  }

  @Test("ordinary strings keep the fast placement")
  func ordinaryStringsStayUnkeyed() {
    var table = SymbolTable()
    for index in 0..<200_000 { _ = table.intern("evt-\(index)") }
    #expect(!table.placesByKeyedHash)
    #expect(table.lookup("evt-199999") == Symbol(rawValue: 199_999))
  }

  @Test("a table rebuilt from crafted strings, or restored from them, is keyed and finds each string")
  func rebuiltAndRestoredTablesAreKeyed() throws {
    let crafted = craftedCollisions(stages: 11)
    var arena: [UInt8] = []
    var starts: [UInt32] = [0]
    for bytes in crafted {
      arena += bytes
      starts.append(UInt32(arena.count))
    }
    var unindexed = SymbolTable.unindexed(arena: arena, starts: starts)
    unindexed.rebuildIndex()
    let restored = try #require(SymbolTable.distinct(arena: arena, starts: starts))
    for table in [unindexed, restored] {
      #expect(table.placesByKeyedHash)
      for index in stride(from: 0, to: crafted.count, by: 97) {
        #expect(crafted[index].withUnsafeBufferPointer { table.lookup($0) } == Symbol(rawValue: UInt32(index)))
      }
    }
    // A repeated crafted string is still caught as a damaged snapshot.
    var repeated = arena
    repeated += crafted[5]
    #expect(SymbolTable.distinct(arena: repeated, starts: starts + [UInt32(repeated.count)]) == nil)
    // In a snapshot's order (`TableOrder`) crafted strings, all of one hash, are one run the
    // writer sorts by bytes: the reader's pass accepts them, and finds the repeat next to its twin.
    for (strings, expectsRepeat) in [(crafted, false), (crafted + [crafted[5]], true)] {
      let placed = tableOrderPlaced(strings)
      let found = tableOrderCheck(placed)
      #expect((found != nil) == expectsRepeat)
      if let found { #expect(placed[found] == crafted[5] && placed[found - 1] == crafted[5]) }
    }
  }

  @Test("a log of crafted event ids and subjects loads with every event, and a crafted id conflict is still caught")
  func craftedLogLoads() throws {
    let crafted = craftedPrintableCollisions(stages: 6, choices: 4)
    #expect(crafted.count == 4096 && Set(crafted).count == 4096)
    #expect(Set(crafted.map { $0.withUnsafeBufferPointer { SymbolTable.hash($0) } }).count == 1)
    let lines = crafted.enumerated().map { index, bytes in
      let id = String(decoding: bytes, as: UTF8.self)
      let second = String(format: "%02d", index % 60)
      return #"{"id":"\#(id)","type":"purchase","subject":"\#(id)","at":"2026-03-02T00:00:\#(second)Z","product":"pro.lifetime","transaction":"\#(id)"}"#
    }
    let loaded = try ledger(lines.joined(separator: "\n"))
    #expect(loaded.events.count == crafted.count)
    #expect(loaded.symbols.ids.placesByKeyedHash && loaded.symbols.subjects.placesByKeyedHash)
    #expect(loaded.symbols.transactions.placesByKeyedHash)
    let conflict = lines[3].replacingOccurrences(of: #""product":"pro.lifetime""#, with: #""product":"pro.monthly","expires":"2026-04-02T00:00:00Z""#)
    let found = try errors((lines + [conflict]).joined(separator: "\n")).map(\.description)
    #expect(found.count == 1 && found[0].contains("id conflict"), "\(found)")
  }
}

/// `choices^stages` strings of printable ASCII (no quote or backslash), `16 * stages` bytes
/// each, that all share one `SymbolTable.hash`: an attacker's ids, built as one would.
///
/// The hash is unkeyed, so its state after each 16-byte stage is known: a stage's first word is
/// drawn at random, and its second is the one that brings the state back to the stage's target
/// (a random draw is printable once in about 3,000). Any choice per stage then collides.
func craftedPrintableCollisions(stages: Int, choices: Int) -> [[UInt8]] {
  func step(_ h: UInt64, _ word: UInt64) -> UInt64 {
    var h = (h ^ word) &* 0x0000_0100_0000_01b3
    h ^= h >> 29
    return h
  }
  func isPrintable(_ word: UInt64) -> Bool {
    (0..<8).allSatisfy { k in
      let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * k))
      return byte >= 0x20 && byte < 0x7f && byte != 0x22 && byte != 0x5c
    }
  }
  var random: UInt64 = 0x5eed
  func printableWord() -> UInt64 {
    var word: UInt64 = 0
    for k in 0..<8 {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      word |= (0x23 + (random >> 33) % 0x39) << UInt64(8 * k)
    }
    return word
  }
  var state: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(16 * stages)
  var stageChoices: [[(UInt64, UInt64)]] = []
  for _ in 0..<stages {
    let first = (printableWord(), printableWord())
    let target = step(state, first.0) ^ first.1
    var options = [first]
    while options.count < choices {
      let word = printableWord()
      let second = step(state, word) ^ target
      if isPrintable(second) { options.append((word, second)) }
    }
    stageChoices.append(options)
    state = step(step(state, first.0), first.1)
  }
  var strings: [[UInt8]] = [[]]
  for options in stageChoices {
    strings = strings.flatMap { prefix in
      options.map { pair in prefix + withUnsafeBytes(of: pair.0.littleEndian, Array.init) + withUnsafeBytes(of: pair.1.littleEndian, Array.init) }
    }
  }
  return strings
}
