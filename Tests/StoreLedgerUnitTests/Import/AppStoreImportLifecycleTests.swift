import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// Subscription lifecycles written in Apple's notification format, imported and compared with
/// the exact ledger lines they must give.
@Suite("App Store import: subscription lifecycles")
struct AppStoreImportLifecycleTests: AppStoreRenewalsAndGrace {
  static let production = #""environment":"Production""#

  // MARK: - Initial buy, renewals, grace, recovery

  static let renewalsAndGraceLines = [
    #"{"at":"2026-01-01T10:00:00Z","country":"US","currency":"USD","expires":"2026-02-01T10:00:00Z","id":"appstore:1001:purchase","meta":{"environment":"Production","source":"appstore"},"offer":"trial","original_transaction":"1001","ownership":"purchased","price":0,"product":"pro.monthly","recorded":"2026-01-01T10:00:01Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000001","transaction":"1001","type":"purchase"}"#,
    #"{"at":"2026-02-01T10:00:00Z","country":"US","currency":"USD","expires":"2026-03-01T10:00:00Z","id":"appstore:1002:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"1001","price":9990,"product":"pro.monthly","recorded":"2026-02-01T09:59:50Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000001","transaction":"1002","type":"renewal"}"#,
    #"{"at":"2026-03-01T10:00:00Z","country":"US","currency":"USD","expires":"2026-04-01T10:00:00Z","id":"appstore:1003:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"1001","price":9990,"product":"pro.monthly","recorded":"2026-03-01T09:59:50Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000001","transaction":"1003","type":"renewal"}"#,
    #"{"at":"2026-04-01T10:00:00Z","grace_expires":"2026-04-17T10:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000104:grace_entered","meta":{"environment":"Production","notificationType":"DID_FAIL_TO_RENEW","source":"appstore","subtype":"GRACE_PERIOD"},"original_transaction":"1001","recorded":"2026-04-01T10:00:05Z","subject":"a1b2c3d4-0000-4000-8000-000000000001","type":"grace_entered"}"#,
    #"{"at":"2026-04-05T08:00:00Z","country":"US","currency":"USD","expires":"2026-05-05T08:00:00Z","id":"appstore:1004:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"1001","price":9990,"product":"pro.monthly","recorded":"2026-04-05T08:00:02Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000001","transaction":"1004","type":"renewal"}"#,
  ]

