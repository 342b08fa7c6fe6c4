import StoreLedgerCore

extension GooglePlayMapper {
  /// Emits the events of one one-time product token: its `purchase` (consumables with their
  /// quantity), or `purchase_pending` while the payment is pending. A canceled purchase
  /// (`purchaseState` 1) never granted anything and is counted in `skipped`.
  mutating func mapProducts(token: String) {
    let resources = products[token]!.sorted { $0.line < $1.line }
    for resource in resources { mapProduct(resource, token: token) }
  }

  /// The events of one `productPurchase` resource.
  private mutating func mapProduct(_ resource: GooglePlayProductPayload, token: String) {
    let path = resource.path
    guard
      isTestAllowed(
        resource.purchaseType == 0, line: resource.line, field: resource.testField ?? path + ".purchaseType"),
      // A purchase option names a catalog product as a base plan does (PRODUCT:OPTION).
      let product = product(
        resource.productID, basePlanID: resource.v2?.purchaseOptionID, line: resource.line, field: "productId"),
      let subject = productSubject(resource)
    else { return }
    var meta = Self.baseMeta(isTest: resource.purchaseType == 0, token: token)
    switch resource.state.flatMap(GooglePlayProductPurchaseState.init) {
    case .purchased?, nil:
      if resource.state == nil {
        problems.warning(
          resource.line,
          "field '\(path).purchaseState' is missing; the product is imported as purchased")
      }
    case .pending? where resource.v2?.hasCompletionTime == false:
      // A pending ProductPurchaseV2 carries no instant (Google sets none until payment).
      skipped["productPurchaseV2 pending (no time)", default: []].insert(resource.transaction)
      return
    case .pending?:
      emit(
        ImportedEvent(
          id: "googleplay:\(Self.tokenKey(token)):purchase_pending", kind: .purchasePending,
          subject: subject, at: resource.purchaseTime, recorded: recorded(resource.knownAt),
          meta: meta, line: resource.line, identity: "pending:" + token
        ) { $0.product = ProductID(rawValue: product.id) })
      return
    case .canceled?:
      skipped["productPurchase canceled", default: []].insert(resource.transaction)
      return
    }
    if let state = resource.state, GooglePlayProductPurchaseState(rawValue: state) == nil {
      problems.unknownValue(
        resource.line, field: path + ".purchaseState", raw: .integer(state),
        consequence: "imported as purchased")
    }
    guard var event = purchase(resource, product: product, token: token, subject: subject) else { return }
    switch resource.purchaseType {
    case 1?: event.offer = .code
    case 2?: meta.append(("purchaseType", .string("rewarded")))
    case 0?, nil: break
    case let other?:
      problems.unknownValue(
        resource.line, field: path + ".purchaseType", raw: .integer(other),
        consequence: "no offer recorded; kept raw in meta")
      meta.append(("purchaseType", .integer(other)))
    }
    if let money = resource.orderID.flatMap({ orderMoney($0, productID: resource.productID) }) {
      money.fields.set(on: &event)
      meta += money.meta
    }
    if let details = resource.v2 {
      addV2Facts(details, resource: resource, product: product, event: &event, meta: &meta)
    }
    event.store = Self.storeName
    event.setMeta(meta)
    emit(
      ImportedEvent(
        event, recorded: recorded(resource.knownAt), line: resource.line, identity: "charge:" + resource.transaction))
    revocationForKnownVoid(
      transaction: resource.transaction, subject: subject,
      meta: Self.baseMeta(isTest: resource.purchaseType == 0, token: token), line: resource.line,
      recorded: recorded(resource.knownAt))
  }

  /// The `purchase` with its product, transaction and (consumables) quantity; nil (with an
  /// error) for a subscription product or a bad quantity.
  private mutating func purchase(
    _ resource: GooglePlayProductPayload, product: Product, token: String, subject: String
  ) -> NewEvent? {
    let key = resource.orderID.map { _ in resource.transaction } ?? Self.tokenKey(token)
    var event = NewEvent(
      id: EventID(rawValue: "googleplay:\(key):purchase"), kind: .purchase, subject: SubjectID(rawValue: subject),
      at: resource.purchaseTime)
    event.product = ProductID(rawValue: product.id)
    event.transaction = TransactionID(rawValue: resource.transaction)
    switch product.kind {
    case .autoRenewable:
      problems.error(
        resource.line,
        "field 'productId': Google sells '\(resource.productID)' as a one-time product, but the catalog has it as auto_renewable"
      )
      return nil
    case .consumable:
      let quantity = resource.quantity ?? 1
      guard quantity >= 1, quantity <= Limits.amountMax else {
        problems.error(
          resource.line,
          "field '\(resource.path).quantity': expected an integer ≥ 1, found \(quantity)")
        return nil
      }
      event.quantity = quantity
    case .nonConsumable, .nonRenewing:
      break
    }
    return event
  }

  /// ONE_TIME_PRODUCT_PURCHASED: the purchase comes from the product resource; alone, the
  /// notification has no order id, quantity or purchase time.
  mutating func mapOneTimeNotifications(token: String) {
    let notifications = oneTimeNotifications[token]!
    guard products[token] == nil else { return }
    problems.warning(
      notifications.map(\.line).min()!,
      "ONE_TIME_PRODUCT_PURCHASED for purchase token '\(token)' but no productPurchase for it in this import: the notification has no order id, quantity or purchase time, so nothing is imported for it; fetch purchases.products.get and import the result with it"
    )
  }

