import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("Google Play import: the sample export in Events/googleplay")
struct GooglePlaySampleExportTests {
  @Test(
    "one hand-written scenario per mapping row imports to the reviewed lines in mapping-rows.expected.jsonl"
  )
  func mappingRows() throws {
    let catalog = try Catalog.parse(
      String(contentsOfFile: repoPath("Events/googleplay/catalog.json"), encoding: .utf8),
      file: "catalog.json")
    let input = try String(
      contentsOfFile: repoPath("Events/googleplay/mapping-rows.jsonl"), encoding: .utf8)
    let expected = try String(
      contentsOfFile: repoPath("Events/googleplay/mapping-rows.expected.jsonl"), encoding: .utf8)
    let result = try GooglePlayImporter.importEvents(
      input, file: "mapping-rows.jsonl", catalog: catalog, options: GooglePlayImportOptions())
    #expect(result.eventLines == expected.split(separator: "\n").map(String.init))
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    #expect(
      result.skipped == [
        "ONE_TIME_PRODUCT_CANCELED": 1, "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED": 1,
        "SUBSCRIPTION_PENDING_PURCHASE_CANCELED": 1, "SUBSCRIPTION_PRICE_CHANGE_UPDATED": 1,
        "productPurchase canceled": 1, "testNotification": 1,
      ])
    #expect(ContractCheck.problems(result.eventLines, catalog: catalog).isEmpty)
    // The same rows shuffled and delivered twice import to the same lines.
    var random = SplitMix64(state: 11)
    let lines = input.split(separator: "\n").map(String.init)
    let shuffled = try GooglePlayImporter.importEvents(
      (lines + lines).shuffled(using: &random).joined(separator: "\n"), file: "mapping-rows.jsonl",
      catalog: catalog, options: GooglePlayImportOptions())
    #expect(shuffled.eventLines == result.eventLines)
  }
}
