/// The rates of contract v1.3's stories (`GeneratorOptions.contract`), in parts per million.
///
/// Chosen to resemble a support team and the stores at a mid-sized app: a few percent of
/// customers get a grant, about one in seventy is blocked by some service for a while, most
/// refunds are asked for first, and about one refund request in three is declined.
enum Contract13Rates {
  // Per household.
  static let supportGrant: UInt64 = 40_000
  static let block: UInt64 = 15_000
  static let googlePlay: UInt64 = 150_000
  static let smallBusiness: UInt64 = 300_000

  // Per grant and per block.
  static let grantRevoked: UInt64 = 200_000
  /// Of the revoked grants: revoked at the grant's own instant (it never gave anything).
  static let grantRevokedAtOnce: UInt64 = 100_000
  static let blockAgain: UInt64 = 100_000
  static let unblock: UInt64 = 750_000

  // Refunds: a request before most refunds; requests declined per paid period or purchase.
  static let requestBeforeRefund: UInt64 = 600_000
  static let declinedRequest: UInt64 = 6_000
  static let respondByWritten: UInt64 = 700_000
  /// Of the subscription refunds with a price: the unused part of the period only.
  static let proratedRefund: UInt64 = 500_000
  /// Of the refunds of several coin packs: some of the packs only.
  static let partialPackRefund: UInt64 = 500_000

  // Transfers (with `GeneratorOptions.transfers`): per period of a solo subscription while
  // with its buyer, per period while away, per lifetime unlock or pass, and back again.
  static let transferSubscription: UInt64 = 6_000
  static let transferSubscriptionBack: UInt64 = 100_000
  static let transferPurchase: UInt64 = 50_000
  static let transferPurchaseBack: UInt64 = 300_000
}
