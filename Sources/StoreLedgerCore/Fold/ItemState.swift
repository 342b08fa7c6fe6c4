/// A grant of a non-renewing or non-consumable product, or a consumable credit.
package struct ItemState: Sendable, Equatable {
  /// Whether its purchase has been applied.
  package var isApplied = false
  /// Whether it is currently revoked.
  package var isRevoked = false
  /// Grant start (the purchase's `at`).
  package var start = Timestamp.distantPast
  /// Grant end (exclusive); `distantFuture` for ever.
  package var end = Timestamp.distantFuture
  /// Units credited (consumables).
  package var credited: Int64 = 0
  /// Units the revocation in force debited (all of `credited`, or its packs' share): what its
  /// `refund_reversed` credits back (contract v1.3, section 11).
  package var debited: Int64 = 0
  /// The product bought.
  package var product: ProductIndex = .none
  /// Who owns it.
  package var ownership: Ownership = .purchased
  /// The offer of the purchase.
  package var offer: Offer = .normal
  /// The purchase's line.
  package var line: UInt32 = 0

  /// Whether the grant gives access at T (half-open `[start, end)`).
  package func hasAccess(at time: Timestamp) -> Bool {
    isApplied && !isRevoked && start <= time && time < end
  }
}
