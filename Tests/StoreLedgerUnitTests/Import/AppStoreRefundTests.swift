import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Refunds and refund requests as Apple makes them (issue 35, items 2 and 3), and what every
/// App Store charge says about where it was charged (contract v1.3 section 11).
@Suite("App Store import: prorated refunds, refund requests, store and country")
struct AppStoreRefundTests {
  static let account = "a1b2c3d4-0000-4000-8000-000000000035"

  /// The first monthly period of subscription 3501, bought for 9.99 USD.
  static func first(storefront: String = "USA") -> AppleTransaction {
    var transaction = AppleTransaction(
      transactionId: "3501", originalTransactionId: "3501", productId: "pro.monthly",
      purchaseDate: "2026-01-01T00:00:00Z", expiresDate: "2026-02-01T00:00:00Z",
      signedDate: "2026-01-01T00:00:00Z", appAccountToken: account)
    transaction.storefront = storefront
    return transaction
  }

  /// The events of `notifications` by type.
  private func events(_ notifications: [AppleNotification]) throws -> [String: [JSONValue]] {
    let input = notifications.map(\.signedBody).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    var byType: [String: [JSONValue]] = [:]
    for line in result.eventLines {
      let value = try JSONValue.parse(line)
      byType[value["type"]?.stringValue ?? "", default: []].append(value)
    }
    return byType
  }

  @Test(
    "a revocation says what was refunded: a prorated refund its share of the price rounded half up, a full refund nothing (the whole price)",
    arguments: [
      ("REFUND_PRORATED", 50_000, 4995), ("REFUND_PRORATED", 33_333, 3330),
      ("REFUND_PRORATED", 100_000, 9990), ("REFUND_PRORATED", 0, 0),
      ("REFUND_PRORATED", 100_001, nil), ("REFUND_FULL", 50_000, nil),
    ] as [(String, Int64, Int64?)])
  func proratedRefund(type: String, percentage: Int64, refunded: Int64?) throws {
    var revoked = Self.first().signed(at: "2026-01-20T00:00:00Z")
    revoked.revocationDate = "2026-01-19T12:00:00Z"
    revoked.revocationReason = 1
    revoked.revocationType = type
    revoked.revocationPercentage = percentage
    let byType = try events([
      AppleNotification(
        notificationType: "REFUND", notificationUUID: "c0ffee00-0000-4000-8000-000000003501",
        signedDate: "2026-01-20T00:00:00Z", transaction: revoked)
    ])
    let revocation = try #require(byType["revocation"]?.first)
    #expect(revocation["refunded"] == refunded.map(JSONValue.integer))
    #expect(revocation["at"] == .string("2026-01-19T12:00:00Z"))
  }

  @Test(
    "CONSUMPTION_REQUEST is a refund_requested with Apple's reason and a deadline 12 hours after the notification; REFUND_DECLINED a refund_declined",
    arguments: [
      ("UNINTENDED_PURCHASE", "unintended_purchase"), ("FULFILLMENT_ISSUE", "fulfillment_issue"),
      ("UNSATISFIED_WITH_PURCHASE", "unsatisfied"), ("LEGAL", "legal"), ("OTHER", "other"),
      ("SOMETHING_NEW", nil),
    ] as [(String, String?)])
  func refundRequest(raw: String, reason: String?) throws {
    var request = AppleNotification(
      notificationType: "CONSUMPTION_REQUEST",
      notificationUUID: "c0ffee00-0000-4000-8000-000000003502",
      signedDate: "2026-01-10T09:00:00Z", transaction: Self.first().signed(at: "2026-01-10T09:00:00Z"))
    request.consumptionRequestReason = raw
    let declined = AppleNotification(
      notificationType: "REFUND_DECLINED", notificationUUID: "c0ffee00-0000-4000-8000-000000003503",
      signedDate: "2026-01-10T20:00:00Z", transaction: Self.first().signed(at: "2026-01-10T20:00:00Z"))
    let byType = try events([request, declined])
    let requested = try #require(byType["refund_requested"]?.first)
    #expect(requested["transaction"] == .string("3501"))
    #expect(requested["at"] == .string("2026-01-10T09:00:00Z"))
    #expect(requested["respond_by"] == .string("2026-01-10T21:00:00Z"))
    #expect(requested["reason"] == reason.map(JSONValue.string))
    #expect(requested["subject"] == .string(Self.account))
    let refusal = try #require(byType["refund_declined"]?.first)
    #expect(refusal["transaction"] == .string("3501"))
    #expect(refusal["at"] == .string("2026-01-10T20:00:00Z"))
    #expect(byType["purchase"]?.count == 1)
  }

  @Test(
    "every App Store charge says store appstore and the storefront's country as ISO 3166-1 alpha-2; an unknown storefront gives no country",
    arguments: [("USA", "US"), ("DEU", "DE"), ("GBR", "GB"), ("XKS", "XK"), ("ZZZ", nil)]
      as [(String, String?)])
  func storeAndCountry(storefront: String, country: String?) throws {
    let byType = try events([
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000003504",
        signedDate: "2026-01-01T00:00:00Z", transaction: Self.first(storefront: storefront))
    ])
    let purchase = try #require(byType["purchase"]?.first)
    #expect(purchase["store"] == .string("appstore"))
    #expect(purchase["country"] == country.map(JSONValue.string))
  }
}
