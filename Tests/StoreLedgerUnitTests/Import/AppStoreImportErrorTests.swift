import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Bad input: every error names the input line and the field, and nothing is returned.
@Suite("App Store import: errors name the line and the field")
struct AppStoreImportErrorTests {
  static let base = AppleTransaction(
    transactionId: "8001", originalTransactionId: "8001", productId: "pro.monthly",
    purchaseDate: "2026-03-01T00:00:00Z", expiresDate: "2026-04-01T00:00:00Z",
    signedDate: "2026-03-01T00:00:00Z")

  /// `json` with `key` set to `value` (nil removes it).
  static func edited(_ json: String, _ key: String, _ value: JSONValue?) -> String {
    guard case .object(var members)? = try? JSONValue.parse(json) else {
      fatalError("bad JSON in a test")
    }
    members.removeAll { $0.0 == key }
    if let value { members.append((key, value)) }
    return JSONWriter.compact(.object(members))
  }

  static func transaction(_ edit: (inout AppleTransaction) -> Void) -> String {
    var transaction = base
    edit(&transaction)
    return transaction.json
  }

  static func notification(
    _ type: String, _ subtype: String? = nil, transaction: String? = base.json,
    renewal: String? = nil, uuid: String? = "e0000000-0000-4000-8000-000000000002"
  ) -> String {
    var data: [(String, JSONValue)] = [("environment", .string("Production"))]
    if let transaction {
      data.append(("signedTransactionInfo", .string(ImportFixtures.jws(transaction))))
    }
    if let renewal { data.append(("signedRenewalInfo", .string(ImportFixtures.jws(renewal)))) }
    var members: [(String, JSONValue)] = [
      ("notificationType", .string(type)), ("data", .object(data)),
      ("signedDate", .integer(ImportFixtures.ms("2026-03-05T00:00:00Z"))),
    ]
    if let subtype { members.append(("subtype", .string(subtype))) }
    if let uuid { members.append(("notificationUUID", .string(uuid))) }
    return JSONWriter.compact(.object(members))
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var input: String
    var errors: [String]
  }

