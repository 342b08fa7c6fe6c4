import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The mapping table row by row: each notification type, subtype and enum value.
@Suite("App Store import: mapping of types, subtypes and enum values")
struct AppStoreImportMappingTests {
  static let token = "a1b2c3d4-0000-4000-8000-00000000000a"
  /// An active monthly subscription's latest transaction.
  static let current = AppleTransaction(
    transactionId: "9002", originalTransactionId: "9001", productId: "pro.monthly",
    purchaseDate: "2026-03-01T00:00:00Z", expiresDate: "2026-04-01T00:00:00Z",
    signedDate: "2026-03-01T00:00:00Z", transactionReason: "RENEWAL", appAccountToken: token)
  static let currentLine =
    #"{"at":"2026-03-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-04-01T00:00:00Z","id":"appstore:9002:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"9001","price":9990,"product":"pro.monthly","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"9002","type":"renewal"}"#
  /// `current`'s renewal as known from a copy signed on 2026-03-05.
  static let currentLineSignedLater =
    #"{"at":"2026-03-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-04-01T00:00:00Z","id":"appstore:9002:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"9001","price":9990,"product":"pro.monthly","recorded":"2026-03-05T00:00:00Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"9002","type":"renewal"}"#

  static func renewal(
    _ status: Int64 = 1, next: String = "pro.monthly", grace: String? = nil, intent: Int64? = nil,
    renewalDate: String? = nil, signed: String
  ) -> AppleRenewalInfo {
    AppleRenewalInfo(
      originalTransactionId: "9001", productId: "pro.monthly", autoRenewProductId: next,
      autoRenewStatus: status, signedDate: signed, gracePeriodExpiresDate: grace,
      expirationIntent: intent, renewalDate: renewalDate)
  }

  static func notification(
    _ type: String, _ subtype: String? = nil, signed: String,
    transaction: AppleTransaction? = current,
    renewal: AppleRenewalInfo? = nil
  ) -> AppleNotification {
    AppleNotification(
      notificationType: type, subtype: subtype,
      notificationUUID: "e0000000-0000-4000-8000-000000000001",
      signedDate: signed, transaction: transaction?.signed(at: signed), renewalInfo: renewal)
  }

