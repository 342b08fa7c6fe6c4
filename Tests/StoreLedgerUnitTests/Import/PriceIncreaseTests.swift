import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// Price increases awaiting consent (Docs/import-appstore.md and Docs/import-googleplay.md,
/// "Price increases"): no event kind records a consent, so Apple's renewal-info state goes into
/// the meta of the events its notification already produces, Google's resource snapshots and
/// notifications are counted, and neither adds an event or changes one.
@Suite("Importers: price increases awaiting consent")
struct PriceIncreaseTests: SharedStoreFixtures {
  typealias M = AppStoreImportMappingTests
  typealias G = GP

  static func renewal(status: Int64?, price: (Int64, String)? = (12990, "USD"), signed: String) -> AppleRenewalInfo {
    var info = M.renewal(0, signed: signed)
    info.priceIncreaseStatus = status
    info.renewalPrice = price
    return info
  }

  /// An auto-renew change signed with a renewal info that says `status`.
  static func autoRenewOff(status: Int64?, price: (Int64, String)? = (12990, "USD"), uuid: String = "e0000000-0000-4000-8000-000000000001") -> String {
    var notification = M.notification(
      "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", signed: "2026-03-10T00:00:00Z",
      renewal: renewal(status: status, price: price, signed: "2026-03-10T00:00:00Z"))
    notification.notificationUUID = uuid
    return notification.decoded
  }

  static func autoRenewLine(meta: String) -> String {
    #"{"at":"2026-03-10T00:00:00Z","auto_renew":false,"id":"appstore:e0000000-0000-4000-8000-000000000001:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_STATUS"\#(meta),"source":"appstore","subtype":"AUTO_RENEW_DISABLED"},"original_transaction":"9001","subject":"a1b2c3d4-0000-4000-8000-00000000000a","type":"auto_renew_changed"}"#
  }

