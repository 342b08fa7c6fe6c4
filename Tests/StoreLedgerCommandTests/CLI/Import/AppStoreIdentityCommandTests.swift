import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The command-line half of `AppStoreIdentityTests` (Tests/StoreLedgerUnitTests/): the same questions asked of
/// `storeledger`.
@Suite("App Store import: identity and transfers")
struct AppStoreIdentityCommandTests: AppStoreIdentityFixture {
  @Test("import --append says which units moved, and check accepts the log")
  func cliSummary() throws {
    let space = try Workspace()
    try ImportFixtures.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let input = [Self.period(1, token: Self.a), Self.period(2, token: Self.b)].map(\.json).joined(separator: "\n")
    let run = runCLI(["import", "appstore", "-", "--append", space.log, "--no-verify"], stdin: input)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("moved 1 unit to the account the store now names (transfer): original_transaction '8001'"))
    #expect(runCLI(["check", space.log]).status == 0)
    let query = runCLI(["query", space.log, "--subject", Self.b, "--at", "2026-02-15"])
    #expect(query.stdout.contains(#""pro""#))
  }
}
