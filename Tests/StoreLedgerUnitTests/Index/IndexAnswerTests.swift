import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("The index answers as a full read does")
struct IndexAnswerTests {
  @Test("every scenario's queries, through the index, get the expected answers", arguments: scenarios)
  func scenario(_ scenario: Scenario) throws {
    let folder = repoPath(scenario.folder)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(scenario.name).jsonl")))
    let fixture = try IndexFixture(log: bytes, catalogText: try String(contentsOfFile: "\(folder)/catalog.json", encoding: .utf8))
    defer { fixture.remove() }
    try fixture.index()
    let full = try fixture.fullLedger()
    let queries = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(scenario.name).queries.jsonl"))
    let batch = try QueryBatch.parse(Array(queries), file: scenario.name)
    let expected = try String(contentsOfFile: "\(folder)/\(scenario.name).answers.jsonl", encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    var index = 0
    var failure: String? = nil
    batch.forEach { subjectBytes, at, asOf, cache in
      let subject = String(decoding: subjectBytes, as: UTF8.self)
      defer { index += 1 }
      guard failure == nil else { return }
      do {
        let (indexed, warning) = try fixture.indexedLedger([subject])
        guard let indexed else {
          failure = "query \(index + 1): index not used: \(String(describing: warning))"
          return
        }
        var engine = QueryEngine(ledger: indexed)
        let answer = engine.answer(subject: subject, at: at, asOf: asOf, cache: cache).jsonValue
        if index >= expected.count || answer != expected[index] { failure = "query \(index + 1): unexpected answer" }
        if cache == nil, answers(indexed, subject: subject, at: at, asOf: asOf) != answers(full, subject: subject, at: at, asOf: asOf) {
          failure = "query \(index + 1): differs from the full read"
        }
      } catch {
        failure = "query \(index + 1): \(error)"
      }
    }
    #expect(failure == nil, "\(scenario.testDescription): \(failure ?? "")")
    #expect(index == expected.count)
  }

  @Test("generated logs: as-of answers equal a full read, also with lines appended behind the tool's back", arguments: [UInt64(3), 11])
  func generated(seed: UInt64) throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 120, seed: seed))
    // Index a prefix that ends on a line, then add the rest as `cat >>` would.
    let cut = bytes[..<(bytes.count * 2 / 3)].lastIndex(of: 10)! + 1
    let fixture = try IndexFixture(log: Array(bytes[..<cut]), catalogText: LogGenerator.policyCatalogJSON)
    defer { fixture.remove() }
    try fixture.index()
    try fixture.appendBehindBack(Array(bytes[cut...]))
    let full = try fixture.fullLedger()
    var random = SeededGenerator(seed: seed)
    let subjects = (0..<full.subjectCount).map { full.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    let asked = Array(subjects.shuffled(using: &random).prefix(25)) + ["nobody-at-all"]
    let start = full.events.map(\.at).min()!.millisecondsSinceEpoch
    let span = full.latestEffective.millisecondsSinceEpoch - start
    for subject in asked {
      let (indexed, warning) = try fixture.indexedLedger([subject])
      let ledger = try #require(indexed, "index not used: \(String(describing: warning))")
      for _ in 0..<4 {
        let at = Timestamp(millisecondsSinceEpoch: start + Int64.random(in: 0...span, using: &random))
        let asOf = Bool.random(using: &random)
          ? nil : Timestamp(millisecondsSinceEpoch: start + Int64.random(in: 0...span, using: &random))
        #expect(answers(ledger, subject: subject, at: at, asOf: asOf) == answers(full, subject: subject, at: at, asOf: asOf), "\(subject)")
      }
    }
    // `index` again takes in the tail: the same answers with nothing left unindexed.
    let summary = try fixture.index()
    #expect(summary.coveredBytes == Int64(bytes.count) && !summary.rebuilt && summary.indexedBytes == Int64(bytes.count - cut))
    for subject in asked.prefix(5) {
      let ledger = try #require(try fixture.indexedLedger([subject]).0)
      let at = full.latestEffective
      #expect(answers(ledger, subject: subject, at: at, asOf: nil) == answers(full, subject: subject, at: at, asOf: nil))
    }
  }

  @Test("an indexed read holds only the subjects asked for and those the tail involves")
  func readsOnlyTheSubject() throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 60, seed: 5))
    let fixture = try IndexFixture(log: bytes, catalogText: LogGenerator.policyCatalogJSON)
    defer { fixture.remove() }
    try fixture.index()
    let full = try fixture.fullLedger()
    let subject = full.symbols.subjects.string(Symbol(rawValue: 7))
    let ledger = try #require(try fixture.indexedLedger([subject]).0)
    #expect(ledger.subjectCount == 1)
    #expect(ledger.events(of: ledger.subject(named: subject)!).count == full.events(of: full.subject(named: subject)!).count)
  }
}
