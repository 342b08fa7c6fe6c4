import StoreLedgerCore

extension GooglePlayMapper {
  /// A deferred plan change (`lineItems[].deferredItemReplacement`): the product that replaces
  /// the line item's when it renews. It is the ledger's `plan_changed` (`renews_to`), from the
  /// `fetchTime` of the first copy that shows it (nothing tells when the buyer chose it, and
  /// never earlier than the evidence); a later copy without it (the change was withdrawn) is a
  /// `plan_changed` back to the current product. The renewal that charges the new product
  /// clears it. A copy without `fetchTime`, or a product the catalog has no single plan for,
  /// is counted in `skipped` with the reason and warned about.
  /// - Complexity: O(c log c) in the order's copies.
  mutating func deferredReplacementEvents(
    _ order: GooglePlayOrder, chain: GooglePlayChain, copies: [GooglePlaySubscriptionPayload]
  ) {
    guard let current = catalogProduct(order.item.productID, basePlanID: order.item.basePlanID),
      current.kind == .autoRenewable
    else { return }
    let live = copies.filter {
      !$0.isFromLedger && $0.cancellation != GooglePlayCancellation.replacement.rawValue
        && ($0.knownState == .active || $0.knownState == .canceled)
    }
    for copy in live where copy.knownAt == nil {
      guard let target = copy.lineItems.first?.deferredReplacementProductID else { continue }
      skipped["deferredItemReplacement without fetchTime", default: []].insert(order.id + ">" + target)
      problems.warning(
        copy.line,
        "field 'subscriptionPurchaseV2.lineItems[0].deferredItemReplacement': order '\(order.id)' will renew as '\(target)', but the copy has no fetchTime, so nothing tells since when; no plan change is recorded (store the copy with its fetchTime)"
      )
    }
    let fetched = live.compactMap { copy in copy.knownAt.map { (at: $0, copy: copy) } }
      .filter { $0.at >= order.start && $0.at < order.end }
      .sorted {
        ($0.at, $0.copy.lineItems.first?.deferredReplacementProductID ?? "")
          < ($1.at, $1.copy.lineItems.first?.deferredReplacementProductID ?? "")
      }
    var pending: String?
    for (at, copy) in fetched {
      let target = copy.lineItems.first?.deferredReplacementProductID
      guard target != pending else { continue }
      pending = target
      guard let target else {
        planChange(to: current.id, at: at, order: order, chain: chain, copy: copy, replacement: nil)
        continue
      }
      guard let product = replacementPlan(target), product.kind == .autoRenewable else {
        skipped["deferredItemReplacement without a catalog plan", default: []].insert(order.id + ">" + target)
        problems.warning(
          copy.line,
          "field 'subscriptionPurchaseV2.lineItems[0].deferredItemReplacement.productId': order '\(order.id)' will renew as '\(target)', but the catalog has no auto-renewable '\(target)' nor exactly one '\(target):BASE_PLAN'; no plan change is recorded"
        )
        continue
      }
      planChange(to: product.id, at: at, order: order, chain: chain, copy: copy, replacement: target)
    }
  }

  /// One `plan_changed` of a deferred replacement (or its withdrawal, `replacement` nil).
  private mutating func planChange(
    to product: String, at: Timestamp, order: GooglePlayOrder, chain: GooglePlayChain,
    copy: GooglePlaySubscriptionPayload, replacement: String?
  ) {
    var event = NewEvent(id: "", kind: .planChanged, subject: SubjectID(rawValue: chain.subject), at: at)
    event.originalTransaction = TransactionID(rawValue: chain.root)
    event.product = ProductID(rawValue: product)
    let id = "googleplay:\(order.id):plan_changed:\(Self.digest(event))"
    event.id = EventID(rawValue: id)
    event.setMeta(
      Self.baseMeta(isTest: chain.isTest, resource: copy)
        + [("deferredItemReplacement", replacement.map(JSONValue.string) ?? .null)])
    emit(ImportedEvent(event, recorded: at, line: copy.line, identity: id))
  }

  /// The catalog product of a Google product id and base plan, without reporting a miss.
  private func catalogProduct(_ productID: String, basePlanID: String?) -> Product? {
    if let basePlanID, let index = catalog.index(of: productID + ":" + basePlanID) {
      return catalog[index]
    }
    return catalog.index(of: productID).map { catalog[$0] }
  }

  /// The plan a deferred replacement names by product id alone: `PRODUCT_ID` when the catalog
  /// has it, else its only `PRODUCT_ID:BASE_PLAN_ID`; nil when neither or several.
  /// - Complexity: O(p) in the catalog's products.
  private func replacementPlan(_ productID: String) -> Product? {
    if let index = catalog.index(of: productID) { return catalog[index] }
    let plans = catalog.products.filter { $0.id.hasPrefix(productID + ":") }
    return plans.count == 1 ? plans[0] : nil
  }
}
