import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

@Suite("X.509 Names: empty Names, SET OF order, string types and the command line")
struct X509NameRuleCommandTests {
  @Test("import appstore refuses a leaf with a malformed subject Name: exit 65, the check and the Name's rule in the message")
  func commandLine() {
    let name = DERBuild.name(DERBuild.set(DERBuild.attribute("2.5.4.6", DERBuild.string(.printableString, "USA"))))
    let run = runCLI(
      ["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", TestCA.root],
      stdin: TestCA.line(RenamedChain.jws(name: name, as: "subject")))
    #expect(run.status == 65, "\(run.stderr)")
    #expect(run.stderr.contains(
      "<stdin>:1: error: field 'signedPayload': signature check 'certificate' failed: x5c[0] is not a certificate this verifier reads: the subject Name: attribute countryName (2.5.4.6) is not a PrintableString of 2 characters"),
      "\(run.stderr)")
  }
}
