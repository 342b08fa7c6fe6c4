import Foundation
import StoreLedgerCore
import Testing

/// Every scenario log in Events/ that has a query file and expected answers.
package let scenarioNames: [String] = {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: repoPath("Events"))) ?? []
  return files.filter { $0.hasSuffix(".queries.jsonl") }
    .map { String($0.dropLast(".queries.jsonl".count)) }.sorted()
}()

/// A scenario log: the Events/ folder that holds it and its catalog.json, and its name.
package struct Scenario: Sendable, CustomTestStringConvertible {
  /// The folder relative to the repository, `Events` or a subfolder such as `Events/policy`.
  package let folder: String
  /// The scenario's name: `NAME.jsonl`, `NAME.queries.jsonl`, `NAME.answers.jsonl`.
  package let name: String
  /// Where its golden snapshot lives: Snapshots/ mirrors the folders under Events/.
  package var goldenFolder: String { "Snapshots" + folder.dropFirst("Events".count) }
  package var testDescription: String { "\(folder)/\(name)" }

  package init(folder: String, name: String) {
    self.folder = folder
    self.name = name
  }

  /// Reads the scenario's log with its folder's catalog.
  package func load() throws -> (Ledger, LogExtent) {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("\(folder)/catalog.json"))
    return try LedgerLoader.load(logPath: repoPath("\(folder)/\(name).jsonl"), catalog: catalog)
  }
}

/// The leaks (uses the answer at their own instant, as known then, does not allow) of each
/// scenario, worked out by hand; a scenario not listed has none.
package let expectedLeaks: [String: Set<String>] = [
  "Events/policy/premium-leak": ["lk-2", "lk-4"],  // deep comparison on free; the 6th session of a day
  // saved-trips: trip-2 deletes a trip at 1 of 1; a release hands nothing out and is never a leak.
  "Events/policy-nograce/trial-no-grace": ["ng-2"],  // the use that ends a trial without grace is judged after it
  "Events/policy-examples/policy-examples": ["decide-9", "decide-10"],
]

/// Every scenario in Events/ and in each subfolder of it that has its own catalog.json.
package let scenarios: [Scenario] = {
  let subfolders = ((try? FileManager.default.contentsOfDirectory(atPath: repoPath("Events"))) ?? [])
    .map { "Events/\($0)" }.filter { FileManager.default.fileExists(atPath: repoPath("\($0)/catalog.json")) }
  return (["Events"] + subfolders.sorted()).flatMap { folder in
    ((try? FileManager.default.contentsOfDirectory(atPath: repoPath(folder))) ?? [])
      .filter { $0.hasSuffix(".queries.jsonl") }.sorted()
      .map { Scenario(folder: folder, name: String($0.dropLast(".queries.jsonl".count))) }
  }
}()
