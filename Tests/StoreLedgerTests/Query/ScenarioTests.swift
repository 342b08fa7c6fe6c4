import Foundation
import Testing

@testable import StoreLedger

/// Every scenario log in Events/ that has a query file and expected answers.
let scenarioNames: [String] = {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: repoPath("Events"))) ?? []
  return files.filter { $0.hasSuffix(".queries.jsonl") }
    .map { String($0.dropLast(".queries.jsonl".count)) }.sorted()
}()

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
  }

  @Test("each scenario passes check and answers every query as expected", arguments: scenarioNames)
  func scenario(name: String) throws {
    let directory = repoPath("Events")
    let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
    let (ledger, extent) = try LedgerLoader.load(logPath: "\(directory)/\(name).jsonl", catalog: catalog)
    #expect(extent.tornBytes == 0)
    #expect(ledger.warnings.isEmpty, "\(name): \(ledger.warnings.map(\.description))")
    let queries = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).queries.jsonl"))
    let batch = try QueryBatch.parse(Array(queries), file: name)
    let expected = try String(contentsOfFile: "\(directory)/\(name).answers.jsonl", encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    var engine = QueryEngine(ledger: ledger)
    var index = 0
    batch.forEach { subject, at, asOf in
      var out: [UInt8] = []
      engine.writeAnswer(subject: subject, at: at, asOf: asOf, into: &out)
      let actual = try? JSONValue.parse(bytes: out)
      let structured = engine.answer(subject: String(decoding: subject, as: UTF8.self), at: at, asOf: asOf).jsonValue
      #expect(index < expected.count && actual == expected[index], "\(name) query \(index + 1)")
      #expect(actual == structured, "\(name) query \(index + 1): writers differ")
      index += 1
    }
    #expect(index == expected.count)
  }
}