  static let rows: [Row] = [
    Row(
      testDescription: "a product missing from the catalog",
      input: transaction { $0.productId = "pro.weekly" },
      errors: [
        "input.jsonl:1: error: field 'productId': unknown product 'pro.weekly' (not in the catalog); add it, or start a catalog with emitCatalog (--emit-catalog)"
      ]),
    Row(
      testDescription: "a missing purchaseDate",
      input: edited(base.json, "purchaseDate", nil),
      errors: [
        "input.jsonl:1: error: field 'purchaseDate' is missing; it is required in a transaction"
      ]),
    Row(
      testDescription: "a date written as a string",
      input: edited(base.json, "purchaseDate", .string("2026-03-01")),
      errors: [
        #"input.jsonl:1: error: field 'purchaseDate': expected a date in milliseconds since 1970 as a number, found the string "2026-03-01""#
      ]),
    Row(
      testDescription: "an id of the wrong type",
      input: edited(base.json, "transactionId", .integer(8001)),
      errors: ["input.jsonl:1: error: field 'transactionId': expected a string, found a number"]),
    Row(
      testDescription: "an auto-renewable transaction without expiresDate",
      input: edited(base.json, "expiresDate", nil),
      errors: [
        "input.jsonl:1: error: field 'expiresDate' is missing; it is required for the auto-renewable product 'pro.monthly'"
      ]),
    Row(
      testDescription: "an expiry that is not after the purchase",
      input: transaction { $0.expiresDate = "2026-03-01T00:00:00Z" },
      errors: [
        "input.jsonl:1: error: field 'expiresDate': 2026-03-01T00:00:00Z is not later than purchaseDate 2026-03-01T00:00:00Z"
      ]),
    Row(
      testDescription: "family sharing of a product the catalog does not share",
      input: transaction {
        $0.productId = "plus.monthly"
        $0.inAppOwnershipType = "FAMILY_SHARED"
      },
      errors: [
        "input.jsonl:1: error: field 'inAppOwnershipType': FAMILY_SHARED, but the catalog does not mark 'plus.monthly' family_shareable"
      ]),
    Row(
      testDescription: "a payload type that contradicts the catalog",
      input: transaction { $0.productId = "pro.lifetime" },
      errors: [
        #"input.jsonl:1: error: field 'type': the App Store says 'pro.lifetime' is "Auto-Renewable Subscription" but the catalog has it as non_consumable"#
      ]),
    Row(
      testDescription: "a negative price",
      input: transaction { $0.price = -5 },
      errors: [
        "input.jsonl:1: error: field 'price': expected 0–\(Limits.amountMax) milliunits, found -5"
      ]),
    Row(
      testDescription: "a transaction without environment",
      input: edited(base.json, "environment", nil),
      errors: [
        "input.jsonl:1: error: field 'environment' is missing, so Production data cannot be told from Sandbox data; import it with sandbox data allowed (--allow-sandbox) if that is intended"
      ]),
    Row(
      testDescription: "a REFUND whose transaction has no revocationDate",
      input: notification("REFUND"),
      errors: [
        "input.jsonl:1: error: field 'data.signedTransactionInfo.revocationDate' is missing; it is required for REFUND"
      ]),
    Row(
      testDescription: "a SUBSCRIBED without its transaction",
      input: notification("SUBSCRIBED", "INITIAL_BUY", transaction: nil),
      errors: [
        "input.jsonl:1: error: field 'data.signedTransactionInfo' is missing; SUBSCRIBED needs the transaction"
      ]),
    Row(
      testDescription: "an EXPIRED without notificationUUID",
      input: notification("EXPIRED", "VOLUNTARY", uuid: nil),
      errors: [
        "input.jsonl:1: error: field 'notificationUUID' is missing; it is required to import EXPIRED"
      ]),
    Row(
      testDescription: "a downgrade to a product that does not renew",
      input: notification(
        "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE",
        renewal: AppleRenewalInfo(
          originalTransactionId: "8001", productId: "pro.monthly",
          autoRenewProductId: "pro.lifetime",
          signedDate: "2026-03-05T00:00:00Z"
        ).json),
      errors: [
        "input.jsonl:1: error: field 'data.signedRenewalInfo.autoRenewProductId': 'pro.lifetime' is non_consumable in the catalog, but a renewal preference names an auto_renewable product"
      ]),
    Row(
      testDescription: "a RENEWAL_EXTENDED without a new date",
      input: notification(
        "RENEWAL_EXTENDED", transaction: nil,
        renewal: AppleRenewalInfo(
          originalTransactionId: "8001", productId: "pro.monthly",
          autoRenewProductId: "pro.monthly",
          signedDate: "2026-03-05T00:00:00Z"
        ).json),
      errors: [
        "input.jsonl:1: error: field 'data.signedRenewalInfo.renewalDate' is missing; RENEWAL_EXTENDED needs the new end of the period"
      ]),
    Row(
      testDescription: "a nested JWS whose payload is not JSON",
      input: notification("DID_RENEW", transaction: "<html>"),
      errors: [
        "input.jsonl:1: error: field 'data.signedTransactionInfo': the JWS payload is not a JSON object (expected a value)"
      ]),
    Row(
      testDescription: "a notification type that is not a string",
      input: #"{"notificationType":7,"notificationUUID":"x","signedDate":1}"#,
      errors: ["input.jsonl:1: error: field 'notificationType': expected a string, found a number"]),
    Row(
      testDescription: "an event id over the contract's 128 characters",
      input: transaction {
        $0.transactionId = String(repeating: "7", count: 120)
        $0.originalTransactionId = $0.transactionId
      },
      errors: [
        "input.jsonl:1: error: the event id 'appstore:\(String(repeating: "7", count: 120)):purchase' would be longer than 128 characters; Apple's ids are never that long, is the input damaged?"
      ]),
    Row(
      testDescription: "a JWS over the size limit",
      input: ImportFixtures.jws(String(repeating: " ", count: Limits.importJWSBytesMax) + "{}"),
      errors: [
        "input.jsonl:1: error: this document: JWS is \(ImportFixtures.jws(String(repeating: " ", count: Limits.importJWSBytesMax) + "{}").utf8.count) bytes, more than the limit of \(Limits.importJWSBytesMax)"
      ]),
  ]

  @Test("bad payloads are errors naming line and field", arguments: rows)
  func row(_ row: Row) {
    #expect(ImportFixtures.importErrors(row.input) == row.errors)
  }

  @Test("every bad line is reported, in line order, and nothing is returned")
  func allErrorsNoPartialOutput() {
    let input = [
      Self.base.json,
      Self.transaction { $0.productId = "pro.weekly" },
      "",
      "{not json",
      Self.edited(Self.base.json, "environment", .string("Sandbox")),
    ].joined(separator: "\n")
    #expect(
      ImportFixtures.importErrors(input) == [
        "input.jsonl:2: error: field 'productId': unknown product 'pro.weekly' (not in the catalog); add it, or start a catalog with emitCatalog (--emit-catalog)",
        "input.jsonl:4:2: error: invalid JSON: expected a string key",
        "input.jsonl:5: error: field 'environment': Sandbox data is refused; import it with sandbox data allowed (--allow-sandbox)",
      ])
  }

  @Test("sandbox data and data without environment import when allowed")
  func sandboxAllowed() throws {
    let input = [
      Self.edited(Self.base.json, "environment", .string("Sandbox")),
      Self.edited(Self.transaction { $0.transactionId = "8002" }, "environment", nil),
    ].joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input, allowsSandbox: true))
    #expect(result.environments == ["Sandbox": 1, "unknown": 1])
    #expect(result.eventLines.count == 2)
  }

  @Test("a subject mapped to an empty string is an error naming the original transaction")
  func emptySubject() {
    do {
      _ = try AppStoreImporter.importEvents(
        Self.base.json, file: "in.json", catalog: ImportFixtures.catalog,
        options: AppStoreImportOptions(subjects: ["8001": ""], verification: .skip))
      Issue.record("an empty subject was accepted")
    } catch {
      #expect(
        error.diagnostics.map(\.description) == [
          #"in.json:1: error: the subject for original transaction '8001' must be 1–256 characters, found """#
        ])
    }
  }
}
