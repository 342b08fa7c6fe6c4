import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Every scenario log in Events/ that has a query file and expected answers.
let scenarioNames: [String] = {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: repoPath("Events"))) ?? []
  return files.filter { $0.hasSuffix(".queries.jsonl") }
    .map { String($0.dropLast(".queries.jsonl".count)) }.sorted()
}()

/// A scenario log: the Events/ folder that holds it and its catalog.json, and its name.
struct Scenario: Sendable, CustomTestStringConvertible {
  /// The folder relative to the repository, `Events` or a subfolder such as `Events/policy`.
  let folder: String
  /// The scenario's name: `NAME.jsonl`, `NAME.queries.jsonl`, `NAME.answers.jsonl`.
  let name: String
  /// Where its golden snapshot lives: Snapshots/ mirrors the folders under Events/.
  var goldenFolder: String { "Snapshots" + folder.dropFirst("Events".count) }
  var testDescription: String { "\(folder)/\(name)" }

  /// Reads the scenario's log with its folder's catalog.
  func load() throws -> (Ledger, LogExtent) {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("\(folder)/catalog.json"))
    return try LedgerLoader.load(logPath: repoPath("\(folder)/\(name).jsonl"), catalog: catalog)
  }
}

/// The leaks (uses the answer at their own instant, as known then, does not allow) of each
/// scenario, worked out by hand; a scenario not listed has none.
let expectedLeaks: [String: Set<String>] = [
  "Events/policy/premium-leak": ["lk-2", "lk-4"],  // deep comparison on free; the 6th session of a day
  // saved-trips: trip-2 deletes a trip at 1 of 1; a release hands nothing out and is never a leak.
  "Events/policy-nograce/trial-no-grace": ["ng-2"],  // the use that ends a trial without grace is judged after it
  "Events/policy-examples/policy-examples": ["decide-9", "decide-10"],
]

/// Every scenario in Events/ and in each subfolder of it that has its own catalog.json.
let scenarios: [Scenario] = {
  let subfolders = ((try? FileManager.default.contentsOfDirectory(atPath: repoPath("Events"))) ?? [])
    .map { "Events/\($0)" }.filter { FileManager.default.fileExists(atPath: repoPath("\($0)/catalog.json")) }
  return (["Events"] + subfolders.sorted()).flatMap { folder in
    ((try? FileManager.default.contentsOfDirectory(atPath: repoPath(folder))) ?? [])
      .filter { $0.hasSuffix(".queries.jsonl") }.sorted()
      .map { Scenario(folder: folder, name: String($0.dropLast(".queries.jsonl".count))) }
  }
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
