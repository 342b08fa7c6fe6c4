import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

@Suite("Restored details: parts given subject by subject merge to the table lines in order give")
struct DetailPlacementTests {
  /// Details for `line`, distinct per line and per `round` (so a later value is told from an earlier one).
  static func details(_ line: UInt32, round: UInt64) -> EventDetails {
    EventDetails(
      price: line % 3 == 0 ? 0 : Int64(line) * 10 + Int64(round), priceCurrency: line % 3 == 0 ? .none : Symbol(rawValue: line % 5),
      metaHash: line % 2 == 0 ? UInt64(line) << 8 | round : 0)
  }

  @Test(
    "merging parts out of line order gives every line's last details, dense lines (placed by rank) or sparse (sorted)",
    // 70,000 lines make more entries than `concurrentMergeEntries`: the columns merge at once.
    arguments: [(lines: 20_000, spread: UInt32(3), seed: UInt64(1)), (20_000, 1, 2), (300, 1_000_000, 3), (1, 1, 4), (70_000, 1, 5)])
  func mergedOutOfOrder(lines count: Int, spread: UInt32, seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let lines = (0..<count).map { UInt32($0) * spread + 7 }.shuffled(using: &random)
    // Parts as a restore makes them: runs of the shuffled lines, some lines given again later.
    var parts: [EventDetailTable] = []
    var expected: [UInt32: EventDetails] = [:]
    var reference = EventDetailTable()
    for (round, chunk) in stride(from: 0, to: lines.count, by: 997).enumerated() {
      var part = EventDetailTable()
      for line in lines[chunk..<min(lines.count, chunk + 997)] + lines.prefix(round % 3 == 2 ? 40 : 0) {
        let d = Self.details(line, round: UInt64(round))
        part.set(d, line: line)
        reference.set(d, line: line)
        if !d.isEmpty { expected[line] = d }
      }
      parts.append(part)
    }
    reference.sortByLine()
    let merged = EventDetailTable.merged(parts)
    #expect((count == 70_000) == (parts.reduce(0) { $0 + $1.entryCount } >= EventDetailTable.concurrentMergeEntries))
    #expect(merged.isSorted)
    #expect(merged.entryCount == reference.entryCount)
    let probes = Set(lines.flatMap { [$0, $0 &- 1, $0 &+ 1] }).union([0, UInt32.max])
    for line in probes {
      #expect(merged.details(line: line) == (expected[line] ?? EventDetails()), "line \(line)")
      #expect(merged.details(line: line) == reference.details(line: line), "line \(line)")
    }
  }
}
