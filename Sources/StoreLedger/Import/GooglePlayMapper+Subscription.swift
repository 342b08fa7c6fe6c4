/// One order of a subscription token, as everything in the import tells it.
struct GooglePlayOrder {
  /// The order id (`GPA.1234-5678-9012-34567`, renewals `…..0`, `…..1`, …).
  var id: String
  /// N of a renewal order id ending in `..N`; nil for the token's first order.
  var renewalIndex: Int?
  /// The line item of the order (the copy with the smallest expiry, not cut short by a
  /// replacement when another copy is not).
  var item: GooglePlayLineItem
  /// The resource it was read from.
  var resource: GooglePlaySubscriptionPayload
  /// Every resource copy of the order: its state and line item expiry, and whether the token
  /// was replaced (then the expiry is the moment of the replacement, not the period's end).
  var copies: [(state: GooglePlaySubscriptionState?, expiry: Timestamp, isReplaced: Bool)]
  /// When the paid period began.
  var start: Timestamp
  /// When the paid period ended (or ends), before any deferral or grace.
  var end: Timestamp

  /// `N` of `BASE..N`, or nil when the id has no renewal suffix.
  static func renewalIndex(of orderID: String) -> Int? {
    let parts = orderID.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[parts.count - 2].isEmpty else { return nil }
    return Int(parts[parts.count - 1])
  }

  /// Expiries of the copies in `states`, leaving out copies cut short by a replacement.
  func expiries(_ states: Set<GooglePlaySubscriptionState>) -> [Timestamp] {
    copies.filter { !$0.isReplaced && ($0.state.map(states.contains) ?? false) }.map(\.expiry)
  }
}

extension GooglePlayMapper {
  /// Emits the events of one subscription token: the charge of every order its resources show
  /// and the state changes its notifications and resources report.
  mutating func mapSubscription(token: String) {
    guard let chain = chains[token] else { return }
    let resources = subscriptions[token]!.sorted { $0.line < $1.line }
    if let test = resources.first(where: \.isTest),
      !isTestAllowed(true, line: test.line, field: "subscriptionPurchaseV2.testPurchase")
    {
      return
    }
    if let addOns = resources.first(where: { $0.lineItems.count > 1 }) {
      problems.error(
        addOns.line,
        "field 'subscriptionPurchaseV2.lineItems': \(addOns.lineItems.count) line items (a subscription with add-ons); only single-item subscriptions are imported"
      )
      return
    }
    for resource in resources {
      if let raw = resource.state, resource.knownState == nil {
        problems.unknownValue(
          resource.line, field: "subscriptionPurchaseV2.subscriptionState", raw: .string(raw),
          consequence: "only the order's charge is imported from this resource")
      }
    }
    if let pending = resources.first(where: { $0.knownState == .pending }) {
      pendingEvent(pending, chain: chain)
    }
    let orders = self.orders(of: token, resources: resources, chain: chain)
    for order in orders { chargeEvent(order, token: token, chain: chain) }
    // A notification belongs to the last order whose period began at or before it.
    var notificationsByOrder: [String: [GooglePlayNotificationPayload]] = [:]
    for notification in subscriptionNotifications[token] ?? [] {
      guard let owner = orders.last(where: { $0.start <= notification.eventTime }) ?? orders.first
      else { break }
      notificationsByOrder[owner.id, default: []].append(notification)
    }
    var resourcesByOrder: [String: [GooglePlaySubscriptionPayload]] = [:]
    for resource in resources {
      if let orderID = resource.lineItems.first?.orderID {
        resourcesByOrder[orderID, default: []].append(resource)
      }
    }
    for order in orders {
      stateEvents(
        order, isLast: order.id == orders.last?.id, token: token, chain: chain,
        notifications: notificationsByOrder[order.id] ?? [],
        copyResources: resourcesByOrder[order.id] ?? [])
    }
  }

