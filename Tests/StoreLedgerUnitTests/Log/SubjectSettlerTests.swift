import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Settling subjects on every core")
struct SubjectSettlerTests {
  /// Subject `i`'s lines: a pack of coins, a spend (an overdraw where `overdrawn` holds `i`), and
  /// for odd `i` a second, later subscription; every subject's lines are consecutive.
  static func log(subjects: Int, overdrawn: Set<Int>) -> String {
    var lines: [String] = []
    for i in 0..<subjects {
      let day = 1 + i % 27
      lines.append(
        EventLines.line(
          .purchase(id: "p\(i)", subject: "u\(i)", at: ts("2026-03-\(day < 10 ? "0" : "")\(day)T00:00:00Z"), product: "coins.100", transaction: "t\(i)"))
      )
      lines.append(
        EventLines.line(
          .consumption(id: "c\(i)", subject: "u\(i)", at: ts("2026-03-28T00:00:00Z"), currency: "coins", quantity: overdrawn.contains(i) ? 150 : 40))
      )
      if i % 2 == 1 {
        lines.append(
          EventLines.line(
            .purchase(
              id: "m\(i)", subject: "u\(i)", at: ts("2026-04-01T00:00:00Z"), product: "pro.monthly", transaction: "s\(i)",
              expires: ts("2026-05-01T00:00:00Z")))
        )
      }
    }
    return lines.joined(separator: "\n")
  }

  @Test("findings in several chunks come back in subject order, as one thread would report them")
  func findingsInSubjectOrder() throws {
    let chunk = SubjectSettler.subjectsPerChunk
    let overdrawn = [chunk * 3 + 1, 1, chunk + 7, chunk * 2 + 100]
    let text = SubjectSettlerTests.log(subjects: chunk * 3 + 5, overdrawn: Set(overdrawn))
    let lines = text.split(separator: "\n").map(String.init)
    let found = try errors(text)
    // The spend of each overdrawn subject, in subject order (the order the log lists them).
    let expected = overdrawn.sorted().map { i in lines.firstIndex(of: lines.first { $0.contains(#""id":"c\#(i)""#) }!)! + 1 }
    #expect(found.map(\.line) == expected)
    #expect(found.allSatisfy { $0.message.contains("overdraw: spending 150 coins with a balance of 100") })
  }

  @Test("counts and the latest time equal settling each subject alone, across chunk boundaries")
  func countsMatchSerial() throws {
    let chunk = SubjectSettler.subjectsPerChunk
    let loaded = try ledger(SubjectSettlerTests.log(subjects: chunk * 2 + 3, overdrawn: []))
    #expect(loaded.subjectCount == chunk * 2 + 3)
    var settler = SubjectSettler(context: loaded.context)
    var latest = Timestamp.distantPast
    for s in 0..<loaded.subjectCount {
      var events = Array(loaded.events(of: Symbol(rawValue: UInt32(s))))
      var findings: [(Event, RuleFinding)] = []
      let count = events.withUnsafeMutableBufferPointer { settler.settle($0, findings: &findings) }
      #expect(count == loaded.subscriptionCounts[s])
      #expect(findings.isEmpty)
      if let last = events.last, last.at > latest { latest = last.at }
    }
    #expect(latest == loaded.latestEffective)
    // Odd subjects hold a subscription; no count is left at its initial zero by a skipped chunk.
    #expect((0..<loaded.subjectCount).allSatisfy { loaded.subscriptionCounts[$0] == ($0 % 2 == 1 ? 1 : 0) })
  }
}
