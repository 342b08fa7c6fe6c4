import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

@Suite("Replies to customers about grants and blocks")
struct GrantBlockReplyTests {
  @Test("a granted customer is told support gave access; a blocked one that access is on hold, never the internal reason")
  func replies() throws {
    let log = repoPath("Events/v13-support.jsonl")
    let granted = runCLI(["query", log, "--subject", "eve", "--at", "2026-03-06T00:00:00Z", "--format", "reply"])
    #expect(granted.status == 0)
    #expect(granted.stdout == "Our support team has given you Pro until 31 Mar 2026.\n")
    let blocked = runCLI(["query", log, "--subject", "finn", "--at", "2026-04-15T00:00:00Z", "--format", "reply"])
    #expect(blocked.status == 0)
    #expect(blocked.stdout.hasPrefix("Your Pro access is on hold while our team reviews your account"))
    #expect(!blocked.stdout.contains("chargeback") && !blocked.stdout.contains("fraud"))
  }
}
