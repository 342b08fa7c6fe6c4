import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// Contract v1.3 section 10 meets section 12: what a support agent wrote in a grant's or block's
/// free-text `reason` may name the customer, so an erasure removes it from their lines only.
@Suite("Erasure removes the free-text reasons of the erased subject's grants and blocks")
struct ErasureAccessReasonTests {
  @Test("the erased subject's reasons are gone; another subject's stay; the pseudonym keeps the block and the grant")
  func reasons() throws {
    let log = EventLines.log([
      .grant(id: "g1", subject: "alice@example.com", at: ts("2026-03-01T00:00:00Z"), entitlements: ["pro"], reason: "asked by alice@example.com"),
      .block(id: "b1", subject: "alice@example.com", at: ts("2026-03-02T00:00:00Z"), service: "fraud", entitlements: ["pro"], reason: "card of Alice Smith"),
      .block(id: "b2", subject: "bob", at: ts("2026-03-02T00:00:00Z"), service: "fraud", reason: "chargeback filed"),
    ]) + "\n"
    let fixture = try ErasureFixture(log: Array(log.utf8), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    let report = try fixture.erase(["alice@example.com"])
    let text = String(decoding: try fixture.files()[URL(fileURLWithPath: fixture.log).lastPathComponent] ?? [], as: UTF8.self)
    #expect(!text.contains("alice") && !text.contains("Alice"))
    #expect(text.contains("chargeback filed"))
    var engine = QueryEngine(ledger: try fixture.ledger())
    let pseudonym = try #require(report.pseudonyms.first)
    let answer = engine.checkedAnswer(pseudonym, at: "2026-03-05T00:00:00Z")
    #expect(answer.entitlements.isEmpty)
    #expect(answer.blocked?.byName.first?.value.map(\.service) == ["fraud"])
    #expect(answer.blocked?.byName.first?.value.first?.reason == nil)
  }
}
