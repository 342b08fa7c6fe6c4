import StoreLedgerCore

/// A Google Play `Order` (an `orders.get` response, or one element of `orders.batchget`'s
/// `orders`): what the buyer paid for one order, its tax, and what Google pays the developer.
///
/// Google's resources say what a subscription costs now (`recurringPrice`, without discounts
/// and, for tax-exclusive pricing, without taxes); an order says what it charged. So an order
/// document, when the import has one, is the price, tax and proceeds source of the charge
/// of the same order id (Docs/import-googleplay.md, "Prices").
struct GooglePlayOrderPayload {
  /// An amount in thousandths of its currency (`Money`).
  typealias Amount = (thousandths: Int64, currency: String)

  /// One `lineItems` element: a product of the order and its own amounts.
  struct Item {
    /// `productId`.
    var productID: String
    /// `total`: what the buyer paid for this item, taxes included.
    var total: Amount?
    /// `tax`.
    var tax: Amount?
  }

  /// Input line of the document.
  var line: Int
  /// Where it sits, e.g. `orders[1]` (empty at top level).
  var path: String
  /// `orderId`: the charge's transaction (renewals `…..N`).
  var orderID: String
  /// `purchaseToken`.
  var token: String
  /// `state` raw (`PROCESSED`, `PENDING`, `CANCELED`, `PENDING_REFUND`, `PARTIALLY_REFUNDED`,
  /// `REFUNDED`).
  var state: String?
  /// `total`: what the buyer paid, taxes included.
  var total: Amount?
  /// `tax`.
  var tax: Amount?
  /// `developerRevenueInBuyerCurrency`: what Google pays the developer, in the buyer's currency.
  var proceeds: Amount?
  /// `buyerAddress.buyerCountry`: the buyer's ISO 3166-1 alpha-2 country.
  var country: String?
  /// `lineItems`.
  var items: [Item]
  /// The stored wrapper's `fetchTime`; nil when absent.
  var knownAt: Timestamp?

  /// The amounts that price a charge of `productID`: the item's own for an order of several
  /// items, else the order's; proceeds only where the order states them for that charge
  /// (one item) in the price's currency and no more than the price.
  /// - Complexity: O(i) in the order's line items.
  func money(for productID: String) -> (price: Amount, tax: Amount?, proceeds: Int64?)? {
    if items.count > 1 {
      guard let item = items.first(where: { $0.productID == productID }), let total = item.total
      else { return nil }
      return (total, item.tax, nil)
    }
    guard let total = items.first?.total ?? self.total else { return nil }
    let proceeds = self.proceeds.flatMap {
      $0.currency == total.currency && $0.thousandths <= total.thousandths ? $0.thousandths : nil
    }
    return (total, items.first?.tax ?? tax, proceeds)
  }

  /// A country as a charge records it (ISO 3166-1 alpha-2: two uppercase ASCII letters),
  /// else nil.
  static func validCountry(_ country: String?) -> String? {
    guard let country, country.utf8.count == 2,
      country.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
    else { return nil }
    return country
  }

  /// Whether this copy wins over `other` of the same order: fetched later, else the one
  /// whose amounts sort first (copies fetched at one instant should agree).
  func isNewer(than other: GooglePlayOrderPayload) -> Bool {
    let mine = knownAt?.millisecondsSinceEpoch ?? Int64.min
    let theirs = other.knownAt?.millisecondsSinceEpoch ?? Int64.min
    if mine != theirs { return mine > theirs }
    return (state ?? "", total?.thousandths ?? -1, proceeds?.thousandths ?? -1, line)
      < (other.state ?? "", other.total?.thousandths ?? -1, other.proceeds?.thousandths ?? -1, other.line)
  }
}
