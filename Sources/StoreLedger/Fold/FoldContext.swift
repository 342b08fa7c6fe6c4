/// What the fold needs besides events: the catalog and each consumable's currency symbol.
public struct FoldContext: Sendable {
  /// The product catalog.
  public let catalog: Catalog
  /// The currency symbol credited by each product (`.none` for non-consumables).
  public let productCurrencies: [Symbol]

  /// Interns every consumable currency of the catalog into `symbols.currencies`.
  public init(catalog: Catalog, symbols: inout LedgerSymbols) {
    self.catalog = catalog
    productCurrencies = catalog.products.map { product in
      product.kind == .consumable ? symbols.currencies.intern(product.currency) : .none
    }
  }
}

/// What applying one event did, so that `check` can warn about events that change nothing.
public enum FoldEffect: Sendable, Equatable {
  /// The event changed the state (or is kept only for reports, like `purchase_pending`).
  case applied
  /// It names a subscription the subject has no purchase or renewal for at that point.
  case unknownReference
  /// The subscription's state (`expired`, `revoked`) ignores this event type.
  case ignoredInState(SubscriptionStatus)
  /// It targets a transaction that is not the current one, or is already in that state.
  case noChange
}

/// Adds without trapping: balances saturate instead of crashing on absurd input.
@inline(__always)
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
}
