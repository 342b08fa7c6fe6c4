import StoreLedgerCore

extension GooglePlayMapper {
  /// The `store` of every Google Play charge (contract v1.3).
  static let storeName = "googleplay"

  /// The price, currency, proceeds and country of the charge of `orderID` (product
  /// `productID`) from its order document, and the tax and order state for `meta`; nil when
  /// the import has no order document for it, or the document states no amount for it.
  /// - Complexity: O(i) in the order's line items.
  func orderMoney(_ orderID: String, productID: String) -> (
    fields: [(String, JSONValue)], meta: [(String, JSONValue)]
  )? {
    guard let document = orders[orderID], let money = document.money(for: productID),
      money.price.thousandths <= Limits.amountMax
    else { return nil }
    var fields: [(String, JSONValue)] = [
      ("price", .integer(money.price.thousandths)), ("currency", .string(money.price.currency)),
    ]
    if let proceeds = money.proceeds { fields.append(("proceeds", .integer(proceeds))) }
    if let country = GooglePlayOrderPayload.validCountry(document.country) {
      fields.append(("country", .string(country)))
    }
    var meta: [(String, JSONValue)] = []
    if let tax = money.tax, tax.currency == money.price.currency {
      meta.append(("tax", .integer(tax.thousandths)))
    }
    if let state = document.state { meta.append(("orderState", .string(state))) }
    return (fields, meta)
  }

  /// The warning for a charge the ledger already holds without the price that an order
  /// document now gives: the log is append-only, so the charge keeps what it was first
  /// written with.
  mutating func warnLatePrice(chargeID: String, orderID: String, productID: String) {
    guard orderMoney(orderID, productID: productID) != nil, let document = orders[orderID],
      let known = knowledge.events[chargeID], !known.contains(#""price":"#)
    else { return }
    problems.warning(
      document.line,
      "order '\(orderID)': the ledger already holds its charge '\(chargeID)' without a price, so the order document (orders.get) arriving now does not price it (the log is append-only); import order documents with the resource they belong to"
    )
  }
}