  /// The `revocation` of a voided order: from the voided purchases list (exact time, reason
  /// and source), the trusted source; from a voided purchase notification alone only when
  /// notifications are trusted. A quantity-based partial refund of a consumable revokes the
  /// packs it gave back (`revocation.quantity`, contract v1.3); one the ledger cannot size is
  /// warned and counted. A voided order of add-on line items revokes each item's transaction.
  mutating func mapVoided(orderID: String) {
    let entries = voided[orderID]!.sorted {
      ($0.isFromNotification ? 1 : 0, $0.voidedTime, $0.line)
        < ($1.isFromNotification ? 1 : 0, $1.voidedTime, $1.line)
    }
    let entry = entries[0]
    if entry.isFromNotification && !options.trustsNotifications {
      skipped["voidedPurchaseNotification untrusted", default: []].insert(orderID)
      problems.warning(
        entry.line,
        "voidedPurchaseNotification for order '\(orderID)' revokes nothing on its own: a notification carries no signature; fetch voidedpurchases.list and import the voided purchase (or trust notifications with --trust-notifications)"
      )
      return
    }
    var partialQuantity: Int64?
    if let partial = entries.first(where: { $0.refundType == GooglePlayVoided.partialRefundType }) {
      guard let quantity = refundedPacks(partial) else {
        skipped["voidedPurchase partial", default: []].insert(orderID)
        problems.warning(
          partial.line,
          "order '\(orderID)' was partially refunded (refundType 2, a quantity-based partial refund), but no productPurchase of a consumable in this import says how many packs it bought (or voidedQuantity is missing or more than that), so nothing is revoked"
        )
        return
      }
      partialQuantity = quantity
    }
    guard let (subject, isTest) = voidedSubject(entry) else { return }
    var meta = Self.baseMeta(isTest: isTest, token: entry.token)
    if let reason = entry.reason {
      if let name = GooglePlayVoided.reasonName(reason) {
        meta.append(("voidedReason", .string(name)))
      } else {
        problems.unknownValue(
          entry.line, field: entry.path + ".voidedReason", raw: .integer(reason),
          consequence: "kept raw in meta")
        meta.append(("voidedReason", .integer(reason)))
      }
    }
    if let source = entry.source {
      meta.append(
        (
          "voidedSource",
          GooglePlayVoided.sourceName(source).map(JSONValue.string) ?? .integer(source)
        ))
    }
    if let quantity = entry.voidedQuantity { meta.append(("voidedQuantity", .integer(quantity))) }
    for transaction in (addOnTransactions[orderID].map { $0.sorted() } ?? [orderID])
    where !revokedByCopies.contains(transaction) {
      emitRevocation(
        orderID: transaction, at: entry.voidedTime, subject: subject, meta: meta,
        line: entry.line, recorded: recorded(entry.knownAt), quantity: partialQuantity)
    }
  }

  /// How many packs a quantity-based partial refund gave back (`voidedQuantity`): nil unless
  /// the purchase is a consumable whose resource says how many it bought, at least that many.
  private func refundedPacks(_ entry: GooglePlayVoidedPayload) -> Int64? {
    guard let quantity = entry.voidedQuantity, quantity >= 1,
      let resource = products[entry.token]?.first(where: { $0.orderID == entry.orderID }),
      // A voided purchase names the order, not which of several line items it refunds.
      (resource.v2?.lineItemCount ?? 1) == 1,
      let index = catalog.index(of: resource.productID), catalog[index].kind == .consumable,
      quantity <= (resource.quantity ?? 1)
    else { return nil }
    return quantity
  }

  /// The subject of a one-time purchase: its account id, else `--subjects` by token, else
  /// `googleplay:<token>`.
  private mutating func productSubject(_ resource: GooglePlayProductPayload) -> String? {
    let subject =
      resource.accountID.flatMap { $0.isEmpty ? nil : $0 } ?? options.subjects[resource.token]
      ?? "googleplay:" + resource.token
    return checkedSubject(
      subject, source: "purchase token '\(resource.token)'", line: resource.line)
  }

  /// The subject (and test flag) of a voided order's purchase, from its token's resources, else
  /// from what the ledger already holds for the token; nil (the entry kept pending) when
  /// neither knows the purchase.
  private mutating func voidedSubject(_ entry: GooglePlayVoidedPayload) -> (String, Bool)? {
    if let found = purchaseSubject(token: entry.token) { return found }
    deferredLines.insert(entry.line)
    problems.warning(
      entry.line,
      "voided order '\(entry.orderID)': no resource for its purchase token in this import or the log, so whose purchase it voids is not known yet; it is kept pending (with --append) until the purchase is imported"
    )
    return nil
  }

  /// The subject (and test flag) of the purchase of `token`: from its resources, else from what
  /// the ledger already holds for it; nil when neither knows the purchase.
  mutating func purchaseSubject(token: String) -> (String, Bool)? {
    let key = addOnKeys[token]?.sorted().first ?? token
    if let chain = chains[key] { return (chain.subject, chain.isTest) }
    if let resource = products[token]?.min(by: { $0.line < $1.line }),
      let subject = productSubject(resource)
    {
      return (subject, resource.purchaseType == 0)
    }
    if let known = knowledge.googlePlaySubjects[token] {
      return (known, false)
    }
    return nil
  }
}
