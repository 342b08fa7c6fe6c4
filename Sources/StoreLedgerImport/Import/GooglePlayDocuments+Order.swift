import StoreLedgerCore

extension GooglePlayDocuments {
  /// Whether a document is an `Order` (an `orders.get` response): it names an order and a
  /// purchase token and carries amounts or line items, which no other document does.
  static func isOrder(_ object: PayloadObject) -> Bool {
    object.has("orderId") && object.has("purchaseToken")
      && (object.has("lineItems") || object.has("total") || object.has("createTime"))
  }

  /// The orders of an `orders.batchget` response (`orders`), each known at the response's
  /// `fetchTime` (else its own).
  /// - Complexity: O(n) in the size of the response.
  static func orderList(
    _ object: PayloadObject, line: Int, into payloads: inout [GooglePlayPayload],
    _ problems: inout ImportProblems
  ) {
    guard case .array(let items)? = object["orders"] else {
      problems.error(line, "field 'orders': expected an array")
      return
    }
    let fetchTime = object.rfc3339("fetchTime", &problems)
    for entry in object.objects(items, in: "orders", &problems) {
      if var order = order(entry, &problems) {
        order.knownAt = fetchTime ?? entry.rfc3339("fetchTime", &problems)
        payloads.append(.order(order))
      }
    }
  }

  /// One `Order`.
  static func order(_ object: PayloadObject, _ problems: inout ImportProblems)
    -> GooglePlayOrderPayload?
  {
    let errorsBefore = problems.errors.count
    let why = "in an order (orders.get)"
    let orderID = object.requiredString("orderId", &problems, why: why)
    let token = object.requiredString("purchaseToken", &problems, why: why)
    var items: [GooglePlayOrderPayload.Item] = []
    if case .array(let values)? = object["lineItems"] {
      for item in object.objects(values, in: "lineItems", &problems) {
        let productID = item.requiredString("productId", &problems, why: "in an order line item")
        items.append(
          GooglePlayOrderPayload.Item(
            productID: productID ?? "", total: money(item, "total", &problems),
            tax: money(item, "tax", &problems)))
      }
    }
    let address = object.child("buyerAddress", &problems)
    let payload = GooglePlayOrderPayload(
      line: object.line, path: object.path, orderID: orderID ?? "", token: token ?? "",
      state: object.string("state", &problems), total: money(object, "total", &problems),
      tax: money(object, "tax", &problems),
      proceeds: money(object, "developerRevenueInBuyerCurrency", &problems),
      country: address?.string("buyerCountry", &problems), items: items,
      knownAt: object.rfc3339("fetchTime", &problems))
    return problems.errors.count == errorsBefore ? payload : nil
  }

  /// A `Money` member in thousandths of its currency; nil when absent.
  private static func money(
    _ object: PayloadObject, _ key: String, _ problems: inout ImportProblems
  ) -> GooglePlayOrderPayload.Amount? {
    object.child(key, &problems).flatMap { thousandths($0, &problems) }
  }
}