  /// A pending subscription purchase (`SUBSCRIPTION_STATE_PENDING`): `purchase_pending`.
  private mutating func pendingEvent(
    _ resource: GooglePlaySubscriptionPayload, chain: GooglePlayChain
  ) {
    guard let item = resource.lineItems.first,
      let product = product(
        item.productID, basePlanID: item.basePlanID, line: resource.line,
        field: "subscriptionPurchaseV2.lineItems[0].productId")
    else { return }
    guard let at = resource.startTime else {
      problems.error(
        resource.line,
        "field 'subscriptionPurchaseV2.startTime' is missing; it is required for a pending purchase"
      )
      return
    }
    emit(
      ImportedEvent(
        id: "googleplay:\(Self.tokenKey(resource.token)):purchase_pending", kind: .purchasePending,
        subject: chain.subject, at: at, recorded: nil, fields: [("product", .string(product.id))],
        meta: Self.baseMeta(isTest: chain.isTest, token: resource.token), line: resource.line,
        identity: "pending:" + resource.token))
  }

  /// The orders of a token, oldest first, with their periods.
  ///
  /// A period ends at the smallest `expiryTime` of the order's copies that are not in grace
  /// or on hold (deferrals only move it later; in grace Google reports the grace end). A
  /// renewal begins at the latest charge notification before its end, else when the order
  /// before it ended, else (with a warning) when the token started.
  private mutating func orders(
    of token: String, resources: [GooglePlaySubscriptionPayload], chain: GooglePlayChain
  ) -> [GooglePlayOrder] {
    let notifications = subscriptionNotifications[token] ?? []
    var byID: [String: GooglePlayOrder] = [:]
    for resource in resources {
      let state = resource.knownState
      if state == .pending || state == .pendingPurchaseCanceled { continue }
      guard let item = resource.lineItems.first else { continue }
      guard let orderID = item.orderID, !orderID.isEmpty else {
        problems.warning(
          resource.line,
          "field 'subscriptionPurchaseV2.lineItems[0].latestSuccessfulOrderId' (and latestOrderId) is missing, so no charge can be imported from this resource"
        )
        continue
      }
      guard orderID.utf8.count <= Limits.referenceBytesMax else {
        problems.error(
          resource.line,
          "field 'subscriptionPurchaseV2.lineItems[0].latestSuccessfulOrderId': longer than \(Limits.referenceBytesMax) bytes"
        )
        continue
      }
      let isReplaced = resource.cancellation == GooglePlayCancellation.replacement.rawValue
      if var known = byID[orderID] {
        let isKnownReplaced =
          known.resource.cancellation == GooglePlayCancellation.replacement.rawValue
        known.copies.append((state, item.expiryTime, isReplaced))
        if !isReplaced && (isKnownReplaced || item.expiryTime < known.item.expiryTime) {
          known.item = item
          known.resource = resource
        }
        byID[orderID] = known
      } else {
        byID[orderID] = GooglePlayOrder(
          id: orderID, renewalIndex: GooglePlayOrder.renewalIndex(of: orderID), item: item,
          resource: resource, copies: [(state, item.expiryTime, isReplaced)],
          start: item.expiryTime,
          end: item.expiryTime)
      }
    }
    let sorted = byID.values.sorted {
      ($0.renewalIndex ?? -1, $0.id) < ($1.renewalIndex ?? -1, $1.id)
    }
    let tokenStart = resources.compactMap(\.startTime).min()
    var orders: [GooglePlayOrder] = []
    for var order in sorted {
      // An expired copy's expiryTime is where the subscription finally ended, earlier than
      // the period's end when it was revoked: it counts only when nothing else is known.
      let live = order.expiries([.active, .canceled, .paused])
      let normal = live.isEmpty ? order.expiries([.expired]) : live
      let grace = order.expiries([.inGracePeriod])
      if let end = normal.min() {
        order.end = end
      } else if let graceEnd = grace.min(),
        let failed = notifications.last(where: {
          $0.kind == .inGracePeriod && $0.eventTime < graceEnd
            && $0.eventTime > (tokenStart ?? $0.eventTime)
        })
      {
        order.end = failed.eventTime
      } else {
        order.end = order.copies.map(\.expiry).min()!
        if !grace.isEmpty {
          problems.warning(
            order.resource.line,
            "order '\(order.id)' is only known in grace, where expiryTime is the end of grace, and no SUBSCRIPTION_IN_GRACE_PERIOD tells when its period ended; its period is taken to end with the grace period"
          )
        }
      }
      let previous = orders.last
      if order.renewalIndex == nil {
        guard let start = order.resource.startTime ?? tokenStart else {
          problems.error(
            order.resource.line,
            "field 'subscriptionPurchaseV2.startTime' is missing; it is required for the first order '\(order.id)'"
          )
          continue
        }
        order.start = start
      } else if let charge = notifications.last(where: { notification in
        notification.kind?.isCharge == true && notification.eventTime < order.end
          && (previous.map { notification.eventTime > $0.start } ?? true)
      }) {
        order.start = charge.eventTime
      } else if let previous, previous.end < order.end {
        order.start = previous.end
      } else if let tokenStart, tokenStart < order.end {
        order.start = tokenStart
        problems.warning(
          order.resource.line,
          "renewal order '\(order.id)': no SUBSCRIPTION_RENEWED/RECOVERED notification and no earlier order tell when its period began; it is imported from the token's startTime \(tokenStart.rfc3339)"
        )
      } else {
        problems.error(
          order.resource.line,
          "renewal order '\(order.id)': nothing in the import tells when its period began (no startTime, no notification)"
        )
        continue
      }
      orders.append(order)
    }
    return orders
  }

