import StoreLedgerCore

extension PeriodCharge {
  /// Whether `renewal`, charging `price`, raises this charge (its subscription's previous one):
  /// both of the same product at the regular price (no offer), both priced in one currency,
  /// the renewal's price higher (Docs/reports.md, `price_increases_accepted`). An offer ending,
  /// a plan change or a change of currency is not a price increase.
  func isRaised(by renewal: Event, price: EventDetails) -> Bool {
    hasPrice && isRegular && product == renewal.product && renewal.offer == .normal && price.hasPrice
      && Int(price.priceCurrency.rawValue) == currency && price.price > self.price
  }
}
