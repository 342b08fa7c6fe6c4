import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Properties of the fold")
struct OrderIndependenceTests {
  @Test(
    "shuffling the lines of a duplicate-free log with distinct times never changes an answer",
    arguments: testSeeds([1, 2, 3, 4, 5]))
  func shuffle(seed: UInt64) throws {
    let log = RandomLog(seed: seed)
    let reference = try ledger(log.lines.joined(separator: "\n"))
    var referenceEngine = QueryEngine(ledger: reference)
    var random = SeededGenerator(seed: seed &* 31)
    let queries = log.queries(count: 300, seed: seed)
    for round in 0..<3 {
      let shuffled = try ledger(log.lines.shuffled(using: &random).joined(separator: "\n"))
      var engine = QueryEngine(ledger: shuffled)
      for (subject, at, asOf) in queries {
        let expected = referenceEngine.answer(subject: subject, at: at, asOf: asOf)
        let actual = engine.answer(subject: subject, at: at, asOf: asOf)
        #expect(actual == expected, "seed \(seed) round \(round): \(subject) at \(at) as of \(String(describing: asOf))")
        if actual != expected { return }
      }
    }
  }

  @Test(
    "every line redelivered later, everything shuffled: the same answers as known at every instant (earliest recorded wins)",
    arguments: testSeeds([21, 22, 23]))
  func lateRedeliveriesShuffled(seed: UInt64) throws {
    let log = RandomLog(seed: seed)
    let reference = try ledger(log.lines.joined(separator: "\n"))
    var referenceEngine = QueryEngine(ledger: reference)
    let late = #""recorded":"2031-01-01T00:00:00Z""#
    let redelivered = log.lines.map { line in
      guard let range = line.range(of: #""recorded":"[^"]*""#, options: .regularExpression) else {
        return "{" + late + "," + line.dropFirst()
      }
      return line.replacingCharacters(in: range, with: late)
    }
    var random = SeededGenerator(seed: seed &* 37)
    let shuffled = try ledger((log.lines + redelivered).shuffled(using: &random).joined(separator: "\n"))
    #expect(shuffled.duplicatesSkipped == log.lines.count)
    var engine = QueryEngine(ledger: shuffled)
    for (subject, at, asOf) in log.queries(count: 300, seed: seed) {
      let expected = referenceEngine.answer(subject: subject, at: at, asOf: asOf)
      let actual = engine.answer(subject: subject, at: at, asOf: asOf)
      #expect(actual == expected, "seed \(seed): \(subject) at \(at) as of \(String(describing: asOf))")
      if actual != expected { return }
    }
  }

  @Test("the structured answer and the fast audit writer agree on random logs", arguments: testSeeds([7, 8]))
  func writersAgree(seed: UInt64) throws {
    let log = RandomLog(seed: seed)
    var engine = QueryEngine(ledger: try ledger(log.lines.joined(separator: "\n")))
    for (subject, at, asOf) in log.queries(count: 200, seed: seed) {
      _ = engine.checkedAnswer(subject, at: at.rfc3339, asOf: asOf?.rfc3339)
    }
  }

  @Test("appending the same lines again changes no answer (redeliveries are skipped)", arguments: testSeeds([11]))
  func idempotent(seed: UInt64) throws {
    let log = RandomLog(seed: seed)
    let once = try ledger(log.lines.joined(separator: "\n"))
    let twice = try ledger((log.lines + log.lines.reversed()).joined(separator: "\n"))
    #expect(twice.duplicatesSkipped == log.lines.count)
    var a = QueryEngine(ledger: once)
    var b = QueryEngine(ledger: twice)
    for (subject, at, asOf) in log.queries(count: 200, seed: seed) {
      #expect(a.answer(subject: subject, at: at, asOf: asOf) == b.answer(subject: subject, at: at, asOf: asOf))
    }
  }
}
