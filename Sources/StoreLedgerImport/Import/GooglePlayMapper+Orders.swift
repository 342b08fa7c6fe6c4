import StoreLedgerCore

extension GooglePlayMapper {
  /// The `store` of every Google Play charge (contract v1.3).
  static let storeName = "googleplay"

  /// The price, currency, proceeds and country of the charge of `orderID` (product
  /// `productID`) from its order document, and the tax and order state for `meta`; nil when
  /// the import has no order document for it, or the document states no amount for it.
  /// - Complexity: O(i) in the order's line items.
  func orderMoney(_ orderID: String, productID: String) -> (
    fields: GooglePlayChargeFields, meta: [(String, JSONValue)]
  )? {
    guard let document = orders[orderID], let money = document.money(for: productID),
      money.price.thousandths <= Limits.amountMax
    else { return nil }
    let fields = GooglePlayChargeFields(
      price: money.price.thousandths, currency: money.price.currency, proceeds: money.proceeds,
      country: GooglePlayOrderPayload.validCountry(document.country))
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
  mutating func warnLatePrice(chargeID: EventID, orderID: String, productID: String) {
    guard orderMoney(orderID, productID: productID) != nil, let document = orders[orderID],
      let known = knowledge.events[chargeID], known.price == nil
    else { return }
    problems.warning(
      document.line,
      "order '\(orderID)': the ledger already holds its charge '\(chargeID.rawValue)' without a price, so the order document (orders.get) arriving now does not price it (the log is append-only); import order documents with the resource they belong to"
    )
  }
}

/// What a Google Play charge's documents tell of its sale: the typed fields its `purchase` or
/// `renewal` gets (an order document's money, or the line item's offer and recurring price).
struct GooglePlayChargeFields {
  /// The offer phase the order charged.
  var offer: Offer? = nil
  /// The price, in thousandths of `currency`.
  var price: Int64? = nil
  /// The price's currency.
  var currency: String? = nil
  /// What Google pays the developer, in thousandths of `currency`.
  var proceeds: Int64? = nil
  /// The buyer's country (ISO 3166-1 alpha-2).
  var country: String? = nil

  /// Sets the fields known here on `event`, leaving the others as they are.
  func set(on event: inout NewEvent) {
    if let offer { event.offer = offer }
    if let price { event.price = price }
    if let currency { event.currency = currency }
    if let proceeds { event.proceeds = proceeds }
    if let country { event.country = country }
  }
}
