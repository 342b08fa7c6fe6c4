/// Subscription 1001 bought, renewed, in grace and recovered, for the App Store importer's tests in
/// process and on the command line.
package protocol AppStoreRenewalsAndGrace {}

extension AppStoreRenewalsAndGrace {
  package static var u1: String {
    "a1b2c3d4-0000-4000-8000-000000000001"
  }

  package static var t1001: AppleTransaction {
    AppleTransaction(
      transactionId: "1001", originalTransactionId: "1001", productId: "pro.monthly",
      purchaseDate: "2026-01-01T10:00:00Z", expiresDate: "2026-02-01T10:00:00Z",
      signedDate: "2026-01-01T10:00:01Z", appAccountToken: u1, price: 0, offerType: 1,
      offerDiscountType: "FREE_TRIAL")
  }

  package static var t1002: AppleTransaction {
    AppleTransaction(
      transactionId: "1002", originalTransactionId: "1001", productId: "pro.monthly",
      purchaseDate: "2026-02-01T10:00:00Z", expiresDate: "2026-03-01T10:00:00Z",
      signedDate: "2026-02-01T09:59:50Z", transactionReason: "RENEWAL", appAccountToken: u1)
  }

  package static var t1003: AppleTransaction {
    AppleTransaction(
      transactionId: "1003", originalTransactionId: "1001", productId: "pro.monthly",
      purchaseDate: "2026-03-01T10:00:00Z", expiresDate: "2026-04-01T10:00:00Z",
      signedDate: "2026-03-01T09:59:50Z", transactionReason: "RENEWAL", appAccountToken: u1)
  }

  package static var t1004: AppleTransaction {
    AppleTransaction(
      transactionId: "1004", originalTransactionId: "1001", productId: "pro.monthly",
      purchaseDate: "2026-04-05T08:00:00Z", expiresDate: "2026-05-05T08:00:00Z",
      signedDate: "2026-04-05T08:00:02Z", transactionReason: "RENEWAL", appAccountToken: u1)
  }

  package static var renewalsAndGrace: [AppleNotification] {
    [
      AppleNotification(
        notificationType: "SUBSCRIBED", subtype: "INITIAL_BUY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000101", signedDate: "2026-01-01T10:00:01Z",
        transaction: t1001),
      AppleNotification(
        notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000102",
        signedDate: "2026-02-01T09:59:50Z", transaction: t1002),
      AppleNotification(
        notificationType: "DID_RENEW", notificationUUID: "c0ffee00-0000-4000-8000-000000000103",
        signedDate: "2026-03-01T09:59:50Z", transaction: t1003),
      AppleNotification(
        notificationType: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000104", signedDate: "2026-04-01T10:00:05Z",
        transaction: t1003.signed(at: "2026-04-01T10:00:05Z"),
        renewalInfo: AppleRenewalInfo(
          originalTransactionId: "1001", productId: "pro.monthly", autoRenewProductId: "pro.monthly",
          signedDate: "2026-04-01T10:00:05Z", gracePeriodExpiresDate: "2026-04-17T10:00:00Z"),
        status: 4),
      AppleNotification(
        notificationType: "DID_RENEW", subtype: "BILLING_RECOVERY",
        notificationUUID: "c0ffee00-0000-4000-8000-000000000105", signedDate: "2026-04-05T08:00:02Z",
        transaction: t1004),
    ]
  }
}
