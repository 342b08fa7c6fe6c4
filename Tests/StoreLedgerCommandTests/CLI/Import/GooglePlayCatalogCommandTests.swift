import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerStorage

/// The command-line half of `GooglePlayCatalogTests` (Tests/StoreLedgerUnitTests/): the same questions asked of
/// `storeledger`.
@Suite("Google Play import: starting catalog with plan periods")
struct GooglePlayCatalogCommandTests: GooglePlayPlanDocuments {
  typealias G = GP

  @Test("the command line: --emit-catalog prints the draft and a note per plan; a malformed document exits 65")
  func commandLine() throws {
    let space = try Workspace()
    let good = [Self.plans([BasePlan(id: "monthly", period: "P1M")]), G.subscription(expiry: "2027-01-01T10:00:00Z", plan: "annual")]
    let run = runCLI(["import", "googleplay", "-", "--emit-catalog"], stdin: good.joined(separator: "\n"))
    #expect(run.status == 0, "\(run.stderr)")
    let products = try JSONValue.parse(run.stdout)["products"]
    #expect(products?["pro:monthly"]?["period"]?.stringValue == "P1M")
    #expect(products?["pro:annual"]?["period"]?.stringValue == "P1Y")
    #expect(run.stderr.contains("note: period of 'pro:monthly': P1M, stated by monetization.subscriptions on line 1"))
    #expect(run.stderr.contains("note: period of 'pro:annual': P1Y, inferred from the length of 1 full-price charge"))
    let bad = runCLI(["import", "googleplay", "-", "--emit-catalog"], stdin: Self.malformed[0].document)
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("<stdin>:1: error: field 'basePlans[0].autoRenewingBasePlanType.billingPeriodDuration'"))
    #expect(bad.stdout.isEmpty)
    // The plans an import kept beside the log state periods for a later draft.
    try G.catalogText.write(toFile: space.path("catalog.json"), atomically: true, encoding: .utf8)
    let kept = runCLI(["import", "googleplay", "-", "--append", space.log], stdin: Self.plans([BasePlan(id: "annual", period: "P1Y")]))
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(kept.stdout.contains("monetization.subscriptions (1)"))
    let later = runCLI(
      ["import", "googleplay", "-", "--emit-catalog", "--append", space.log],
      stdin: G.subscription(expiry: "2026-02-01T10:00:00Z", plan: "annual"))
    #expect(later.status == 0, "\(later.stderr)")
    #expect(try JSONValue.parse(later.stdout)["products"]?["pro:annual"]?["period"]?.stringValue == "P1Y")
    #expect(later.stderr.contains("note: period of 'pro:annual': P1Y, stated by a kept monetization.subscriptions document"))
  }
}
