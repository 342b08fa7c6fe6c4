@testable import StoreLedgerCore

/// The scenario logs of `Events/` as ledgers, for the timeline tests in process and on the command line.
package protocol EventsScenarioLedgers {}

extension EventsScenarioLedgers {
  package static func scenario(_ name: String) throws -> Ledger {
    let directory = repoPath("Events")
    let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
    return try LedgerLoader.load(logPath: "\(directory)/\(name).jsonl", catalog: catalog).ledger
  }
}
