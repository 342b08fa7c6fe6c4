import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Real App Store payloads: tampered copies are refused", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
struct AppleRealTamperCommandTests {
  @Test("import appstore verifies real payloads (renewal info, a TEST notification) and appends nothing from a tampered one")
  func cliRealPayloads() throws {
    let apple = SharedVectors.folder.appendingPathComponent("apple/AppleRootCA-G3.cer").path
    let space = try Workspace(log: "")
    let input = try ["01-sandbox-renewalInfo-leaf2021.jws", "03-sandbox-notification-TEST-leaf2023.jws"]
      .map(SharedVectors.appleRealPayload).joined(separator: "\n")
    let run = runCLI(
      ["import", "appstore", "-", "--catalog", TestCA.catalog, "--append", space.log, "--root", apple, "--allow-sandbox"],
      stdin: input)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("verified 2 payloads (2 signatures) up to root \(apple)"))
    #expect(run.stderr.isEmpty, "Apple's root draws no warning: \(run.stderr)")
    let tampered = Tamper.signature(try SharedVectors.appleRealPayload("03-sandbox-notification-TEST-leaf2023.jws")) {
      var s = $0
      s[5] ^= 0x10
      return s
    }
    let bad = runCLI(
      ["import", "appstore", "-", "--catalog", TestCA.catalog, "--append", space.log, "--root", apple, "--allow-sandbox"],
      stdin: input + "\n" + tampered)
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("<stdin>:3: error: this document: signature check 'signature' failed"), "\(bad.stderr)")
    #expect(try space.read().isEmpty, "nothing appended")
  }
}
