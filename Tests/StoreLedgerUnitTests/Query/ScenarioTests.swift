import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Scenario logs in Events/")
struct ScenarioTests {
  @Test("Events/ holds the scenarios the seeds call for")
  func present() {
    let required = [
      "upgrade-midperiod", "downgrade-at-renewal", "grace-recovery", "billing-retry-expiry",
      "refund-reversal", "family-sharing", "ask-to-buy", "non-renewing-pass", "trial-then-lifetime",
      "consumables", "out-of-order-late", "redelivered-duplicates", "demo", "contract-examples",
    ]
    for name in required { #expect(scenarioNames.contains(name), "missing scenario \(name)") }
    let policy = [
      "Events/policy/decide-daily", "Events/policy/saved-trips", "Events/policy/intelligence-trial",
      "Events/policy/premium-leak", "Events/policy/late-refund", "Events/policy/offline-budget",
      "Events/policy/local-week", "Events/policy/store-grace", "Events/policy-examples/policy-examples", "Events/policy-east/month-window",
      "Events/policy-nograce/trial-no-grace",
    ]
    for name in policy { #expect(scenarios.contains { $0.testDescription == name }, "missing scenario \(name)") }
  }

  @Test("each scenario's leaks are exactly the uses worked out by hand", arguments: scenarios)
  func leaks(_ scenario: Scenario) throws {
    var engine = QueryEngine(ledger: try scenario.load().0)
    var found: [String] = []
    engine.forEachLeak { found.append($0.id) }
    #expect(found.count == Set(found).count, "a leak reported twice: \(found)")
    #expect(Set(found) == expectedLeaks[scenario.testDescription, default: []])
  }

  @Test("each scenario passes check and answers every query as expected", arguments: scenarios)
  func scenario(_ scenario: Scenario) throws {
    let (directory, name) = (repoPath(scenario.folder), scenario.name)
    let (ledger, extent) = try scenario.load()
    #expect(extent.tornBytes == 0)
    #expect(ledger.warnings.isEmpty, "\(name): \(ledger.warnings.map(\.description))")
    let queries = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).queries.jsonl"))
    let batch = try QueryBatch.parse(Array(queries), file: name)
    let expected = try String(contentsOfFile: "\(directory)/\(name).answers.jsonl", encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    var engine = QueryEngine(ledger: ledger)
    var index = 0
    batch.forEach { subject, at, asOf, cache in
      var out: [UInt8] = []
      engine.writeAnswer(subject: subject, at: at, asOf: asOf, cache: cache, into: &out)
      let actual = try? JSONValue.parse(bytes: out)
      let structured = engine.answer(subject: String(decoding: subject, as: UTF8.self), at: at, asOf: asOf, cache: cache).jsonValue
      #expect(index < expected.count && actual == expected[index], "\(name) query \(index + 1)")
      #expect(actual == structured, "\(name) query \(index + 1): writers differ")
      index += 1
    }
    #expect(index == expected.count)
  }
}
