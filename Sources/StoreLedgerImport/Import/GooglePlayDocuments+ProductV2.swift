import StoreLedgerCore

/// What a `ProductPurchaseV2` line item says beyond a `ProductPurchase` (one-time products with
/// purchase options, Google Play Developer API 2025): kept with the product payload it becomes.
struct GooglePlayProductV2Details {
  /// `productOfferDetails.offerId`: the discount offer bought, if any.
  var offerID: String?
  /// `productOfferDetails.purchaseOptionId`: the purchase option (buy, rent, …).
  var purchaseOptionID: String?
  /// Whether `productOfferDetails.rentOfferDetails` is present: a rental, whose end the
  /// purchase does not state (the rental period is the purchase option's, in the catalog).
  var isRental: Bool
  /// How many line items the resource has; with several, each is charged as
  /// `<orderId>#<productId>`.
  var lineItemCount: Int
  /// `acknowledgementState` raw (`ACKNOWLEDGEMENT_STATE_PENDING`, `…_ACKNOWLEDGED`).
  var acknowledgementState: String?
  /// `regionCode`: the buyer's ISO 3166-1 alpha-2 country.
  var regionCode: String?
  /// Whether `purchaseCompletionTime` is present (Google leaves it out until payment completes).
  var hasCompletionTime: Bool

  /// What the line item's transaction adds to the order id: `#<productId>` when the resource
  /// has several line items (each is charged once), else nothing.
  func transactionSuffix(productID: String) -> String { lineItemCount > 1 ? "#" + productID : "" }
}

extension GooglePlayDocuments {
  /// The `purchaseState` of `ProductPurchaseV2.purchaseStateContext` as `ProductPurchase`'s
  /// number (0 purchased, 1 canceled, 2 pending); nil for an unknown value (reported).
  static func productV2State(_ raw: String?, line: Int, path: String, _ problems: inout ImportProblems) -> Int64? {
    switch raw {
    case "PURCHASED"?: return GooglePlayProductPurchaseState.purchased.rawValue
    case "CANCELLED"?: return GooglePlayProductPurchaseState.canceled.rawValue
    case "PENDING"?: return GooglePlayProductPurchaseState.pending.rawValue
    case nil: return nil
    case let other?:
      problems.unknownValue(
        line, field: path, raw: .string(other), consequence: "imported as purchased")
      return GooglePlayProductPurchaseState.purchased.rawValue
    }
  }

  /// A stored `purchases.productsv2.getproductpurchasev2` result (`{"packageName",
  /// "purchaseToken", "productPurchaseV2"}`): one product payload per line item, each with the
  /// resource's order, state, account and test flag (`testPurchaseContext` is a license
  /// tester's purchase, as `purchaseType` 0 is in a `ProductPurchase`).
  /// - Complexity: O(i) in the line items.
  static func productResourceV2(_ envelope: PayloadObject, _ problems: inout ImportProblems)
    -> [GooglePlayProductPayload]
  {
    let errorsBefore = problems.errors.count
    let why = "in a stored ProductPurchaseV2"
    let token = envelope.requiredString("purchaseToken", &problems, why: why)
    guard let resource = envelope.child("productPurchaseV2", &problems) else { return [] }
    guard case .array(let values)? = resource["productLineItem"], !values.isEmpty else {
      problems.error(
        envelope.line, "field '\(resource.name("productLineItem"))' is missing or empty; it is required \(why)")
      return []
    }
    let stateContext = resource.child("purchaseStateContext", &problems)
    let state = productV2State(
      stateContext?.string("purchaseState", &problems), line: envelope.line,
      path: resource.name("purchaseStateContext.purchaseState"), &problems)
    let completion = resource.rfc3339("purchaseCompletionTime", &problems)
    var base = GooglePlayProductPayload(
      line: envelope.line, path: resource.path, token: token ?? "", productID: "",
      purchaseTime: completion ?? Timestamp(millisecondsSinceEpoch: 0), state: state,
      orderID: resource.string("orderId", &problems), quantity: nil,
      purchaseType: resource.has("testPurchaseContext") ? 0 : nil,
      accountID: resource.string("obfuscatedExternalAccountId", &problems),
      knownAt: envelope.rfc3339("fetchTime", &problems))
    base.testField = resource.name("testPurchaseContext")
    let details = GooglePlayProductV2Details(
      offerID: nil, purchaseOptionID: nil, isRental: false, lineItemCount: values.count,
      acknowledgementState: resource.string("acknowledgementState", &problems),
      regionCode: resource.string("regionCode", &problems), hasCompletionTime: completion != nil)
    var payloads: [GooglePlayProductPayload] = []
    for (index, value) in values.enumerated() {
      let path = resource.name("productLineItem[\(index)]")
      guard let item = PayloadObject(value, path: path, line: envelope.line) else {
        problems.error(envelope.line, "field '\(path)': expected an object")
        continue
      }
      guard let productID = item.requiredString("productId", &problems, why: why) else { continue }
      let offer = item.child("productOfferDetails", &problems)
      var payload = base
      payload.productID = productID
      payload.quantity = offer?.int64("quantity", &problems)
      var itemDetails = details
      itemDetails.offerID = offer?.string("offerId", &problems)
      itemDetails.purchaseOptionID = offer?.string("purchaseOptionId", &problems)
      itemDetails.isRental = offer?.has("rentOfferDetails") ?? false
      payload.v2 = itemDetails
      payloads.append(payload)
    }
    // Without a completion time a purchased product has no instant to be charged at.
    if state == GooglePlayProductPurchaseState.purchased.rawValue, completion == nil {
      problems.error(
        envelope.line,
        "field '\(resource.name("purchaseCompletionTime"))' is missing; it is required \(why) whose purchaseState is PURCHASED (the instant of the charge)"
      )
    }
    return problems.errors.count == errorsBefore ? payloads : []
  }
}
