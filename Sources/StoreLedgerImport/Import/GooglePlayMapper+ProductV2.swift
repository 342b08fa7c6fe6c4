import StoreLedgerCore

extension GooglePlayMapper {
  /// What a `ProductPurchaseV2` line item adds to its `purchase`: `meta.offerId`,
  /// `meta.purchaseOptionId` and `meta.rental` (fields that never change for a purchase, so
  /// every copy gives the same line), and `country` from `regionCode` when no order document
  /// gave one. A rental of a product the catalog sells for ever is warned about: the resource
  /// does not say when a rental ends (the rental period is the purchase option's).
  mutating func addV2Facts(
    _ details: GooglePlayProductV2Details, resource: GooglePlayProductPayload, product: Product,
    event: inout NewEvent, meta: inout [(String, JSONValue)]
  ) {
    if let offerID = details.offerID { meta.append(("offerId", .string(offerID))) }
    if let option = details.purchaseOptionID { meta.append(("purchaseOptionId", .string(option))) }
    if details.isRental {
      meta.append(("rental", .bool(true)))
      if product.kind == .nonConsumable {
        problems.warning(
          resource.line,
          "field '\(resource.path).productLineItem': '\(resource.productID)' was rented (rentOfferDetails), but the catalog sells it for ever (non_consumable) and Google's purchase does not say when a rental ends: make the product non_renewing with the rental period as its duration"
        )
      }
    }
    if event.country == nil { event.country = GooglePlayOrderPayload.validCountry(details.regionCode) }
  }

  /// Warns, once per purchase token, about a `ProductPurchaseV2` fetched three days or more
  /// after its completion and still `ACKNOWLEDGEMENT_STATE_PENDING` (Google refunds it).
  /// - Complexity: O(n) in the number of product resources.
  mutating func warnUnacknowledgedProducts() {
    for token in products.keys.sorted() {
      let late = products[token]!.sorted(by: { $0.line < $1.line }).first { resource in
        guard resource.v2?.acknowledgementState == "ACKNOWLEDGEMENT_STATE_PENDING",
          resource.v2?.hasCompletionTime == true, let fetched = resource.knownAt
        else { return false }
        return fetched.millisecondsSinceEpoch - resource.purchaseTime.millisecondsSinceEpoch
          >= Self.acknowledgementWindowMilliseconds
      }
      guard let late, let fetched = late.knownAt else { continue }
      problems.warning(
        late.line,
        "purchase token '\(token)' was still not acknowledged when fetched at \(fetched.rfc3339), three days or more after its purchase (\(late.purchaseTime.rfc3339)): Google refunds and revokes purchases not acknowledged within three days; acknowledge it (purchases.products.acknowledge) and import the voided purchases list"
      )
    }
  }
}
