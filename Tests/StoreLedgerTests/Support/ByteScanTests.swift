import Testing

@testable import StoreLedger

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
