import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// The lifecycles in `Events/googleplay/lifecycles/` (one file per document, as a webhook stores
/// them), written from Google's documentation: grace then recovery, an account hold then expiry,
/// a cancellation then restore, a voided one-time purchase. `ImportPropertyTests` imports them
/// file by file, shuffled and redelivered; this suite checks what one import answers.
@Suite("Google Play import: the lifecycles in Events/googleplay/lifecycles")
struct GooglePlayLifecycleFilesTests {
  /// The files' documents, in the order of their names.
  static var documents: [String] {
    ImportPropertyTests.Scenario.files("", .googlePlaySamples, "Events/googleplay/lifecycles")
      .deliveries.joined().map { $0 }
  }

  /// Expected answers: subject, instant, the entitlements held, the plan's state.
  static let answers: [(String, String, [String], SubscriptionStatus?)] = [
    ("acct-life-hold", "2026-02-05T09:59:59.999Z", ["pro"], .active),
    ("acct-life-hold", "2026-02-07T00:00:00Z", ["pro"], .grace),
    ("acct-life-hold", "2026-02-10T00:00:00Z", ["pro"], .active),
    ("acct-life-hold", "2026-03-08T12:00:00Z", [], .billingRetry),
    ("acct-life-hold", "2026-03-20T00:00:00Z", [], .billingRetry),
    ("acct-life-hold", "2026-04-07T12:00:00Z", [], .expired),
    ("acct-life-restore", "2026-01-22T00:00:00Z", ["pro"], .active),
    ("acct-life-restore", "2026-03-01T00:00:00Z", ["pro"], .active),
    ("acct-life-restore", "2026-03-10T09:00:03Z", [], .expired),
    ("acct-life-voided", "2026-02-05T00:00:00Z", ["pro"], nil),
    ("acct-life-voided", "2026-02-09T15:30:00Z", [], nil),
  ]

  @Test("one import of every file answers what the documents tell, at each instant")
  func answersOfOneImport() throws {
    #expect(Self.documents.count == 20)
    let result = try GooglePlayImporter.importEvents(
      Self.documents.joined(separator: "\n"), file: "lifecycles",
      catalog: fixtureCatalog(ImportPropertyTests.Store.file("Events/googleplay/catalog.json")),
      options: GooglePlayImportOptions())
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    #expect(result.waitingDocuments == 0)
    var engine = QueryEngine(
      ledger: try ledger(
        result.eventLines.joined(separator: "\n"),
        catalogText: ImportPropertyTests.Store.file("Events/googleplay/catalog.json")))
    for (subject, at, entitlements, state) in Self.answers {
      let answer = engine.checkedAnswer(subject, at: at)
      #expect(answer.entitlements.keys.sorted() == entitlements, "\(subject) at \(at)")
      #expect(answer.plans.byName.first?.value.state == state, "\(subject) at \(at)")
    }
  }

  @Test("auto-renew is off from the cancellation until the restore")
  func cancelThenRestore() throws {
    let result = try GooglePlayImporter.importEvents(
      Self.documents.joined(separator: "\n"), file: "lifecycles",
      catalog: fixtureCatalog(ImportPropertyTests.Store.file("Events/googleplay/catalog.json")),
      options: GooglePlayImportOptions())
    var engine = QueryEngine(
      ledger: try ledger(
        result.eventLines.joined(separator: "\n"),
        catalogText: ImportPropertyTests.Store.file("Events/googleplay/catalog.json")))
    for (at, willRenew) in [
      ("2026-01-20T07:59:59.499Z", true), ("2026-01-20T07:59:59.500Z", false),
      ("2026-01-25T07:59:59.999Z", false), ("2026-01-25T08:00:00Z", true),
    ] {
      #expect(engine.checkedAnswer("acct-life-restore", at: at).plans.byName.first?.value.willRenew == willRenew, "\(at)")
    }
  }
}
