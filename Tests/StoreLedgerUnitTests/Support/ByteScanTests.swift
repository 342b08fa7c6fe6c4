import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("SIMD byte scanning")
struct ByteScanTests {
  /// Random bytes biased towards the ones the scans look for, so hits fall in every lane.
  static func pool(seed: UInt64, count: Int) -> [UInt8] {
    var random = Xoshiro256StarStar(seed: seed)
    let interesting: [UInt8] = [10, 0x22, 0x5C, 0x1F, 0x20, 0x7F, 0x80, 0xFF, 0x41]
    return (0..<count).map { _ in
      random.below(4) == 0
        ? interesting[Int(random.below(UInt64(interesting.count)))] : UInt8(0x41 + random.below(26))
    }
  }

  static func isStringStop(_ c: UInt8) -> Bool { c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80 }

  @Test("every scan agrees with a byte-at-a-time loop at every start and end", arguments: [1, 2, 3])
  func agreesWithScalar(seed: UInt64) {
    let bytes = ByteScanTests.pool(seed: seed, count: 97)
    bytes.withUnsafeBufferPointer { p in
      for from in 0...p.count {
        for end in from...p.count {
          let range = from..<end
          #expect(ByteScan.first(10, in: p, from: from, end: end) == (range.first { p[$0] == 10 } ?? end))
          #expect(ByteScan.count(10, in: p, from: from, end: end) == range.filter { p[$0] == 10 }.count)
          #expect(
            ByteScan.firstStringStop(in: p, from: from, end: end)
              == (range.first { ByteScanTests.isStringStop(p[$0]) } ?? end))
        }
      }
    }
  }

  @Test("a pattern is found where a byte-at-a-time search finds it, at every start and end", arguments: [1, 2, 3])
  func firstOccurrenceAgreesWithScalar(seed: UInt64) {
    // A small alphabet, so patterns of 1 to 4 bytes hit often, across 16-byte lanes and at the edges.
    var random = Xoshiro256StarStar(seed: seed)
    let bytes = (0..<70).map { _ in UInt8(0x61 + random.below(3)) }
    let patterns: [[UInt8]] = [[0x61], [0x61, 0x62], [0x63, 0x63, 0x61], [0x62, 0x61, 0x62, 0x63], []]
    bytes.withUnsafeBufferPointer { p in
      for pattern in patterns {
        for from in 0...p.count {
          for end in from...p.count {
            let naive =
              pattern.isEmpty || end - from < pattern.count
              ? nil : (from...(end - pattern.count)).first { Array(p[$0..<($0 + pattern.count)]) == pattern }
            #expect(ByteScan.firstOccurrence(of: pattern, in: p, from: from, end: end) == naive)
          }
        }
      }
    }
  }

  @Test("counting flushes its lane counters before they wrap (more than 255 blocks of newlines)")
  func countsLongRuns() {
    let newlines = [UInt8](repeating: 10, count: 16 * 300 + 5)
    newlines.withUnsafeBufferPointer { p in
      #expect(ByteScan.count(10, in: p, from: 0, end: p.count) == p.count)
      #expect(ByteScan.count(10, in: p, from: 3, end: p.count - 1) == p.count - 4)
    }
  }

  @Test(
    "a string stop is found in each of the 16 lanes",
    arguments: [UInt8(0x22), 0x5C, 0x00, 0x1F, 0x80, 0xFF])
  func findsStopInEveryLane(stop: UInt8) {
    for lane in 0..<16 {
      var bytes = [UInt8](repeating: 0x61, count: 40)
      bytes[3 + lane] = stop
      bytes.withUnsafeBufferPointer { p in
        #expect(ByteScan.firstStringStop(in: p, from: 3, end: p.count) == 3 + lane)
      }
    }
  }

  @Test("bytes just outside the string's printable range are not stops")
  func printableEdges() {
    let bytes: [UInt8] = Array(repeating: 0x20, count: 16) + Array(repeating: 0x7F, count: 16)
    bytes.withUnsafeBufferPointer { p in
      #expect(ByteScan.firstStringStop(in: p, from: 0, end: p.count) == p.count)
    }
  }
}

@Suite("String hashing")
struct SymbolHashTests {
  /// The hash as first defined: little-endian words, then the tail assembled byte by byte.
  /// Snapshots store `meta` hashes built from it, so the fast tail must give the same values.
  static func reference(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    var i = 0
    while i + 8 <= bytes.count {
      var word: UInt64 = 0
      for k in 0..<8 { word |= UInt64(bytes[i + k]) << UInt64(8 * k) }
      h = (h ^ word) &* 0x0000_0100_0000_01b3
      h ^= h >> 29
      i += 8
    }
    if i < bytes.count {
      var tail: UInt64 = 0
      for k in i..<bytes.count { tail |= UInt64(bytes[k]) << UInt64(8 * (k - i)) }
      h = (h ^ tail) &* 0x0000_0100_0000_01b3
    }
    return SymbolTable.mix(h)
  }

  @Test("the hash equals the byte-by-byte definition for every length from 0 to 40")
  func matchesDefinition() {
    let pool = ByteScanTests.pool(seed: 9, count: 48)
    for length in 0...40 {
      let bytes = Array(pool[3..<(3 + length)])
      let fast = bytes.withUnsafeBufferPointer { SymbolTable.hash($0) }
      #expect(fast == SymbolHashTests.reference(bytes), "length \(length)")
    }
  }
}

@Suite("Page advice")
struct PageAdviceTests {
  @Test(
    "zeroed word arrays have the asked size and only zeros, with or without huge pages",
    arguments: [0, 1, 4096, PageAdvice.hugePageMinimumBytes / 8 + 3])
  func zeroedWords(count: Int) {
    let words = PageAdvice.zeroedWords(count: count)
    #expect(words.count == count)
    #expect(words.allSatisfy { $0 == 0 })
  }
}