  @Test(
    "initial buy, renewals, grace and billing recovery give a purchase, renewals and grace_entered")
  func renewalsGraceRecovery() throws {
    // Alternate the two forms Apple's data comes in: the posted body and the decoded payload.
    let input = Self.renewalsAndGrace.enumerated().map { $0 % 2 == 0 ? $1.signedBody : $1.decoded }
      .joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == Self.renewalsAndGraceLines)
    // The grace notification re-sends transaction 1003; it is the same event, signed later.
    #expect(result.duplicateCount == 1)
    #expect(result.skipped.isEmpty)
    #expect(result.warnings.isEmpty)
    #expect(result.environments == ["Production": 5])
  }

  @Test(
    "a failed renewal without grace is billing_retry, and grace running out is billing_retry too")
  func billingRetry() throws {
    let failed = AppleNotification(
      notificationType: "DID_FAIL_TO_RENEW",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000106",
      signedDate: "2026-04-01T10:00:05Z", transaction: Self.t1003.signed(at: "2026-04-01T10:00:05Z")
    )
    let graceOver = AppleNotification(
      notificationType: "GRACE_PERIOD_EXPIRED",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000107", signedDate: "2026-04-17T10:00:09Z",
      transaction: Self.t1003.signed(at: "2026-04-17T10:00:09Z"),
      renewalInfo: AppleRenewalInfo(
        originalTransactionId: "1001", productId: "pro.monthly", autoRenewProductId: "pro.monthly",
        signedDate: "2026-04-17T10:00:09Z", gracePeriodExpiresDate: "2026-04-17T10:00:00Z"),
      status: 3)
    let result = try #require(
      ImportFixtures.importEvents(failed.decoded + "\n" + graceOver.decoded))
    // Only re-signed copies of transaction 1003 were seen, so it was known from 04-01 on.
    #expect(
      result.eventLines == [
        #"{"at":"2026-03-01T10:00:00Z","country":"US","currency":"USD","expires":"2026-04-01T10:00:00Z","id":"appstore:1003:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"1001","price":9990,"product":"pro.monthly","recorded":"2026-04-01T10:00:05Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000001","transaction":"1003","type":"renewal"}"#,
        #"{"at":"2026-04-01T10:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000106:billing_retry","meta":{"environment":"Production","notificationType":"DID_FAIL_TO_RENEW","source":"appstore"},"original_transaction":"1001","recorded":"2026-04-01T10:00:05Z","subject":"a1b2c3d4-0000-4000-8000-000000000001","type":"billing_retry"}"#,
        #"{"at":"2026-04-17T10:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000107:billing_retry","meta":{"environment":"Production","notificationType":"GRACE_PERIOD_EXPIRED","source":"appstore"},"original_transaction":"1001","recorded":"2026-04-17T10:00:09Z","subject":"a1b2c3d4-0000-4000-8000-000000000001","type":"billing_retry"}"#,
      ])
  }

  // MARK: - Resubscribe, auto-renew off, expired

  static let t2005 = AppleTransaction(
    transactionId: "2005", originalTransactionId: "2001", productId: "pro.annual",
    purchaseDate: "2026-01-10T00:00:00Z", expiresDate: "2027-01-10T00:00:00Z",
    signedDate: "2026-01-10T00:00:02Z", price: 49990, offerType: 4,
    offerDiscountType: "PAY_UP_FRONT")
  static let resubscribeAndExpire: [AppleNotification] = [
    AppleNotification(
      notificationType: "SUBSCRIBED", subtype: "RESUBSCRIBE",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000201", signedDate: "2026-01-10T00:00:02Z",
      transaction: t2005),
    AppleNotification(
      notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000202", signedDate: "2026-06-01T12:00:00Z",
      transaction: t2005.signed(at: "2026-06-01T12:00:00Z"),
      renewalInfo: AppleRenewalInfo(
        originalTransactionId: "2001", productId: "pro.annual", autoRenewProductId: "pro.annual",
        autoRenewStatus: 0, signedDate: "2026-06-01T12:00:00Z")),
    AppleNotification(
      notificationType: "EXPIRED", subtype: "VOLUNTARY",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000203", signedDate: "2027-01-10T00:01:35Z",
      transaction: t2005.signed(at: "2027-01-10T00:01:35Z"),
      renewalInfo: AppleRenewalInfo(
        originalTransactionId: "2001", productId: "pro.annual", autoRenewProductId: "pro.annual",
        autoRenewStatus: 0, signedDate: "2027-01-10T00:01:35Z", expirationIntent: 1),
      status: 2),
  ]
  static let resubscribeAndExpireLines = [
    #"{"at":"2026-01-10T00:00:00Z","country":"US","currency":"USD","expires":"2027-01-10T00:00:00Z","id":"appstore:2005:purchase","meta":{"environment":"Production","source":"appstore"},"offer":"win_back","original_transaction":"2001","ownership":"purchased","price":49990,"product":"pro.annual","recorded":"2026-01-10T00:00:02Z","store":"appstore","subject":"user-42","transaction":"2005","type":"purchase"}"#,
    #"{"at":"2026-06-01T12:00:00Z","auto_renew":false,"id":"appstore:c0ffee00-0000-4000-8000-000000000202:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_STATUS","source":"appstore","subtype":"AUTO_RENEW_DISABLED"},"original_transaction":"2001","subject":"user-42","type":"auto_renew_changed"}"#,
    #"{"at":"2027-01-10T00:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000203:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"VOLUNTARY"},"original_transaction":"2001","reason":"voluntary","recorded":"2027-01-10T00:01:35Z","subject":"user-42","type":"expiration"}"#,
  ]

  @Test("resubscribe, auto-renew off and voluntary expiry end at the period end, not at arrival")
  func resubscribeAutoRenewOffExpired() throws {
    let input = Self.resubscribeAndExpire.map(\.signedBody).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input, subjects: ["2001": "user-42"]))
    #expect(result.eventLines == Self.resubscribeAndExpireLines)
    #expect(result.duplicateCount == 2)
  }

  // MARK: - Upgrade, downgrade, downgrade cancelled, expired

  static let u3 = "a1b2c3d4-0000-4000-8000-000000000003"
  static let t3001 = AppleTransaction(
    transactionId: "3001", originalTransactionId: "3001", productId: "plus.monthly",
    purchaseDate: "2026-03-01T00:00:00Z", expiresDate: "2026-04-01T00:00:00Z",
    signedDate: "2026-03-01T00:00:01Z", subscriptionGroupIdentifier: "tiers", appAccountToken: u3,
    price: 4990)
  static let t3002 = AppleTransaction(
    transactionId: "3002", originalTransactionId: "3001", productId: "premium.monthly",
    purchaseDate: "2026-03-10T12:00:00Z", expiresDate: "2026-04-10T12:00:00Z",
    signedDate: "2026-03-10T12:00:01Z", subscriptionGroupIdentifier: "tiers", appAccountToken: u3)
  static func renewal3(_ next: String, status: Int64 = 1, at date: String) -> AppleRenewalInfo {
    AppleRenewalInfo(
      originalTransactionId: "3001", productId: "premium.monthly", autoRenewProductId: next,
      autoRenewStatus: status, signedDate: date)
  }
  static let upgradeDowngrade: [AppleNotification] = [
    AppleNotification(
      notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000301", signedDate: "2026-03-01T00:00:01Z",
      transaction: t3001),
    AppleNotification(
      notificationType: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000302", signedDate: "2026-03-10T12:00:01Z",
      transaction: t3002, renewalInfo: renewal3("premium.monthly", at: "2026-03-10T12:00:01Z")),
    AppleNotification(
      notificationType: "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000303", signedDate: "2026-03-15T08:00:00Z",
      transaction: t3002.signed(at: "2026-03-15T08:00:00Z"),
      renewalInfo: renewal3("plus.monthly", at: "2026-03-15T08:00:00Z")),
    AppleNotification(
      notificationType: "DID_CHANGE_RENEWAL_PREF",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000304", signedDate: "2026-03-20T08:00:00Z",
      transaction: t3002.signed(at: "2026-03-20T08:00:00Z"),
      renewalInfo: renewal3("premium.monthly", at: "2026-03-20T08:00:00Z")),
    AppleNotification(
      notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000305", signedDate: "2026-03-25T08:00:00Z",
      transaction: t3002.signed(at: "2026-03-25T08:00:00Z"),
      renewalInfo: renewal3("premium.monthly", status: 0, at: "2026-03-25T08:00:00Z")),
    AppleNotification(
      notificationType: "EXPIRED", subtype: "VOLUNTARY",
      notificationUUID: "c0ffee00-0000-4000-8000-000000000306", signedDate: "2026-04-10T12:00:15Z",
      transaction: t3002.signed(at: "2026-04-10T12:00:15Z"),
      renewalInfo: renewal3("premium.monthly", status: 0, at: "2026-04-10T12:00:15Z"), status: 2),
  ]
  static let upgradeDowngradeLines = [
    #"{"at":"2026-03-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-04-01T00:00:00Z","id":"appstore:3001:purchase","meta":{"environment":"Production","source":"appstore"},"original_transaction":"3001","ownership":"purchased","price":4990,"product":"plus.monthly","recorded":"2026-03-01T00:00:01Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000003","transaction":"3001","type":"purchase"}"#,
    #"{"at":"2026-03-10T12:00:00Z","country":"US","currency":"USD","expires":"2026-04-10T12:00:00Z","id":"appstore:3002:purchase","meta":{"environment":"Production","source":"appstore"},"original_transaction":"3001","ownership":"purchased","price":9990,"product":"premium.monthly","recorded":"2026-03-10T12:00:01Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000003","transaction":"3002","type":"purchase"}"#,
    #"{"at":"2026-03-15T08:00:00Z","auto_renew":true,"id":"appstore:c0ffee00-0000-4000-8000-000000000303:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_PREF","source":"appstore","subtype":"DOWNGRADE"},"original_transaction":"3001","subject":"a1b2c3d4-0000-4000-8000-000000000003","type":"auto_renew_changed"}"#,
    #"{"at":"2026-03-15T08:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000303:plan_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_PREF","source":"appstore","subtype":"DOWNGRADE"},"original_transaction":"3001","product":"plus.monthly","subject":"a1b2c3d4-0000-4000-8000-000000000003","type":"plan_changed"}"#,
    #"{"at":"2026-03-20T08:00:00Z","auto_renew":true,"id":"appstore:c0ffee00-0000-4000-8000-000000000304:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_PREF","source":"appstore"},"original_transaction":"3001","subject":"a1b2c3d4-0000-4000-8000-000000000003","type":"auto_renew_changed"}"#,
    #"{"at":"2026-03-20T08:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000304:plan_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_PREF","source":"appstore"},"original_transaction":"3001","product":"premium.monthly","subject":"a1b2c3d4-0000-4000-8000-000000000003","type":"plan_changed"}"#,
    #"{"at":"2026-03-25T08:00:00Z","auto_renew":false,"id":"appstore:c0ffee00-0000-4000-8000-000000000305:auto_renew_changed","meta":{"environment":"Production","notificationType":"DID_CHANGE_RENEWAL_STATUS","source":"appstore","subtype":"AUTO_RENEW_DISABLED"},"original_transaction":"3001","subject":"a1b2c3d4-0000-4000-8000-000000000003","type":"auto_renew_changed"}"#,
    #"{"at":"2026-04-10T12:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000306:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"VOLUNTARY"},"original_transaction":"3001","reason":"voluntary","recorded":"2026-04-10T12:00:15Z","subject":"a1b2c3d4-0000-4000-8000-000000000003","type":"expiration"}"#,
  ]

  @Test("an upgrade is a purchase at once; a downgrade and its cancellation are plan changes")
  func upgradeDowngradeCancelExpire() throws {
    let input = Self.upgradeDowngrade.map(\.decoded).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == Self.upgradeDowngradeLines)
    #expect(result.warnings.isEmpty)
  }

  @Test("a downgrade takes effect with the renewal into the lower product")
  func downgradeAtRenewal() throws {
    let t3102 = AppleTransaction(
      transactionId: "3102", originalTransactionId: "3001", productId: "plus.monthly",
      purchaseDate: "2026-04-10T12:00:00Z", expiresDate: "2026-05-10T12:00:00Z",
      signedDate: "2026-04-10T11:59:58Z", subscriptionGroupIdentifier: "tiers",
      transactionReason: "RENEWAL", appAccountToken: Self.u3, price: 4990)
    let renewed = AppleNotification(
      notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000307",
      signedDate: "2026-04-10T11:59:58Z", transaction: t3102,
      renewalInfo: Self.renewal3("plus.monthly", at: "2026-04-10T11:59:58Z"))
    let input = Self.upgradeDowngrade[0...2].map(\.decoded) + [renewed.decoded]
    let result = try #require(ImportFixtures.importEvents(input.joined(separator: "\n")))
    #expect(
      result.eventLines == Array(Self.upgradeDowngradeLines[0...3]) + [
        #"{"at":"2026-04-10T12:00:00Z","country":"US","currency":"USD","expires":"2026-05-10T12:00:00Z","id":"appstore:3102:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"3001","price":4990,"product":"plus.monthly","recorded":"2026-04-10T11:59:58Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000003","transaction":"3102","type":"renewal"}"#
      ])
  }

  // MARK: - Refund of an older, finished period

  static let u4 = "a1b2c3d4-0000-4000-8000-000000000004"
  static func t400(_ n: Int, _ from: String, _ to: String) -> AppleTransaction {
    period(n, of: "400", from, to, account: u4)
  }

  /// Period `n` of a monthly subscription whose transactions are `prefix` + n (the first is the original).
  static func period(_ n: Int, of prefix: String, _ from: String, _ to: String, account: String) -> AppleTransaction {
    AppleTransaction(
      transactionId: "\(prefix)\(n)", originalTransactionId: "\(prefix)1", productId: "pro.monthly",
      purchaseDate: from, expiresDate: to, signedDate: from,
      transactionReason: n == 1 ? "PURCHASE" : "RENEWAL", appAccountToken: account)
  }
  static let refundOfOlderPeriod: [AppleNotification] = {
    let first = t400(1, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")
    let refunded = first.refunded(signedAt: "2026-03-15T09:30:00Z", revokedAt: "2026-03-15T09:29:00Z", reason: 1)
    let current = AppleRenewalInfo(
      originalTransactionId: "4001", productId: "pro.monthly", autoRenewProductId: "pro.monthly",
      signedDate: "2026-03-12T00:00:00Z")
    return [
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000401",
        signedDate: "2026-01-01T00:00:00Z", transaction: first),
      AppleNotification(
        notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000402",
        signedDate: "2026-02-01T00:00:00Z",
        transaction: t400(2, "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z")),
      AppleNotification(
        notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000403",
        signedDate: "2026-03-01T00:00:00Z",
        transaction: t400(3, "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")),
      AppleNotification(
        notificationType: "CONSUMPTION_REQUEST",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000404",
        signedDate: "2026-03-12T00:00:00Z", transaction: first.signed(at: "2026-03-12T00:00:00Z"),
        renewalInfo: current),
      AppleNotification(
        notificationType: "REFUND", notificationUUID: "c0ffee00-0000-4000-8000-000000000405",
        signedDate: "2026-03-15T09:30:00Z", transaction: refunded, renewalInfo: current),
    ]
  }()
  static let refundOfOlderPeriodLines = [
    #"{"at":"2026-01-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-02-01T00:00:00Z","id":"appstore:4001:purchase","meta":{"environment":"Production","source":"appstore"},"original_transaction":"4001","ownership":"purchased","price":9990,"product":"pro.monthly","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000004","transaction":"4001","type":"purchase"}"#,
    #"{"at":"2026-02-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-03-01T00:00:00Z","id":"appstore:4002:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"4001","price":9990,"product":"pro.monthly","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000004","transaction":"4002","type":"renewal"}"#,
    #"{"at":"2026-03-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-04-01T00:00:00Z","id":"appstore:4003:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"4001","price":9990,"product":"pro.monthly","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000004","transaction":"4003","type":"renewal"}"#,
    #"{"at":"2026-03-12T00:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000404:refund_requested","meta":{"environment":"Production","notificationType":"CONSUMPTION_REQUEST","source":"appstore"},"respond_by":"2026-03-12T12:00:00Z","subject":"a1b2c3d4-0000-4000-8000-000000000004","transaction":"4001","type":"refund_requested"}"#,
    #"{"at":"2026-03-15T09:29:00Z","id":"appstore:4001:revocation","meta":{"environment":"Production","revocationReason":1,"revocationType":"REFUND_FULL","source":"appstore"},"reason":"refund","recorded":"2026-03-15T09:30:00Z","subject":"a1b2c3d4-0000-4000-8000-000000000004","transaction":"4001","type":"revocation"}"#,
  ]

  @Test("a refund of an older, finished period revokes that transaction only")
  func refundOfOlderPeriod() throws {
    let input = Self.refundOfOlderPeriod.map(\.signedBody).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == Self.refundOfOlderPeriodLines)
    #expect(result.skipped.isEmpty)
  }

  // MARK: - Billing retry, expiry, then a refund and its reversal

  static let u6 = "a1b2c3d4-0000-4000-8000-000000000006"
  static func t600(_ n: Int, _ from: String, _ to: String) -> AppleTransaction {
    period(n, of: "600", from, to, account: u6)
  }
  static let retryExpiryRefundReversed: [AppleNotification] = {
    let renewed = t600(2, "2026-07-01T00:00:00Z", "2026-08-01T00:00:00Z")
    let refunded = renewed.refunded(signedAt: "2026-08-25T12:00:00Z", revokedAt: "2026-08-25T11:59:00Z", reason: 0)
    let failing = AppleRenewalInfo(
      originalTransactionId: "6001", productId: "pro.monthly", autoRenewProductId: "pro.monthly",
      signedDate: "2026-08-01T00:00:07Z")
    return [
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000601",
        signedDate: "2026-06-01T00:00:01Z", transaction: t600(1, "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z")),
      AppleNotification(
        notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000602",
        signedDate: "2026-07-01T00:00:02Z", transaction: renewed),
      AppleNotification(
        notificationType: "DID_FAIL_TO_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000603",
        signedDate: "2026-08-01T00:00:07Z", transaction: renewed.signed(at: "2026-08-01T00:00:07Z"),
        renewalInfo: failing, status: 3),
      AppleNotification(
        notificationType: "EXPIRED", subtype: "BILLING_RETRY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000604",
        signedDate: "2026-08-20T00:00:00Z", transaction: renewed.signed(at: "2026-08-20T00:00:00Z"),
        renewalInfo: failing, status: 2),
      AppleNotification(
        notificationType: "REFUND", notificationUUID: "c0ffee00-0000-4000-8000-000000000605",
        signedDate: "2026-08-25T12:00:00Z", transaction: refunded, status: 2),
      AppleNotification(
        notificationType: "REFUND_REVERSED", notificationUUID: "c0ffee00-0000-4000-8000-000000000606",
        signedDate: "2026-09-02T08:00:00Z", transaction: renewed.signed(at: "2026-09-02T08:00:00Z"), status: 2),
    ]
  }()

  static let retryExpiryRefundReversedLines = [
    #"{"at":"2026-06-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-07-01T00:00:00Z","id":"appstore:6001:purchase","meta":{"environment":"Production","source":"appstore"},"original_transaction":"6001","ownership":"purchased","price":9990,"product":"pro.monthly","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000006","transaction":"6001","type":"purchase"}"#,
    #"{"at":"2026-07-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-08-01T00:00:00Z","id":"appstore:6002:renewal","meta":{"environment":"Production","source":"appstore"},"original_transaction":"6001","price":9990,"product":"pro.monthly","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000006","transaction":"6002","type":"renewal"}"#,
    #"{"at":"2026-08-01T00:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000603:billing_retry","meta":{"environment":"Production","notificationType":"DID_FAIL_TO_RENEW","source":"appstore"},"original_transaction":"6001","recorded":"2026-08-01T00:00:07Z","subject":"a1b2c3d4-0000-4000-8000-000000000006","type":"billing_retry"}"#,
    #"{"at":"2026-08-20T00:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000604:expiration","meta":{"environment":"Production","notificationType":"EXPIRED","source":"appstore","subtype":"BILLING_RETRY"},"original_transaction":"6001","reason":"billing","subject":"a1b2c3d4-0000-4000-8000-000000000006","type":"expiration"}"#,
    #"{"at":"2026-08-25T11:59:00Z","id":"appstore:6002:revocation","meta":{"environment":"Production","revocationReason":0,"revocationType":"REFUND_FULL","source":"appstore"},"reason":"refund","recorded":"2026-08-25T12:00:00Z","subject":"a1b2c3d4-0000-4000-8000-000000000006","transaction":"6002","type":"revocation"}"#,
    #"{"at":"2026-09-02T08:00:00Z","id":"appstore:c0ffee00-0000-4000-8000-000000000606:refund_reversed","meta":{"environment":"Production","notificationType":"REFUND_REVERSED","source":"appstore"},"subject":"a1b2c3d4-0000-4000-8000-000000000006","transaction":"6002","type":"refund_reversed"}"#,
  ]

  @Test("billing retry at the period end, expiry when Apple gives up, a refund and its reversal: each at its own instant")
  func retryExpiryRefundReversed() throws {
    let input = Self.retryExpiryRefundReversed.map(\.signedBody).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input))
    #expect(result.eventLines == Self.retryExpiryRefundReversedLines)
    var engine = QueryEngine(ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: ImportFixtures.catalogText))
    let pro = { (at: String, asOf: String?) in engine.checkedAnswer(Self.u6, at: at, asOf: asOf).entitlements.keys.sorted() }
    #expect(pro("2026-07-31T23:59:59.999Z", nil) == ["pro"])
    // In billing retry without grace, access stops at the period end; as known just before the
    // failure was signed, the period was still expected to renew.
    #expect(pro("2026-08-01T00:00:00Z", nil) == [])
    #expect(engine.checkedAnswer(Self.u6, at: "2026-08-10T00:00:00Z").plans.byName.first?.value.state == .billingRetry)
    #expect(engine.checkedAnswer(Self.u6, at: "2026-08-21T00:00:00Z").plans.byName.first?.value.state == .expired)
    // The refund of the expired period and its reversal change no access after the expiry.
    #expect(pro("2026-09-03T00:00:00Z", nil) == [])
  }

  // MARK: - Family sharing

  static let familySharing: [AppleNotification] = {
    let owner = AppleTransaction(
      transactionId: "5001", originalTransactionId: "5001", productId: "pro.monthly",
      purchaseDate: "2026-05-01T00:00:00Z", expiresDate: "2026-06-01T00:00:00Z",
      signedDate: "2026-05-01T00:00:01Z", appAccountToken: "a1b2c3d4-0000-4000-8000-000000000005")
    let member = AppleTransaction(
      transactionId: "5101", originalTransactionId: "5101", productId: "pro.monthly",
      purchaseDate: "2026-05-01T00:00:05Z", expiresDate: "2026-06-01T00:00:00Z",
      signedDate: "2026-05-01T00:00:06Z", inAppOwnershipType: "FAMILY_SHARED")
    var revoked = member.signed(at: "2026-05-20T00:00:03Z")
    revoked.revocationDate = "2026-05-20T00:00:00Z"
    revoked.revocationReason = 0
    revoked.revocationType = "FAMILY_REVOKE"
    let lifetime = AppleTransaction(
      transactionId: "5102", originalTransactionId: "5102", productId: "pro.lifetime",
      purchaseDate: "2026-05-02T00:00:00Z", signedDate: "2026-05-02T00:00:00Z",
      type: "Non-Consumable", inAppOwnershipType: "FAMILY_SHARED", price: 99990)
    var lifetimeRevoked = lifetime.signed(at: "2026-05-20T00:00:04Z")
    lifetimeRevoked.revocationDate = "2026-05-20T00:00:00Z"
    lifetimeRevoked.revocationReason = 0
    return [
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000501",
        signedDate: "2026-05-01T00:00:01Z", transaction: owner),
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000502",
        signedDate: "2026-05-01T00:00:06Z", transaction: member),
      AppleNotification(
        notificationType: "ONE_TIME_CHARGE",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000503",
        signedDate: "2026-05-02T00:00:00Z", transaction: lifetime),
      AppleNotification(
        notificationType: "REVOKE", notificationUUID: "c0ffee00-0000-4000-8000-000000000504",
        signedDate: "2026-05-20T00:00:03Z", transaction: revoked, status: 5),
      AppleNotification(
        notificationType: "REVOKE", notificationUUID: "c0ffee00-0000-4000-8000-000000000505",
        signedDate: "2026-05-20T00:00:04Z", transaction: lifetimeRevoked),
    ]
  }()
  static let familySharingLines = [
    #"{"at":"2026-05-01T00:00:00Z","country":"US","currency":"USD","expires":"2026-06-01T00:00:00Z","id":"appstore:5001:purchase","meta":{"environment":"Production","source":"appstore"},"original_transaction":"5001","ownership":"purchased","price":9990,"product":"pro.monthly","recorded":"2026-05-01T00:00:01Z","store":"appstore","subject":"a1b2c3d4-0000-4000-8000-000000000005","transaction":"5001","type":"purchase"}"#,
    #"{"at":"2026-05-01T00:00:05Z","country":"US","currency":"USD","expires":"2026-06-01T00:00:00Z","id":"appstore:5101:purchase","meta":{"environment":"Production","source":"appstore"},"original_transaction":"5101","ownership":"family_shared","price":9990,"product":"pro.monthly","recorded":"2026-05-01T00:00:06Z","store":"appstore","subject":"member-7","transaction":"5101","type":"purchase"}"#,
    #"{"at":"2026-05-02T00:00:00Z","country":"US","currency":"USD","id":"appstore:5102:purchase","meta":{"environment":"Production","source":"appstore"},"ownership":"family_shared","price":99990,"product":"pro.lifetime","store":"appstore","subject":"appstore:app-transaction:704","transaction":"5102","type":"purchase"}"#,
    #"{"at":"2026-05-20T00:00:00Z","id":"appstore:5101:revocation","meta":{"environment":"Production","revocationReason":0,"revocationType":"FAMILY_REVOKE","source":"appstore"},"reason":"family_revoked","recorded":"2026-05-20T00:00:03Z","subject":"member-7","transaction":"5101","type":"revocation"}"#,
    #"{"at":"2026-05-20T00:00:00Z","id":"appstore:5102:revocation","meta":{"environment":"Production","revocationReason":0,"source":"appstore"},"reason":"family_revoked","recorded":"2026-05-20T00:00:04Z","subject":"appstore:app-transaction:704","transaction":"5102","type":"revocation"}"#,
  ]

  @Test("family members get their own purchases, and REVOKE takes the family member's access")
  func familySharingRevoke() throws {
    let input = Self.familySharing.map(\.decoded).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input, subjects: ["5101": "member-7"]))
    #expect(result.eventLines == Self.familySharingLines)
    #expect(result.warnings.isEmpty)
  }

  // MARK: - Order independence

  /// Every lifecycle above, with its expected lines and subjects.
  static var allNotifications: [AppleNotification] {
    renewalsAndGrace + resubscribeAndExpire + upgradeDowngrade + refundOfOlderPeriod
      + familySharing + retryExpiryRefundReversed
  }
  static let allSubjects = ["2001": "user-42", "5101": "member-7"]

  /// Fixed seeds, plus `STORELEDGER_IMPORT_SEED` when set, to replay a failure.
  static let seeds: [UInt64] = {
    var seeds: [UInt64] = [1, 2, 3, 42, 2026, 0xDEAD_BEEF]
    if let text = ProcessInfo.processInfo.environment["STORELEDGER_IMPORT_SEED"],
      let seed = UInt64(text)
    {
      seeds.append(seed)
    }
    return seeds
  }()

  @Test(
    "the same notifications shuffled and duplicated give identical lines and summary",
    arguments: seeds)
  func orderIndependence(seed: UInt64) throws {
    testLog("order independence: seed \(seed) (replay with STORELEDGER_IMPORT_SEED=\(seed))")
    let reference = try #require(
      ImportFixtures.importEvents(
        Self.allNotifications.map(\.decoded).joined(separator: "\n"), subjects: Self.allSubjects))
    var generator = SplitMix64(state: seed)
    var documents: [String] = []
    for notification in Self.allNotifications {
      // Each notification appears once to three times, in either of Apple's two forms,
      // as a retry does.
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        documents.append(
          Bool.random(using: &generator) ? notification.decoded : notification.signedBody)
      }
    }
    documents.shuffle(using: &generator)
    // Half the time as a JSON array instead of JSON Lines.
    let input =
      Bool.random(using: &generator)
      ? "[\n" + documents.joined(separator: ",\n") + "\n]" : documents.joined(separator: "\n")
    let shuffled = try #require(ImportFixtures.importEvents(input, subjects: Self.allSubjects))
    #expect(shuffled.eventLines == reference.eventLines, "seed \(seed)")
    #expect(shuffled.skipped == reference.skipped, "seed \(seed)")
    #expect(shuffled.environments == reference.environments, "seed \(seed)")
    let expectedLines =
      Self.renewalsAndGraceLines + Self.resubscribeAndExpireLines + Self.upgradeDowngradeLines
      + Self.refundOfOlderPeriodLines + Self.familySharingLines + Self.retryExpiryRefundReversedLines
    #expect(Set(reference.eventLines) == Set(expectedLines))
    #expect(reference.eventLines.count == expectedLines.count)
  }

  @Test("importing the same data twice gives the same lines as importing it once")
  func reimportAddsNothing() throws {
    let once = Self.allNotifications.map(\.signedBody).joined(separator: "\n")
    let first = try #require(ImportFixtures.importEvents(once, subjects: Self.allSubjects))
    let second = try #require(
      ImportFixtures.importEvents(once + "\n" + once, subjects: Self.allSubjects))
    #expect(first.eventLines == second.eventLines)
    // Every event now has twice as many copies: k copies became 2k, so k more duplicates.
    #expect(second.duplicateCount == 2 * first.duplicateCount + first.eventLines.count)
  }
}

extension AppleTransaction {
  /// This transaction as a REFUND notification carries it: signed at `signed`, fully refunded at `revoked`.
  func refunded(signedAt signed: String, revokedAt revoked: String, reason: Int64) -> AppleTransaction {
    var copy = self.signed(at: signed)
    copy.revocationDate = revoked
    copy.revocationReason = reason
    copy.revocationType = "REFUND_FULL"
    return copy
  }
}