  /// The lines of a successful import, without the transaction's own events.
  static func ownLines(_ input: String, sourceLocation: SourceLocation = #_sourceLocation)
    -> [String]?
  {
    guard let result = ImportFixtures.importEvents(input, sourceLocation: sourceLocation) else {
      return nil
    }
    return result.eventLines.filter { !$0.contains(#""id":"appstore:9002:renewal""#) }
  }

  /// One notification and the events of its own it must give.
  struct Row: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var input: String
    var lines: [String]
  }

  static let rows: [Row] = [
    Row(
      testDescription: "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED is auto_renew true",
      input: notification(
        "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", signed: "2026-03-05T00:00:00Z"
      ).decoded,
      lines: [
        #"{"at":"2026-03-05T00:00:00Z","auto_renew":true,"id":"appstore:e0000000-0000-4000-8000-000000000001:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_STATUS","source":"appstore","subtype":"AUTO_RENEW_ENABLED"},"original_transaction":"9001","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"auto_renew_changed"}"#
      ]
    ),
    Row(
      testDescription: "DID_CHANGE_RENEWAL_STATUS without subtype takes autoRenewStatus",
      input: notification(
        "DID_CHANGE_RENEWAL_STATUS", signed: "2026-03-05T00:00:00Z",
        renewal: renewal(0, signed: "2026-03-05T00:00:00Z")
      ).decoded,
      lines: [
        #"{"at":"2026-03-05T00:00:00Z","auto_renew":false,"id":"appstore:e0000000-0000-4000-8000-000000000001:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_STATUS","source":"appstore"},"original_transaction":"9001","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"auto_renew_changed"}"#
      ]
    ),
    Row(
      testDescription: "EXPIRED/BILLING_RETRY takes effect when Apple gives up (signedDate)",
      input: notification(
        "EXPIRED", "BILLING_RETRY", signed: "2026-05-31T00:00:00Z",
        renewal: renewal(1, intent: 2, signed: "2026-05-31T00:00:00Z")
      ).decoded,
      lines: [
        #"{"at":"2026-05-31T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"BILLING_RETRY"},"original_transaction":"9001","reason":"billing","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"expiration"}"#
      ]
    ),
    Row(
      testDescription: "EXPIRED/PRICE_INCREASE ends at the period end with reason price_increase",
      input: notification("EXPIRED", "PRICE_INCREASE", signed: "2026-04-01T00:00:09Z").decoded,
      lines: [
        #"{"at":"2026-04-01T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"PRICE_INCREASE"},"original_transaction":"9001","reason":"price_increase","recorded":"2026-04-01T00:00:09Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"expiration"}"#
      ]
    ),
    Row(
      testDescription: "EXPIRED/PRODUCT_NOT_FOR_SALE has reason product_unavailable",
      input: notification("EXPIRED", "PRODUCT_NOT_FOR_SALE", signed: "2026-04-01T00:00:09Z")
        .decoded,
      lines: [
        #"{"at":"2026-04-01T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"PRODUCT_NOT_FOR_SALE"},"original_transaction":"9001","reason":"product_unavailable","recorded":"2026-04-01T00:00:09Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"expiration"}"#
      ]
    ),
    Row(
      testDescription: "EXPIRED without subtype takes the reason from expirationIntent",
      input: notification(
        "EXPIRED", signed: "2026-04-01T00:00:09Z",
        renewal: renewal(0, intent: 4, signed: "2026-04-01T00:00:09Z")
      ).decoded,
      lines: [
        #"{"at":"2026-04-01T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore"},"original_transaction":"9001","reason":"product_unavailable","recorded":"2026-04-01T00:00:09Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"expiration"}"#
      ]
    ),
    Row(
      testDescription: "EXPIRED without subtype or intent has reason other",
      input: notification("EXPIRED", signed: "2026-04-01T00:00:09Z").decoded,
      lines: [
        #"{"at":"2026-04-01T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore"},"original_transaction":"9001","reason":"other","recorded":"2026-04-01T00:00:09Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"expiration"}"#
      ]
    ),
    Row(
      testDescription: "RENEWAL_EXTENDED moves the period end to the renewal info's renewalDate",
      input: notification(
        "RENEWAL_EXTENDED", signed: "2026-03-20T00:00:00Z",
        renewal: renewal(renewalDate: "2026-04-15T00:00:00Z", signed: "2026-03-20T00:00:00Z")
      ).decoded,
      lines: [
        #"{"at":"2026-03-20T00:00:00Z","expires":"2026-04-15T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:renewal_extended","meta":{"environment":"Production","notificationType":"RENEWAL_EXTENDED","source":"appstore"},"original_transaction":"9001","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"renewal_extended"}"#
      ]
    ),
    Row(
      testDescription: "REFUND_REVERSED reinstates the transaction",
      input: notification("REFUND_REVERSED", signed: "2026-03-25T00:00:00Z").decoded,
      lines: [
        #"{"at":"2026-03-25T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:refund_reversed","meta":{"environment":"Production","notificationType":"REFUND_REVERSED","source":"appstore"},"subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"9002","type":"refund_reversed"}"#
      ]
    ),
    Row(
      testDescription:
        "DID_FAIL_TO_RENEW/GRACE_PERIOD without a grace end falls back to billing_retry",
      input: notification("DID_FAIL_TO_RENEW", "GRACE_PERIOD", signed: "2026-04-01T00:00:05Z")
        .decoded,
      lines: [
        #"{"at":"2026-04-01T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:billing_retry","meta":{"environment":"Production","notificationType":"DID_FAIL_TO_RENEW","source":"appstore","subtype":"GRACE_PERIOD"},"original_transaction":"9001","recorded":"2026-04-01T00:00:05Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"billing_retry"}"#
      ]
    ),
    Row(
      testDescription: "OFFER_REDEEMED/DOWNGRADE is a plan change (auto-renew re-stated)",
      input: notification(
        "OFFER_REDEEMED", "DOWNGRADE", signed: "2026-03-05T00:00:00Z",
        renewal: renewal(next: "pro.annual", signed: "2026-03-05T00:00:00Z")
      ).decoded,
      lines: [
        #"{"at":"2026-03-05T00:00:00Z","auto_renew":true,"id":"appstore:e0000000-0000-4000-8000-000000000001:auto_renew_changed","meta":{"environment":"Production","notificationType":"OFFER_REDEEMED","source":"appstore","subtype":"DOWNGRADE"},"original_transaction":"9001","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"auto_renew_changed"}"#,
        #"{"at":"2026-03-05T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:plan_changed","meta":{"environment":"Production","notificationType":"OFFER_REDEEMED","source":"appstore","subtype":"DOWNGRADE"},"original_transaction":"9001","product":"pro.annual","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"plan_changed"}"#,
      ]
    ),
  ]

  @Test("each notification type gives its events", arguments: rows)
  func row(_ row: Row) throws {
    // Besides the transaction's own renewal, exactly the row's events.
    #expect(Self.ownLines(row.input) == row.lines)
  }

  @Test(
    "types that change no entitlement are counted and skipped, each notification once",
    arguments: [
      "PRICE_INCREASE", "TEST", "RENEWAL_EXTENSION",
      "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
    ])
  func skipped(type: String) throws {
    let notification = Self.notification(type, signed: "2026-03-05T00:00:00Z")
    let input = [notification.decoded, notification.signedBody, notification.decoded].joined(
      separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.skipped == [type: 1])
    // The transaction it carries is still imported: a notification never hides a purchase.
    #expect(result.eventLines == [Self.currentLineSignedLater])
  }

  @Test("an unknown notification type is counted, warned about, and its transaction still imported")
  func unknownNotificationType() throws {
    let input = Self.notification("SOMETHING_NEW", "NEWER", signed: "2026-03-05T00:00:00Z").decoded
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == [Self.currentLineSignedLater])
    #expect(result.skipped == ["SOMETHING_NEW": 1])
    #expect(result.unknownValues == ["notificationType=SOMETHING_NEW": 1])
    #expect(
      result.warnings.map(\.description) == [
        #"input.jsonl:1: warning: field 'notificationType': unknown value "SOMETHING_NEW"; counted as skipped; the transaction it carries is still imported"#
      ])
  }