  /// The `purchase` or `renewal` of one order.
  private mutating func chargeEvent(_ order: GooglePlayOrder, token: String, chain: GooglePlayChain)
  {
    let item = order.item
    let line = order.resource.line
    let itemPath = "subscriptionPurchaseV2.lineItems[0]"
    guard
      let product = product(
        item.productID, basePlanID: item.basePlanID, line: line, field: itemPath + ".productId")
    else { return }
    guard order.start < order.end else {
      problems.error(
        line,
        "field '\(itemPath).expiryTime': order '\(order.id)' ends at \(order.end.rfc3339), not after it began (\(order.start.rfc3339))"
      )
      return
    }
    var meta = Self.baseMeta(isTest: chain.isTest, token: token)
    if let basePlan = item.basePlanID { meta.append(("basePlanId", .string(basePlan))) }
    if let offerID = item.offerID { meta.append(("offerId", .string(offerID))) }
    var kind = EventKind.purchase
    var fields: [(String, JSONValue)] = [
      ("product", .string(product.id)), ("transaction", .string(order.id)),
    ]
    switch product.kind {
    case .autoRenewable:
      kind = order.renewalIndex == nil ? .purchase : .renewal
      fields.append(("original_transaction", .string(chain.root)))
    case .nonRenewing:
      break
    case .nonConsumable, .consumable:
      problems.error(
        line,
        "field '\(itemPath).productId': Google sells '\(item.productID)' as a subscription, but the catalog has '\(product.id)' as \(product.kind.rawValue)"
      )
      return
    }
    fields.append(("expires", .string(order.end.rfc3339)))
    switch item.offerPhase {
    case "freeTrial"?: fields.append(("offer", .string(Offer.trial.name)))
    case "introductoryPrice"?: fields.append(("offer", .string(Offer.intro.name)))
    case "basePrice"?:
      if let price = item.recurringPrice {
        fields.append(("price", .integer(price.thousandths)))
        fields.append(("currency", .string(price.currency)))
      }
    case "prorationPeriod"?, nil: break
    case let other?:
      problems.unknownValue(
        line, field: itemPath + ".offerPhase", raw: .string(other),
        consequence: "no offer recorded; kept raw in meta")
      meta.append(("offerPhase", .string(other)))
    }
    emit(
      ImportedEvent(
        id: "googleplay:\(order.id):\(kind.name)", kind: kind, subject: chain.subject,
        at: order.start, recorded: nil, fields: fields, meta: meta, line: line,
        identity: "charge:" + order.id))
  }
}

extension GooglePlayNotificationPayload {
  /// The subscription notification type, when this is one this importer knows.
  var kind: GooglePlaySubscriptionNotificationType? {
    guard case .subscription(let type, _) = body else { return nil }
    return GooglePlaySubscriptionNotificationType(rawValue: type)
  }
}
