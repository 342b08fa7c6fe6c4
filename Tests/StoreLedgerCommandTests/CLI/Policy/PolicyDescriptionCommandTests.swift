import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("storeledger policy describes what the gate enforces")
struct PolicyDescriptionCommandTests {
  @Test("policy renders every example policy in every format; a catalog without a policy is exit 65", arguments: [
    "Events/policy/catalog.json", "Events/policy-east/catalog.json", "Events/policy-nograce/catalog.json",
    "Events/policy-examples/catalog.json",
  ])
  func everyExample(path: String) throws {
    for format in ["text", "markdown", "html", "json"] {
      let result = runCLI(["policy", repoPath(path), "--format", format])
      #expect(result.status == 0, "\(path) \(format): \(result.stderr)")
      #expect(!result.stdout.isEmpty)
    }
    #expect(runCLI(["policy", repoPath("Events/catalog.json")]).status == 65)
    #expect(runCLI(["policy", repoPath(path), "--format", "pdf"]).status == 64)
  }
}
