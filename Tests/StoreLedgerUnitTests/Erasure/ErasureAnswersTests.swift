import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Erasure changes no other answer")
struct ErasureAnswersTests {
  /// Erases `chosen` from a copy of `log` (indexed first) and checks every promise of CONTRACT
  /// §12 that does not need store data: every other subject's answers at many (T, R), every
  /// report total as known now and as of earlier, `check`'s warnings, the pseudonym's
  /// entitlements and balances, the index rebuilt, and no JSON form of an erased subject in any
  /// file beside the log (`rawSearch`: not even its bytes, for subjects no other text contains).
  /// Answers are compared at `extraTimes` too (edge instants of chosen events).
  func verify(
    log: [UInt8], catalogText: String, erase chosen: [String], seed: UInt64, rawSearch: Bool,
    extraTimes: [(at: Timestamp, asOf: Timestamp?)] = []
  ) throws {
    let fixture = try ErasureFixture(log: log, catalogText: catalogText)
    defer { fixture.remove() }
    _ = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    let before = try fixture.ledger()
    let others = subjectNames(before).filter { !chosen.contains($0) }
    let times = answerTimes(before, count: 12, seed: seed) + extraTimes
    var engine = QueryEngine(ledger: before)
    let expected = others.map { subject in times.map { answerText(before, &engine, subject: subject, at: $0.at, asOf: $0.asOf) } }
    let erasedBefore = chosen.map { subject in times.map { erasedView(before, subject, $0) } }
    let reports = try reportTotals(before, seed: seed)

    let report = try fixture.erase(chosen, seed: seed)
    #expect(report.pseudonyms.count == chosen.count && report.indexRemoved)
    let after = try fixture.ledger()
    var afterEngine = QueryEngine(ledger: after)
    for (subject, answers) in zip(others, expected) {
      let now = times.map { answerText(after, &afterEngine, subject: subject, at: $0.at, asOf: $0.asOf) }
      #expect(now == answers, "seed \(seed): \(subject) answers differently after the erasure")
    }
    #expect(try reportTotals(after, seed: seed) == reports, "seed \(seed): a report total changed")
    #expect(after.warnings.count == before.warnings.count && after.events.count == before.events.count)
    // S's answers are the pseudonym's: each pseudonym holds exactly one erased subject's.
    let pseudonymViews = report.pseudonyms.map { pseudonym in times.map { erasedView(after, pseudonym, $0) } }
    #expect(Set(pseudonymViews.map { $0.joined(separator: "|") }) == Set(erasedBefore.map { $0.joined(separator: "|") }))
    _ = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    let lines = try String(contentsOfFile: fixture.log, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(String($0)) }
    #expect(!lines.contains { chosen.contains($0["subject"]?.stringValue ?? "") || chosen.contains($0["to"]?.stringValue ?? "") })
    // A subject spelled like a catalog name (a currency "coins") leaves that name in other lines.
    for (name, bytes) in try fixture.files() where name != "catalog.json" {
      for subject in chosen where !holds(Array(catalogText.utf8), jsonForms(subject)[0]) {
        let forms = jsonForms(subject) + (rawSearch ? [Array(subject.utf8)] : [])
        #expect(!forms.contains { holds(bytes, $0) }, "seed \(seed): \(name) still holds \(subject)")
      }
    }
  }

  @Test("generated logs: erasing 1 or 3 random subjects leaves every other answer and report total", arguments: [(UInt64(7), 1), (29, 3)])
  func generated(seed: UInt64, count: Int) throws {
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 150, seed: seed))
    let fixture = try ErasureFixture(log: bytes, catalogText: LogGenerator.policyCatalogJSON)
    var random = SeededGenerator(seed: seed)
    let chosen = Array(subjectNames(try fixture.ledger()).shuffled(using: &random).prefix(count))
    fixture.remove()
    try verify(log: bytes, catalogText: LogGenerator.policyCatalogJSON, erase: chosen, seed: seed, rawSearch: true)
  }

  @Test(
    "generated v1.3 logs: erasing subjects with grants, blocks or refund notices leaves every other answer and report total, also at the edges of their events",
    arguments: [(UInt64(41), 1, UsageLevel.none), (43, 3, .none), (47, 2, .typical)])
  func generatedContract13(seed: UInt64, count: Int, usage: UsageLevel) throws {
    let seed = ProcessInfo.processInfo.environment["STORELEDGER_PROPERTY_SEED"].flatMap(UInt64.init) ?? seed
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: usage == .none ? 100 : 60, seed: seed, usage: usage, contract: .v1_3))
    let catalogText = LogGenerator.catalogJSON(for: usage)
    let fixture = try ErasureFixture(log: bytes, catalogText: catalogText)
    let ledger = try fixture.ledger()
    fixture.remove()
    var random = SeededGenerator(seed: seed)
    // The first half of the asked subjects have v1.3 events: erase those, and compare the others
    // also at the edges of the erased subjects' events and of a few other subjects' v1.3 events.
    let asked = askedSubjects(ledger, count: 2 * count + 6, random: &random)
    let chosen = Array(asked.prefix(count))
    var edges = chosen.flatMap { edgeInstants(ledger, subject: $0, limit: 12, random: &random) }
    edges += asked.dropFirst(count).prefix(3).flatMap { edgeInstants(ledger, subject: $0, limit: 6, random: &random) }
    try verify(log: bytes, catalogText: catalogText, erase: chosen, seed: seed, rawSearch: true, extraTimes: edges)
  }

  @Test("every scenario in Events/: erasing each subject in turn leaves every other answer and report total", arguments: scenarios)
  func scenario(_ scenario: Scenario) throws {
    let folder = repoPath(scenario.folder)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(scenario.name).jsonl")))
    let catalogText = try String(contentsOfFile: "\(folder)/catalog.json", encoding: .utf8)
    let fixture = try ErasureFixture(log: bytes, catalogText: catalogText)
    let subjects = subjectNames(try fixture.ledger())
    fixture.remove()
    for (index, subject) in subjects.enumerated() {
      try verify(log: bytes, catalogText: catalogText, erase: [subject], seed: UInt64(index + 1), rawSearch: false)
    }
  }
}
