import Foundation

/// Subscription 8001 and the two account tokens it moves between, for the App Store identity
/// tests in process and on the command line.
package protocol AppStoreIdentityFixture {}

extension AppStoreIdentityFixture {
  /// The account tokens (`appAccountToken`) the subscription moves between.
  package static var a: String { "a1b2c3d4-0000-4000-8000-0000000000aa" }
  package static var b: String { "a1b2c3d4-0000-4000-8000-0000000000bb" }

  /// Period `n` (1-based, monthly from January 2026) of subscription 8001, signed at its start.
  package static func period(_ n: Int, token: String?) -> AppleTransaction {
    let from = String(format: "2026-%02d-01T00:00:00Z", n)
    let to = String(format: "2026-%02d-01T00:00:00Z", n + 1)
    return AppleTransaction(
      transactionId: "800\(n)", originalTransactionId: "8001", productId: "pro.monthly",
      purchaseDate: from, expiresDate: to, signedDate: from,
      transactionReason: n == 1 ? "PURCHASE" : "RENEWAL", appAccountToken: token)
  }
}