  @Test("an unknown subtype is kept raw in meta and warned about")
  func unknownSubtype() throws {
    let input = Self.notification(
      "EXPIRED", "CUSTOMER_LEFT_EARTH", signed: "2026-04-01T00:00:09Z",
      renewal: Self.renewal(0, intent: 1, signed: "2026-04-01T00:00:09Z")
    ).decoded
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(
      result.eventLines.last
        == #"{"at":"2026-04-01T00:00:00Z","id":"appstore:e0000000-0000-4000-8000-000000000001:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"CUSTOMER_LEFT_EARTH"},"original_transaction":"9001","reason":"voluntary","recorded":"2026-04-01T00:00:09Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"expiration"}"#
    )
    #expect(result.unknownValues == ["subtype=CUSTOMER_LEFT_EARTH": 1])
    #expect(result.warnings.count == 1)
  }

  /// A transaction field value and what the purchase line must then contain.
  struct EnumRow: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var edit: @Sendable (inout AppleTransaction) -> Void
    var contains: [String]
    var excludes: [String] = []
    var unknown: [String: Int] = [:]
  }

  static let enumRows: [EnumRow] = [
    EnumRow(
      testDescription: "intro offer, FREE_TRIAL: trial",
      edit: {
        $0.offerType = 1
        $0.offerDiscountType = "FREE_TRIAL"
      }, contains: [#""offer":"trial""#]),
    EnumRow(
      testDescription: "intro offer, PAY_AS_YOU_GO: intro",
      edit: {
        $0.offerType = 1
        $0.offerDiscountType = "PAY_AS_YOU_GO"
      }, contains: [#""offer":"intro""#]),
    EnumRow(
      testDescription: "intro offer without discount type at price 0: trial",
      edit: {
        $0.offerType = 1
        $0.price = 0
      }, contains: [#""offer":"trial""#]),
    EnumRow(
      testDescription: "intro offer without discount type at a price: intro",
      edit: {
        $0.offerType = 1
        $0.price = 990
      }, contains: [#""offer":"intro""#, #""price":990"#]),
    EnumRow(
      testDescription: "promotional offer: promo", edit: { $0.offerType = 2 },
      contains: [#""offer":"promo""#]),
    EnumRow(
      testDescription: "offer code: code", edit: { $0.offerType = 3 },
      contains: [#""offer":"code""#]),
    EnumRow(
      testDescription: "win-back offer: win_back", edit: { $0.offerType = 4 },
      contains: [#""offer":"win_back""#]),
    EnumRow(
      testDescription: "no offer: no offer field", edit: { _ in }, contains: [],
      excludes: [#""offer""#]),
    EnumRow(
      testDescription: "unknown offerType: kept raw in meta, no offer",
      edit: { $0.offerType = 9 }, contains: [#""offerType":9"#], excludes: [#""offer":"#],
      unknown: ["offerType=9": 1]),
    EnumRow(
      testDescription: "unknown offerDiscountType: kept raw in meta",
      edit: {
        $0.offerType = 1
        $0.offerDiscountType = "PAY_IN_KIND"
      },
      contains: [#""offer":"intro""#, #""offerDiscountType":"PAY_IN_KIND""#],
      unknown: ["offerDiscountType=PAY_IN_KIND": 1]),
    EnumRow(
      testDescription: "unknown inAppOwnershipType: kept raw in meta, no ownership",
      edit: { $0.inAppOwnershipType = "BORROWED" }, contains: [#""inAppOwnershipType":"BORROWED""#],
      excludes: [#""ownership""#], unknown: ["inAppOwnershipType=BORROWED": 1]),
    EnumRow(
      testDescription: "unknown product type: the catalog decides, raw kept in meta",
      edit: { $0.type = "Hologram" }, contains: [#""type":"Hologram""#, #""expires":"#],
      unknown: ["type=Hologram": 1]),
    EnumRow(
      testDescription: "unknown transactionReason: decided by the ids, raw kept in meta",
      edit: { $0.transactionReason = "GIFT" },
      contains: [#""transactionReason":"GIFT""#, #""type":"purchase""#],
      unknown: ["transactionReason=GIFT": 1]),
    EnumRow(
      testDescription: "no transactionReason, first transaction: purchase",
      edit: { $0.transactionReason = nil }, contains: [#""type":"purchase""#]),
    EnumRow(
      testDescription: "no transactionReason, later transaction: renewal",
      edit: {
        $0.transactionReason = nil
        $0.transactionId = "8002"
      },
      contains: [#""type":"renewal""#, #""id":"appstore:8002:renewal""#]),
    EnumRow(
      testDescription: "price without currency: neither is imported",
      edit: { $0.currency = nil }, contains: [], excludes: [#""price""#, #""currency""#]),
  ]

  @Test("transaction enum values map to offer, ownership and kind", arguments: enumRows)
  func enumValues(_ row: EnumRow) throws {
    var transaction = AppleTransaction(
      transactionId: "8001", originalTransactionId: "8001", productId: "pro.monthly",
      purchaseDate: "2026-03-01T00:00:00Z", expiresDate: "2026-04-01T00:00:00Z",
      signedDate: "2026-03-01T00:00:00Z", appAccountToken: Self.token)
    row.edit(&transaction)
    let result = try #require(ImportFixtures.importEvents(transaction.json))
    let line = try #require(result.eventLines.first)
    #expect(result.eventLines.count == 1)
    for part in row.contains { #expect(line.contains(part), "\(line)") }
    for part in row.excludes { #expect(!line.contains(part), "\(line)") }
    #expect(result.unknownValues == row.unknown)
    #expect(
      result.warnings.count == (row.unknown.isEmpty ? (transaction.currency == nil ? 1 : 0) : 1))
  }

  @Test("one-time products: consumables carry quantity, non-renewing ones their expiry if given")
  func oneTimeProducts() throws {
    var coins = AppleTransaction(
      transactionId: "7001", originalTransactionId: "7001", productId: "coins.100",
      purchaseDate: "2026-03-01T00:00:00Z", signedDate: "2026-03-01T00:00:00Z", type: "Consumable",
      appAccountToken: Self.token, price: 1990, quantity: 3)
    coins.revocationDate = "2026-03-02T00:00:00Z"
    let pass = AppleTransaction(
      transactionId: "7002", originalTransactionId: "7002", productId: "pass.week",
      purchaseDate: "2026-03-03T00:00:00Z", signedDate: "2026-03-03T00:00:00Z",
      type: "Non-Renewing Subscription", appAccountToken: Self.token, price: 2990)
    var datedPass = pass
    datedPass.transactionId = "7003"
    datedPass.purchaseDate = "2026-03-04T00:00:00Z"
    datedPass.signedDate = "2026-03-04T00:00:00Z"
    datedPass.expiresDate = "2026-03-11T00:00:00Z"
    let charge = AppleNotification(
      notificationType: "ONE_TIME_CHARGE", notificationUUID: "e0000000-0000-4000-8000-000000000701",
      signedDate: "2026-03-01T00:00:00Z", transaction: coins)
    let input = [charge.signedBody, pass.json, datedPass.json].joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(
      result.eventLines == [
        #"{"at":"2026-03-01T00:00:00Z","country":"US","currency":"USD","id":"appstore:7001:purchase","meta":{"environment":"Production","source":"appstore"},"ownership":"purchased","price":1990,"product":"coins.100","quantity":3,"store":"appstore","subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"7001","type":"purchase"}"#,
        #"{"at":"2026-03-02T00:00:00Z","id":"appstore:7001:revocation","meta":{"environment":"Production","source":"appstore"},"reason":"refund","recorded":"2026-03-01T00:00:00Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"7001","type":"revocation"}"#,
        #"{"at":"2026-03-03T00:00:00Z","country":"US","currency":"USD","id":"appstore:7002:purchase","meta":{"environment":"Production","source":"appstore"},"ownership":"purchased","price":2990,"product":"pass.week","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"7002","type":"purchase"}"#,
        #"{"at":"2026-03-04T00:00:00Z","country":"US","currency":"USD","expires":"2026-03-11T00:00:00Z","id":"appstore:7003:purchase","meta":{"environment":"Production","source":"appstore"},"ownership":"purchased","price":2990,"product":"pass.week","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-00000000000a","transaction":"7003","type":"purchase"}"#,
      ])
  }

  @Test(
    "the subject is the app account token, else the caller's mapping, else the appTransactionId, else appstore:<original>"
  )
  func subjects() throws {
    var withToken = Self.current
    withToken.transactionId = "6001"
    var mapped = withToken
    mapped.transactionId = "6002"
    mapped.originalTransactionId = "6100"
    mapped.appAccountToken = nil
    var plain = mapped
    plain.transactionId = "6003"
    plain.originalTransactionId = "6200"
    var bare = plain
    bare.transactionId = "6004"
    bare.originalTransactionId = "6300"
    bare.appTransactionId = nil
    let input = [withToken.json, mapped.json, plain.json, bare.json].joined(separator: "\n")
    let result = try #require(
      ImportFixtures.importEvents(input, subjects: ["6100": "user-6100", "9001": "ignored"]))
    let subjects = result.eventLines.compactMap {
      (try? JSONValue.parse($0))?["subject"]?.stringValue
    }
    #expect(subjects == [Self.token, "user-6100", "appstore:app-transaction:704", "appstore:6300"])
  }

  @Test(
    "a charge notification whose transaction says otherwise is warned about; the transaction decides"
  )
  func chargeDisagreement() throws {
    let input = Self.notification("SUBSCRIBED", "RESUBSCRIBE", signed: "2026-03-01T00:00:00Z")
      .decoded
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == [Self.currentLine])
    #expect(
      result.warnings.map(\.description) == [
        "input.jsonl:1: warning: SUBSCRIBED/RESUBSCRIBE usually carries a purchase, but its transaction's transactionReason makes it a renewal; the transaction decides"
      ])
  }

  @Test("a status snapshot in grace or billing retry starts that state at the period end")
  func statusSnapshots() throws {
    func response(_ status: Int64, grace: String?) -> String {
      let renewal = Self.renewal(1, grace: grace, signed: "2026-04-03T00:00:00Z")
      return
        #"{"environment":"Production","bundleId":"com.example.app","appAppleId":1,"data":[{"subscriptionGroupIdentifier":"pro","lastTransactions":[{"status":\#(status),"originalTransactionId":"9001","signedTransactionInfo":"\#(ImportFixtures.jws(Self.current.json))","signedRenewalInfo":"\#(ImportFixtures.jws(renewal.json))"}]}]}"#
    }
    let grace = try #require(
      ImportFixtures.importEvents(response(4, grace: "2026-04-17T00:00:00Z")))
    #expect(
      grace.eventLines.contains(
        #"{"at":"2026-04-01T00:00:00Z","grace_expires":"2026-04-17T00:00:00Z","id":"appstore:9002:grace_entered","meta":{"environment":"Production","source":"appstore","status":4},"original_transaction":"9001","recorded":"2026-04-03T00:00:00Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"grace_entered"}"#
      ))
    let retry = try #require(ImportFixtures.importEvents(response(3, grace: nil)))
    #expect(
      retry.eventLines.contains(
        #"{"at":"2026-04-01T00:00:00Z","id":"appstore:9002:billing_retry","meta":{"environment":"Production","source":"appstore","status":3},"original_transaction":"9001","recorded":"2026-04-03T00:00:00Z","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"billing_retry"}"#
      ))
    // The same snapshot fetched twice adds nothing; a later one adds its own preferences.
    let twice = try #require(
      ImportFixtures.importEvents(response(3, grace: nil) + "\n" + response(3, grace: nil)))
    #expect(twice.eventLines == retry.eventLines)
  }
}
