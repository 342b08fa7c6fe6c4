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
  /// A support `grant` (contract v1.3, section 10) rather than a purchase: it gives
  /// `entitlementMask`'s entitlements, not its product's.
  package var isGrant = false
  /// A grant's entitlements, one bit per catalog entitlement id.
  package var entitlementMask: UInt64 = 0
  /// From when a `grant_revoked` ends the grant (`distantFuture`: never); at or before `start`,
  /// the grant never gave anything. Set even before the grant applies (a revocation may be
  /// effective first).
  package var revokedFrom = Timestamp.distantFuture

  /// Whether the grant gives access at T (half-open `[start, end)`).
  package func hasAccess(at time: Timestamp) -> Bool {
    isApplied && !isRevoked && start <= time && time < end && time < revokedFrom
  }

  /// Whether it gives the entitlement with catalog index `entitlement` (any time).
  package func gives(_ entitlement: Int, catalog: Catalog) -> Bool {
    if isGrant { return entitlement < 64 && entitlementMask & (1 << UInt64(entitlement)) != 0 }
    return catalog.entitlementIndices[Int(product.rawValue)].contains(entitlement)
  }
}
