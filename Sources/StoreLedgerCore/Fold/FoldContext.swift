/// What the fold needs besides events: the catalog and each consumable's currency symbol.
package struct FoldContext: Sendable {
  /// The product catalog.
  package let catalog: Catalog
  /// The currency symbol credited by each product (`.none` for non-consumables).
  package let productCurrencies: [Symbol]

  /// Interns every consumable currency of the catalog into `symbols.currencies`.
  package init(catalog: Catalog, symbols: inout LedgerSymbols) {
    self.catalog = catalog
    productCurrencies = catalog.products.map { product in
      product.kind == .consumable ? symbols.currencies.intern(product.currency) : .none
    }
  }
}

/// Adds without trapping. A ledger built from a log never needs it (the rules keep every
/// balance within `Limits.balanceMovementMax`); it only keeps a crafted snapshot from trapping.
@inline(__always)
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
}