  struct AppleRow: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var status: Int64?
    var price: (Int64, String)?
    var meta: String
    var counted: [String: Int]
  }

  @Test(
    "Apple: a notification's own events carry its renewal info's priceIncreaseStatus and new price; the summary counts the state",
    arguments: [
      AppleRow(
        testDescription: "0: awaiting consent, with the new price", status: 0, price: (12990, "USD"),
        meta: #","priceIncreaseStatus":0,"renewalCurrency":"USD","renewalPrice":12990"#,
        counted: ["PRICE_INCREASE awaiting consent": 1]),
      AppleRow(
        testDescription: "1: accepted, with the new price", status: 1, price: (12990, "USD"),
        meta: #","priceIncreaseStatus":1,"renewalCurrency":"USD","renewalPrice":12990"#,
        counted: ["PRICE_INCREASE accepted": 1]),
      AppleRow(
        testDescription: "0 without a renewalPrice: the state alone", status: 0, price: nil,
        meta: #","priceIncreaseStatus":0"#, counted: ["PRICE_INCREASE awaiting consent": 1]),
      AppleRow(
        testDescription: "no priceIncreaseStatus: renewalPrice is the usual next price, nothing is added",
        status: nil, price: (9990, "USD"), meta: "", counted: [:]),
    ])
  func appleMeta(_ row: AppleRow) throws {
    let result = try #require(ImportFixtures.importEvents(Self.autoRenewOff(status: row.status, price: row.price)))
    let own = result.eventLines.filter { !$0.contains(#""id":"appstore:9002:renewal""#) }
    #expect(own == [Self.autoRenewLine(meta: row.meta)])
    // The charge is the transaction's alone: no renewal info reaches it.
    #expect(result.eventLines.contains(M.currentLineSignedLater.replacingOccurrences(of: "2026-03-05", with: "2026-03-10")))
    #expect(result.priceChanges == row.counted)
  }

  @Test("Apple: a redelivered notification with a price increase adds no event, and counts once")
  func appleRedelivery() throws {
    let once = try #require(ImportFixtures.importEvents(Self.autoRenewOff(status: 0)))
    let twice = try #require(
      ImportFixtures.importEvents([Self.autoRenewOff(status: 0), Self.autoRenewOff(status: 0)].joined(separator: "\n")))
    #expect(twice.eventLines == once.eventLines)
    #expect(twice.duplicateCount > 0)
    #expect(twice.warnings.isEmpty)
    #expect(twice.priceIncreaseCount == 1)
  }

  @Test("Apple: PRICE_INCREASE PENDING and ACCEPTED add no event of their own; skipped by type, counted by state")
  func applePriceIncreaseNotifications() throws {
    var pending = M.notification(
      "PRICE_INCREASE", "PENDING", signed: "2026-03-10T00:00:00Z",
      renewal: Self.renewal(status: 0, signed: "2026-03-10T00:00:00Z"))
    pending.notificationUUID = "e0000000-0000-4000-8000-0000000000a1"
    var accepted = M.notification(
      "PRICE_INCREASE", "ACCEPTED", signed: "2026-03-12T00:00:00Z",
      renewal: Self.renewal(status: 1, signed: "2026-03-12T00:00:00Z"))
    accepted.notificationUUID = "e0000000-0000-4000-8000-0000000000a2"
    let input = [pending.decoded, accepted.decoded, pending.decoded].joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines.count == 1)
    #expect(result.eventLines.first?.contains(#""id":"appstore:9002:renewal""#) == true)
    #expect(result.skipped == ["PRICE_INCREASE": 2])
    #expect(result.priceChanges == ["PRICE_INCREASE awaiting consent": 1, "PRICE_INCREASE accepted": 1])
  }

  @Test("Apple: an undocumented priceIncreaseStatus is kept raw in meta and reported, not counted")
  func appleUnknownStatus() throws {
    let result = try #require(ImportFixtures.importEvents(Self.autoRenewOff(status: 7)))
    #expect(result.eventLines.contains(Self.autoRenewLine(meta: #","priceIncreaseStatus":7,"renewalCurrency":"USD","renewalPrice":12990"#)))
    #expect(result.unknownValues == ["data.signedRenewalInfo.priceIncreaseStatus=7": 1])
    #expect(result.priceChanges.isEmpty)
  }

  @Test("Apple, real data: the renewal info of Apple's server library (priceIncreaseStatus 0, renewalPrice 9990 USD) in a notification")
  func appleFixture() throws {
    let path = Self.folder.appendingPathComponent("apple-app-store-server-library-swift/models/signedRenewalInfo.json").path
    guard Self.isPresent else { return }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let transaction = AppleTransaction(
      transactionId: "23456", originalTransactionId: "12345", productId: "pro.monthly",
      purchaseDate: "2023-10-01T00:00:00Z", expiresDate: "2023-11-01T00:00:00Z",
      signedDate: "2023-10-24T12:00:00Z", transactionReason: "RENEWAL", environment: "LocalTesting")
    var notification = AppleNotification(
      notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED",
      notificationUUID: "e0000000-0000-4000-8000-0000000000f1", signedDate: "2023-10-24T12:00:00Z",
      transaction: transaction)
    notification.environment = "LocalTesting"
    // Apple's renewal info itself, signed as the notification carries it.
    let decoded = try JSONValue.parse(notification.decoded)
    guard case .object(var members) = decoded, case .object(var data)? = decoded["data"] else {
      Issue.record("no data")
      return
    }
    data.append(("signedRenewalInfo", .string(ImportFixtures.jws(text))))
    members = members.map { $0.0 == "data" ? ("data", .object(data)) : $0 }
    let result = try #require(ImportFixtures.importEvents(JSONWriter.compact(.object(members)), allowsSandbox: true))
    let own = try #require(result.eventLines.first { $0.contains("auto_renew_changed") })
    let meta = try JSONValue.parse(own)["meta"]
    #expect(meta?["priceIncreaseStatus"] == .integer(0))
    #expect(meta?["renewalPrice"] == .integer(9990))
    #expect(meta?["renewalCurrency"] == .string("USD"))
    #expect(result.priceChanges == ["PRICE_INCREASE awaiting consent": 1])
  }

  /// A subscription resource of token A whose line item shows `details` as its
  /// `priceChangeDetails`, fetched at `fetched`.
  static func withPriceChange(_ details: String?, fetched: String, state: String = "ACTIVE") -> String {
    let resource = G.subscription(state: state, expiry: "2026-02-01T10:00:00Z", fetched: fetched)
    guard let details else { return resource }
    return resource.replacingOccurrences(
      of: #""autoRenewingPlan":{"autoRenewEnabled":true,"#,
      with: #""autoRenewingPlan":{"priceChangeDetails":\#(details),"autoRenewEnabled":true,"#)
  }

  static func details(_ state: String, mode: String = "PRICE_INCREASE") -> String {
    #"{"newPrice":{"currencyCode":"EUR","units":"6","nanos":990000000},"priceChangeMode":"\#(mode)","priceChangeState":"\#(state)","expectedNewPriceChargeTime":"2026-02-01T10:00:00Z"}"#
  }

  @Test("Google: priceChangeDetails changes no event, so copies before and after consent are one fact; the summary counts each state once")
  func googleDetails() throws {
    let plain = try #require(G.importEvents([Self.withPriceChange(nil, fetched: "2026-01-01T10:00:05Z")]))
    let copies = [
      Self.withPriceChange(nil, fetched: "2026-01-01T10:00:05Z"),
      Self.withPriceChange(Self.details("OUTSTANDING"), fetched: "2026-01-10T00:00:00Z"),
      Self.withPriceChange(Self.details("OUTSTANDING"), fetched: "2026-01-11T00:00:00Z"),
      Self.withPriceChange(Self.details("CONFIRMED"), fetched: "2026-01-20T00:00:00Z"),
    ]
    let result = try #require(G.importEvents(copies))
    #expect(result.eventLines == plain.eventLines)
    #expect(!result.warnings.contains { $0.message.contains("differ") })
    #expect(result.priceChanges == ["PRICE_INCREASE OUTSTANDING": 1, "PRICE_INCREASE CONFIRMED": 1])
    // In any order, the same.
    let reversed = try #require(G.importEvents(Array(copies.reversed())))
    #expect(reversed.eventLines == result.eventLines)
    #expect(reversed.priceChanges == result.priceChanges)
  }

  @Test("Google: priceStepUpConsentDetails changes no event either; the summary counts each step-up state once per subscription")
  func googleStepUps() throws {
    typealias D = GooglePlayDeclinedIncreaseTests
    let fetched = ["2026-01-01T10:00:05Z", "2026-01-10T00:00:00Z", "2026-01-11T00:00:00Z", "2026-01-20T00:00:00Z"]
    let plain = try #require(G.importEvents([Self.withPriceChange(nil, fetched: fetched[0])]))
    let copies = [
      Self.withPriceChange(nil, fetched: fetched[0]),
      D.withStepUp(D.stepUp("PENDING"), Self.withPriceChange(nil, fetched: fetched[1])),
      D.withStepUp(D.stepUp("PENDING"), Self.withPriceChange(nil, fetched: fetched[2])),
      D.withStepUp(D.stepUp("CONFIRMED"), Self.withPriceChange(nil, fetched: fetched[3])),
    ]
    let result = try #require(G.importEvents(copies))
    #expect(result.eventLines == plain.eventLines)
    #expect(result.priceChanges == ["PRICE_STEP_UP PENDING": 1, "PRICE_STEP_UP CONFIRMED": 1])
    let reversed = try #require(G.importEvents(Array(copies.reversed())))
    #expect(reversed.eventLines == result.eventLines)
    #expect(reversed.priceChanges == result.priceChanges)
    // A step-up with another consent deadline is another step-up.
    let later = D.withStepUp(
      D.stepUp("PENDING", deadline: "2026-03-25T10:00:00Z"), Self.withPriceChange(nil, fetched: "2026-01-21T00:00:00Z"))
    let twoStepUps = try #require(G.importEvents(copies + [later]))
    #expect(twoStepUps.priceChanges["PRICE_STEP_UP PENDING"] == 2)
  }

  @Test("Google: SUBSCRIPTION_PRICE_CHANGE_CONFIRMED and _UPDATED stay skipped by type, once per notification")
  func googleNotifications() throws {
    let confirmed = G.notification(8, at: "2026-01-12T00:00:00Z")
    let updated = G.notification(19, at: "2026-01-13T00:00:00Z")
    let result = try #require(
      G.importEvents([Self.withPriceChange(Self.details("CONFIRMED"), fetched: "2026-01-12T00:00:01Z"), confirmed, G.push(confirmed), updated]))
    #expect(result.skipped["SUBSCRIPTION_PRICE_CHANGE_CONFIRMED"] == 1)
    #expect(result.skipped["SUBSCRIPTION_PRICE_CHANGE_UPDATED"] == 1)
    let plain = try #require(G.importEvents([Self.withPriceChange(nil, fetched: "2026-01-12T00:00:01Z")]))
    #expect(result.eventLines == plain.eventLines)
  }

  /// Google, as a backend stores it: the plans, a price increase announced, awaited, consented
  /// and notified, and the renewal that charges the new price (ImportPropertyTests splits,
  /// shuffles and redelivers it).
  static let googleStory: [String] = [
    G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:05Z"),
    GooglePlayCatalogTests.plans([GooglePlayCatalogTests.BasePlan(id: "monthly", period: "P1M")]),
    withPriceChange(details("OUTSTANDING"), fetched: "2026-01-10T00:00:00Z"),
    G.push(G.notification(19, at: "2026-01-10T00:00:00Z")),
    withPriceChange(details("CONFIRMED"), fetched: "2026-01-12T00:00:01Z"),
    G.push(G.notification(8, at: "2026-01-12T00:00:00Z")),
    G.push(G.notification(2, at: "2026-02-01T10:00:00Z")),
    G.subscription(order: G.orderA + "..0", expiry: "2026-03-01T10:00:00Z", fetched: "2026-02-01T10:00:02Z"),
  ]

  /// Apple: an increase announced, awaited while auto-renew is turned off and on, then accepted.
  static var appleStory: [String] {
    var pending = M.notification(
      "PRICE_INCREASE", "PENDING", signed: "2026-03-05T00:00:00Z",
      renewal: renewal(status: 0, signed: "2026-03-05T00:00:00Z"))
    pending.notificationUUID = "e0000000-0000-4000-8000-0000000000b1"
    var accepted = M.notification(
      "PRICE_INCREASE", "ACCEPTED", signed: "2026-03-20T00:00:00Z",
      renewal: renewal(status: 1, signed: "2026-03-20T00:00:00Z"))
    accepted.notificationUUID = "e0000000-0000-4000-8000-0000000000b3"
    return [pending.decoded, autoRenewOff(status: 0), accepted.decoded]
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var details: String
    var error: String
    var testDescription: String { error }
  }

  @Test(
    "Google: a priceChangeDetails of the wrong shape is refused, naming the field",
    arguments: [
      Malformed(
        details: #"{"newPrice":"6.99 EUR","priceChangeState":"OUTSTANDING"}"#,
        error: "input.jsonl:1: error: field 'subscriptionPurchaseV2.lineItems[0].autoRenewingPlan.priceChangeDetails.newPrice': expected an object, found a string"),
      Malformed(
        details: #"{"priceChangeState":"OUTSTANDING","expectedNewPriceChargeTime":"next month"}"#,
        error: #"input.jsonl:1: error: field 'subscriptionPurchaseV2.lineItems[0].autoRenewingPlan.priceChangeDetails.expectedNewPriceChargeTime': expected an RFC 3339 time such as 2026-03-01T12:00:00Z, found "next month""#),
      Malformed(
        details: #"{"priceChangeState":2}"#,
        error: "input.jsonl:1: error: field 'subscriptionPurchaseV2.lineItems[0].autoRenewingPlan.priceChangeDetails.priceChangeState': expected a string, found a number"),
      Malformed(
        details: #""PRICE_INCREASE""#,
        error: "input.jsonl:1: error: field 'subscriptionPurchaseV2.lineItems[0].autoRenewingPlan.priceChangeDetails': expected an object, found a string"),
    ])
  func googleMalformed(_ row: Malformed) {
    #expect(G.importErrors([Self.withPriceChange(row.details, fetched: "2026-01-10T00:00:00Z")]) == [row.error])
  }
}

extension ImportResult {
  /// Price changes counted, all states together.
  var priceIncreaseCount: Int { priceChanges.values.reduce(0, +) }
}
