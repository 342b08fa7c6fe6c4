/// A grant of a non-renewing or non-consumable product, or a consumable credit.
public struct ItemState: Sendable, Equatable {
  /// Whether its purchase has been applied.
  public var isApplied = false
  /// Whether it is currently revoked.
  public var isRevoked = false
  /// Grant start (the purchase's `at`).
  public var start = Timestamp.distantPast
  /// Grant end (exclusive); `distantFuture` for ever.
  public var end = Timestamp.distantFuture
  /// Units credited (consumables).
  public var credited: Int64 = 0
  /// The product bought.
  public var product: ProductIndex = .none
  /// Who owns it.
  public var ownership: Ownership = .purchased
  /// The offer of the purchase.
  public var offer: Offer = .normal
  /// The purchase's line.
  public var line: UInt32 = 0

  /// Whether the grant gives access at T (half-open `[start, end)`).
  public func hasAccess(at time: Timestamp) -> Bool {
    isApplied && !isRevoked && start <= time && time < end
  }
}
