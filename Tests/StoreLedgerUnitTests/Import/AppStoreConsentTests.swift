import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// RESCIND_CONSENT (a parent or guardian withdrew consent) becomes a `block` by service
/// `consent` for the account of its app transaction (issue 35, item 4; contract v1.3 §10).
@Suite("App Store import: withdrawn consent")
struct AppStoreConsentTests {
  typealias I = AppStoreIdentityTests

  /// A RESCIND_CONSENT for app transaction `appTransactionId` (nil: an app transaction without one).
  static func rescind(_ appTransactionId: String?, uuid: String = "c0ffee00-0000-4000-8000-00000000c001") -> String {
    var app: [(String, JSONValue)] = [
      ("receiptType", .string("Production")), ("bundleId", .string("com.example.app")),
      ("originalPurchaseDate", .integer(ImportFixtures.ms("2026-01-01T00:00:00Z"))),
    ]
    if let appTransactionId { app.append(("appTransactionId", .string(appTransactionId))) }
    let appData: [(String, JSONValue)] = [
      ("appAppleId", .integer(1_234_567_890)), ("bundleId", .string("com.example.app")),
      ("environment", .string("Production")),
      ("signedAppTransactionInfo", .string(ImportFixtures.jws(JSONWriter.compact(.object(app))))),
    ]
    return JSONWriter.compact(
      .object([
        ("notificationType", .string("RESCIND_CONSENT")), ("notificationUUID", .string(uuid)),
        ("appData", .object(appData)), ("version", .string("2.0")),
        ("signedDate", .integer(ImportFixtures.ms("2026-02-15T00:00:00Z"))),
      ]))
  }

  static func blocks(_ lines: [String]) -> [JSONValue] {
    I.objects(lines).filter { $0["type"]?.stringValue == "block" }
  }

  @Test("the account the app transaction's purchases name is blocked by service consent from the signedDate, and loses access")
  func blocksTheAccount() throws {
    let input = [I.period(1, token: I.a).json, I.period(2, token: I.a).json, Self.rescind("704")]
    let result = try #require(ImportFixtures.importEvents(input.joined(separator: "\n")))
    let blocks = Self.blocks(result.eventLines)
    #expect(blocks.count == 1)
    #expect(blocks.first?["subject"]?.stringValue == I.a)
    #expect(blocks.first?["service"]?.stringValue == "consent")
    #expect(blocks.first?["at"]?.stringValue == "2026-02-15T00:00:00Z")
    #expect(blocks.first?["entitlements"] == nil)
    #expect(result.skipped["RESCIND_CONSENT"] == nil)
    var engine = QueryEngine(ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: ImportFixtures.catalogText))
    #expect(engine.checkedAnswer(I.a, at: "2026-02-14T23:59:59Z").entitlements.keys.sorted() == ["pro"])
    let after = engine.checkedAnswer(I.a, at: "2026-02-15T00:00:00Z")
    #expect(after.entitlements.isEmpty)
    #expect(after.jsonValue["blocked"]?["pro"] != nil)
  }

  @Test(
    "without a purchase of the app transaction in the import, the block goes to its own subject or the --subjects mapping",
    arguments: [([String: String](), "appstore:app-transaction:55"), (["55": "user-55"], "user-55")])
  func fallbackSubject(subjects: [String: String], expected: String) throws {
    let result = try #require(ImportFixtures.importEvents(Self.rescind("55"), subjects: subjects))
    #expect(Self.blocks(result.eventLines).compactMap { $0["subject"]?.stringValue } == [expected])
  }

  @Test("a redelivered RESCIND_CONSENT blocks once")
  func redelivery() throws {
    let result = try #require(ImportFixtures.importEvents([Self.rescind("55"), Self.rescind("55")].joined(separator: "\n")))
    #expect(Self.blocks(result.eventLines).count == 1)
    #expect(result.duplicateCount == 1)
  }

  @Test("an app transaction without appTransactionId is refused, naming the field")
  func missingID() {
    let errors = ImportFixtures.importErrors(Self.rescind(nil))
    #expect(errors.contains { $0.contains("field 'appData.signedAppTransactionInfo.appTransactionId' is missing") })
  }
}
