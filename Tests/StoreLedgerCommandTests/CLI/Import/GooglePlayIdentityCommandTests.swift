import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The command-line half of `GooglePlayIdentityTests` (Tests/StoreLedgerUnitTests/): the same questions asked of
/// `storeledger`.
@Suite("Google Play import: one customer stays one subject")
struct GooglePlayIdentityCommandTests: GooglePlayIdentityFixture {
  typealias G = GP

  @Test("import googleplay --append says which unit moved to which account; importing again moves nothing and adds nothing")
  func commandLineSummary() throws {
    let space = try Workspace()
    try Self.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let input = Self.refetched.joined(separator: "\n")
    let first = runCLI(["import", "googleplay", "-", "--append", space.log], stdin: input)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout.contains(
        "moved 1 unit to the account the store now names (transfer): subscription '\(G.tokenA)' from 'user-42' to 'user-77' at 2026-01-10T00:00:00Z"),
      "\(first.stdout)")
    let second = runCLI(["import", "googleplay", "-", "--append", space.log], stdin: input)
    #expect(second.status == 0)
    #expect(second.stdout.contains("appended 0 events"))
    #expect(!second.stdout.contains("moved"))
    #expect(runCLI(["check", space.log]).status == 0)
  }
}
