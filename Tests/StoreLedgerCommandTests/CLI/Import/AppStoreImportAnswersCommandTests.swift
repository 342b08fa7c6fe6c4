import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The command-line half of `AppStoreImportAnswersTests` (Tests/StoreLedgerUnitTests/): the same questions asked of
/// `storeledger`.
@Suite("App Store import: answers after folding")
struct AppStoreImportAnswersCommandTests: AppStoreRenewalsAndGrace {
  @Test("import --append adds the events once, and importing again adds nothing")
  func cliAppend() throws {
    let space = try Workspace()
    try ImportFixtures.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    // About appending, not trust: these payloads are unsigned JWS, so --no-verify.
    let input = Self.renewalsAndGrace.map(\.signedBody).joined(separator: "\n")
    let first = runCLI(["import", "appstore", "-", "--append", space.log, "--no-verify"], stdin: input)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("appended 5 events"))
    #expect(first.stdout.contains("  NOT VERIFIED: 5 payloads (--no-verify"))
    #expect(first.stderr.contains("warning: --no-verify: 5 payloads imported without verifying signatures"))
    let second = runCLI(["import", "appstore", "-", "--append", space.log, "--no-verify"], stdin: input)
    #expect(second.stdout.contains("appended 0 events"))
    #expect(runCLI(["check", space.log]).status == 0)
    let query = runCLI(["query", space.log, "--subject", Self.u1, "--at", "2026-04-03"])
    #expect(query.stdout.contains(#""state":"grace""#))
    let help = runCLI(["import", "--help"])
    #expect(help.stdout.contains("is refused unless --no-verify"))
  }

  @Test("import errors name the input line and leave the log unchanged")
  func cliErrors() throws {
    let space = try Workspace(log: "")
    try ImportFixtures.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let bad = runCLI(["import", "appstore", "-", "--append", space.log], stdin: "{\"notificationType\": \n")
    #expect(bad.status == 65)
    #expect(bad.stdout.isEmpty)
    #expect(bad.stderr.contains("<stdin>:2:1: error: invalid JSON"))
    #expect(try space.read().isEmpty)
    #expect(runCLI(["import", "playstore", "-"]).status == 64)
  }
}

@Suite("App Store import: the sample export in Events/appstore")
struct AppStoreSampleExportTests {
  @Test("the README's import example imports, checks and answers as Apple's status would")
  func sampleExport() throws {
    let space = try Workspace()
    let catalogPath = repoPath("Events/appstore/catalog.json")
    // The sample is signed by the project's test CA (Tests/TestCA), as the README says.
    let root = repoPath("Tests/TestCA/root.pem")
    let result = runCLI([
      "import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", catalogPath,
      "--append", space.log, "--root", root,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("imported 6 events"))
    #expect(result.stdout.contains("  verified 7 payloads (17 signatures) up to root \(root)\n"))
    #expect(result.stderr.contains("warning: --root \(root) is not Apple Root CA - G3"))
    #expect(result.stdout.contains("  skipped 1 payload that carries no purchase, by type: TEST (1)\n"))
    #expect(runCLI(["check", space.log, "--catalog", catalogPath]).status == 0)
    let subject = "6f1d3b0e-8a2c-4a6e-9d5b-2c7e1f0a9b31"
    func answer(_ at: String) throws -> JSONValue {
      let run = runCLI(["query", space.log, "--catalog", catalogPath, "--subject", subject, "--at", at])
      return try JSONValue.parse(run.stdout.trimmingCharacters(in: .newlines))
    }
    #expect(try answer("2026-03-07T00:00:00Z")["plans"]?["pro"]?["state"] == .string("grace"))
    #expect(try answer("2026-03-10T00:00:00Z")["plans"]?["pro"]?["transaction"] == .string("2000000900000003"))
    #expect(try answer("2026-03-10T00:00:00Z")["entitlements"]?["pro"]?["product"] == .string("pro.lifetime"))
    #expect(try answer("2026-03-25T00:00:00Z")["entitlements"]?["pro"]?["product"] == .string("pro.monthly"))
    let again = runCLI([
      "import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", catalogPath,
      "--append", space.log, "--root", root,
    ])
    #expect(again.stdout.contains("appended 0 events"))
  }
}
