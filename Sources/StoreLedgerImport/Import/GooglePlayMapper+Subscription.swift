import StoreLedgerCore

/// One order of a subscription token, as everything in the import tells it.
struct GooglePlayOrder {
  /// The transaction: the order id (`GPA.1234-5678-9012-34567`, renewals `…..0`, `…..1`,
  /// …), with `#<productId>` for an add-on line item.
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
  /// When the period began, as the ledger already holds it (an earlier import charged it).
  var knownStart: Timestamp?
  /// When the period ends as the ledger holds it: the charge's `expires`, or the last period
  /// correction of it (`LedgerKnowledge.periodEnd(of:)`).
  var knownEnd: Timestamp?
  /// The knowledge time of each copy (nil: known from `at`, see `GooglePlayMapper.recorded`).
  var copyKnownAts: [Timestamp?] = []

  /// When the order was first known: the earliest of its copies (nil: from `at`).
  var firstKnownAt: Timestamp? { GooglePlayMapper.earliest(copyKnownAts) }

  /// `N` of `BASE..N`, or nil when the id has no renewal suffix.
  static func renewalIndex(of orderID: String) -> Int? {
    let parts = orderID.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[parts.count - 2].isEmpty else { return nil }
    return Int(parts[parts.count - 1])
  }

  /// Whether the order's period end is settled: a copy in the state it was charged in
  /// (active, canceled or paused) is known, or the ledger holds it. Known only in grace, on
  /// hold or expired, its end is a guess a later copy corrects, so nothing placed at its end
  /// is written yet (a webhook fetches the resource after every charge, so the copy comes).
  var isSettled: Bool {
    resource.isFromLedger || !expiries([.active, .canceled, .paused]).isEmpty
  }

  /// Expiries of the copies in `states`, leaving out copies cut short by a replacement.
  func expiries(_ states: Set<GooglePlaySubscriptionState>) -> [Timestamp] {
    copies.filter { !$0.isReplaced && ($0.state.map(states.contains) ?? false) }.map(\.expiry)
  }
}

extension GooglePlayMapper {
  /// Emits the events of one subscription (a purchase token, or one add-on line item of it):
  /// the charge of every order its resources show and the state changes its notifications and
  /// resources report.
  mutating func mapSubscription(key: String) {
    guard let chain = chains[key] else { return }
    let resources = subscriptions[key]!.sorted { $0.line < $1.line }
    let token = resources[0].token
    if let test = resources.first(where: \.isTest),
      !isTestAllowed(true, line: test.line, field: "subscriptionPurchaseV2.testPurchase")
    {
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
    var notifications = subscriptionNotifications[token] ?? []
    // A notification counts once a resource fetched after it is in: that resource shows the
    // order it is about (a later order may not be known before). Without fetch times, all do.
    let fetched = resources.filter { !$0.isFromLedger }.compactMap(\.knownAt)
    if fetched.count == resources.filter({ !$0.isFromLedger }).count, let latest = fetched.max() {
      let early = notifications.filter { $0.eventTime > latest }
      deferredLines.formUnion(early.map(\.line))
      notifications.removeAll { $0.eventTime > latest }
    }
    let deferredBefore = deferredLines.count
    let orders = self.orders(of: key, resources: resources, notifications: notifications)
    let isWaiting = deferredLines.count != deferredBefore
    if isWaiting {
      // A renewal whose start nothing tells yet, and the orders after it, wait; so do the
      // notifications from the end of the last order imported on, which may be theirs.
      let cut = orders.last?.end
      let waiting = notifications.filter { cut.map($0.eventTime.isAfterOrAt) ?? true }
      deferredLines.formUnion(waiting.map(\.line))
      notifications.removeAll { cut.map($0.eventTime.isAfterOrAt) ?? true }
      let imported = Set(orders.map(\.id))
      deferredLines.formUnion(
        resources.filter { resource in
          !resource.isFromLedger
            && !imported.contains((resource.lineItems.first?.orderID ?? "") + resource.transactionSuffix)
        }.map(\.line))
    }
    for order in orders where !order.resource.isFromLedger { chargeEvent(order, chain: chain) }
    // A notification belongs to the last order whose period began at or before it.
    var notificationsByOrder: [String: [GooglePlayNotificationPayload]] = [:]
    for notification in notifications {
      guard let owner = orders.last(where: { $0.start <= notification.eventTime }) ?? orders.first
      else { break }
      notificationsByOrder[owner.id, default: []].append(notification)
    }
    var resourcesByOrder: [String: [GooglePlaySubscriptionPayload]] = [:]
    for resource in resources {
      if let orderID = resource.lineItems.first?.orderID {
        resourcesByOrder[orderID + resource.transactionSuffix, default: []].append(resource)
      }
    }
    for order in orders where !order.isSettled {
      deferredLines.formUnion((notificationsByOrder[order.id] ?? []).map(\.line))
    }
    for order in orders where order.isSettled {
      stateEvents(
        order, isLast: !isWaiting && order.id == orders.last?.id,
        context: GooglePlayStateContext(order: order, chain: chain, resource: order.resource),
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
        id: "googleplay:\(Self.tokenKey(resource.key)):purchase_pending", kind: .purchasePending,
        subject: chain.subject, at: at, recorded: recorded(resource.knownAt),
        meta: Self.baseMeta(isTest: chain.isTest, resource: resource), line: resource.line,
        identity: "pending:" + resource.key
      ) { $0.product = ProductID(rawValue: product.id) })
  }

  /// The orders of a subscription, oldest first, with their periods.
  ///
  /// A period ends at the smallest `expiryTime` of the order's copies that are not in grace
  /// or on hold (deferrals only move it later; in grace Google reports the grace end). A
  /// renewal begins at the latest charge notification of the import before its end, else where
  /// the order before it ended, else (with a warning) when the token started. An order the ledger
  /// already charged keeps the period it got there, and an earlier order known only to the
  /// ledger still ends where the ledger says: what was learned is not re-derived.
  private mutating func orders(
    of key: String, resources: [GooglePlaySubscriptionPayload],
    notifications: [GooglePlayNotificationPayload]
  ) -> [GooglePlayOrder] {
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
      let transaction = orderID + resource.transactionSuffix
      guard transaction.utf8.count <= Limits.referenceBytesMax else {
        problems.error(
          resource.line,
          "field 'subscriptionPurchaseV2.lineItems[0].latestSuccessfulOrderId': longer than \(Limits.referenceBytesMax) bytes"
        )
        continue
      }
      let isReplaced = resource.cancellation == GooglePlayCancellation.replacement.rawValue
      if var known = byID[transaction] {
        let isKnownReplaced =
          known.resource.cancellation == GooglePlayCancellation.replacement.rawValue
        known.copies.append((state, item.expiryTime, isReplaced))
        known.copyKnownAts.append(recorded(resource.knownAt))
        if !isReplaced && (isKnownReplaced || item.expiryTime < known.item.expiryTime) {
          known.item = item
          known.resource = resource
        }
        byID[transaction] = known
      } else {
        byID[transaction] = GooglePlayOrder(
          id: transaction, renewalIndex: GooglePlayOrder.renewalIndex(of: orderID), item: item,
          resource: resource, copies: [(state, item.expiryTime, isReplaced)],
          start: item.expiryTime, end: item.expiryTime,
          copyKnownAts: [recorded(resource.knownAt)])
      }
    }
    let ledgerPeriods = ledgerPeriods(of: key, orders: &byID)
    let sorted = byID.values.sorted {
      ($0.renewalIndex ?? -1, $0.id) < ($1.renewalIndex ?? -1, $1.id)
    }
    let tokenStart = resources.compactMap(\.startTime).min()
    var orders: [GooglePlayOrder] = []
    for var order in sorted {
      order.end = periodEnd(of: order, notifications: notifications, tokenStart: tokenStart)
      let index = order.renewalIndex ?? -1
      // The order right before it: a renewal's start is looked for after that order began,
      // and a gap (an order not known yet) leaves it, and the orders after it, waiting.
      let previous =
        (orders.map { ($0.renewalIndex ?? -1, $0.start, $0.end) } + ledgerPeriods)
        .first { $0.0 == index - 1 }
      guard let start = periodStart(
        of: order, previous: previous.map { ($0.1, $0.2) }, notifications: notifications,
        tokenStart: tokenStart)
      else { break }
      order.start = start
      orders.append(order)
    }
    return orders
  }

  /// Periods the ledger holds for a subscription: its copy of an order this import shows
  /// (its start and end, noted in `orders`: the documents, not the ledger's first guess,
  /// give the end), and the earlier orders (returned, by renewal index).
  private func ledgerPeriods(of key: String, orders byID: inout [String: GooglePlayOrder])
    -> [(renewalIndex: Int, start: Timestamp, end: Timestamp)]
  {
    var periods: [(renewalIndex: Int, start: Timestamp, end: Timestamp)] = []
    for (transaction, charge) in knowledge.charges(ofSubscription: key) {
      guard let expires = charge.expires else { continue }
      if byID[transaction] != nil {
        byID[transaction]!.knownStart = charge.at
        byID[transaction]!.knownEnd = knowledge.periodEnd(of: transaction) ?? expires
      } else {
        let orderID = String(transaction.prefix { $0 != "#" })
        let end = knowledge.periodEnd(of: transaction) ?? expires
        periods.append((GooglePlayOrder.renewalIndex(of: orderID) ?? -1, charge.at, end))
      }
    }
    return periods
  }

  /// Where an order's paid period ends (before any deferral or grace).
  private mutating func periodEnd(
    of order: GooglePlayOrder, notifications: [GooglePlayNotificationPayload],
    tokenStart: Timestamp?
  ) -> Timestamp {
    // An expired copy's expiryTime is where the subscription finally ended, earlier than
    // the period's end when it was revoked: it counts only when nothing else is known.
    let live = order.expiries([.active, .canceled, .paused])
    let normal = live.isEmpty ? order.expiries([.expired]) : live
    let grace = order.expiries([.inGracePeriod])
    if let end = normal.min() { return end }
    if let graceEnd = grace.min(),
      let failed = notifications.last(where: {
        $0.kind == .inGracePeriod && $0.eventTime < graceEnd
          && $0.eventTime > (tokenStart ?? $0.eventTime)
      })
    {
      return failed.eventTime
    }
    if !grace.isEmpty {
      problems.warning(
        order.resource.line,
        "order '\(order.id)' is only known in grace, where expiryTime is the end of grace, and no SUBSCRIPTION_IN_GRACE_PERIOD tells when its period ended; its period is taken to end with the grace period"
      )
    }
    return order.copies.map(\.expiry).min()!
  }

  /// When an order's paid period began; nil when nothing tells (with an error, or for a
  /// renewal whose start a later document may tell, kept pending).
  private mutating func periodStart(
    of order: GooglePlayOrder, previous: (start: Timestamp, end: Timestamp)?,
    notifications: [GooglePlayNotificationPayload], tokenStart: Timestamp?
  ) -> Timestamp? {
    if let known = order.knownStart { return known }
    if order.renewalIndex == nil {
      guard let start = order.resource.startTime ?? tokenStart else {
        problems.error(
          order.resource.line,
          "field 'subscriptionPurchaseV2.startTime' is missing; it is required for the first order '\(order.id)'"
        )
        return nil
      }
      return start
    }
    // A renewal begins when Google charged it (SUBSCRIPTION_RENEWED, a recovery at
    // SUBSCRIPTION_RECOVERED): the first such notification after the order before it began.
    // Both must be known; a later document cannot then tell another start.
    // Its end must be settled too: an end taken from a grace copy reaches past the next
    // charge, whose notification would then be taken for this one's.
    if let previous, order.isSettled,
      let charge = notifications.first(where: { notification in
        (notification.kind == .renewed || notification.kind == .recovered)
          && notification.eventTime > previous.start && notification.eventTime < order.end
      })
    {
      return charge.eventTime
    }
    // Without it, nothing tells when the period began: where the previous period ended is a
    // guess that the notification, arriving later, may contradict (a recovery after a hold
    // begins later), and a charge cannot move. The renewal waits for its notification, unless
    // the importer was told that none will come.
    if options.startsRenewalsAtPreviousEnd, let previous {
      problems.warning(
        order.resource.line,
        "renewal order '\(order.id)': no SUBSCRIPTION_RENEWED/RECOVERED notification; its period begins where the previous one ended (--renewals-from-resources)"
      )
      return previous.end
    }
    if tokenStart != nil || previous != nil {
      deferredLines.formUnion(order.resource.isFromLedger ? [] : [order.resource.line])
      problems.warning(
        order.resource.line,
        "renewal order '\(order.id)': no SUBSCRIPTION_RENEWED/RECOVERED notification after the order before it tells when its period began (or no copy of it in the state it was charged in tells where it ends); the subscription's documents are kept (with --append) until all are imported"
      )
      return nil
    }
    problems.error(
      order.resource.line,
      "renewal order '\(order.id)': nothing in the import tells when its period began (no startTime, no notification)"
    )
    return nil
  }

  /// The `purchase` or `renewal` of one order; for an order the ledger already charged, a
  /// correction of its period end when the documents now tell another one.
  private mutating func chargeEvent(_ order: GooglePlayOrder, chain: GooglePlayChain) {
    if let knownEnd = order.knownEnd {
      if let known = knowledge.charges[order.id] {
        warnLatePrice(
          chargeID: known.id, orderID: order.item.orderID ?? order.id,
          productID: order.item.productID)
      }
      knownChargeEvents(order, chain: chain, knownEnd: knownEnd)
      // Learned earlier than the log knew it (a copy that came late): the same line again,
      // with this `recorded`, so the log knows the charge from then.
      if let event = charge(order, chain: chain),
        knowledge.events[event.event.id] == event.event.withoutRecorded,
        let since = knowledge.knownAt[event.event.id], event.knownAt < since
      {
        emit(event)
      }
      return
    }
    // Known only in grace, on hold or expired, the end is a guess: a charge written with it
    // would be known (as of) before the copy that tells its end. It waits for that copy.
    guard order.isSettled else {
      deferredLines.insert(order.resource.line)
      return
    }
    guard let event = charge(order, chain: chain) else { return }
    emit(event)
    if let reason = pricing(order).unpricedBecause {
      let orderID = order.item.orderID ?? order.id
      problems.warning(
        order.resource.line,
        "order '\(orderID)' is imported without a price: its line item has no offerPhase and \(reason), so autoRenewingPlan.recurringPrice (the current recurring price, without discounts and, for tax-exclusive pricing, without taxes) need not be what it charged; Google's Orders API (orders.get for '\(orderID)') tells the amount"
      )
    }
    revocationForKnownVoid(
      transaction: order.id, subject: chain.subject,
      meta: Self.baseMeta(isTest: chain.isTest, resource: order.resource), line: event.line,
      recorded: recorded(order.resource.knownAt))
  }

  /// The `purchase` or `renewal` of one order; nil (with an error) when it cannot be one.
  private mutating func charge(_ order: GooglePlayOrder, chain: GooglePlayChain) -> ImportedEvent? {
    let item = order.item
    let line = order.resource.line
    let itemPath = "subscriptionPurchaseV2.lineItems[0]"
    guard
      let product = product(
        item.productID, basePlanID: item.basePlanID, line: line, field: itemPath + ".productId")
    else { return nil }
    guard order.start < order.end else {
      problems.error(
        line,
        "field '\(itemPath).expiryTime': order '\(order.id)' ends at \(order.end.rfc3339), not after it began (\(order.start.rfc3339))"
      )
      return nil
    }
    var meta = Self.baseMeta(isTest: chain.isTest, resource: order.resource)
    if let basePlan = item.basePlanID { meta.append(("basePlanId", .string(basePlan))) }
    if let offerID = item.offerID { meta.append(("offerId", .string(offerID))) }
    meta += Self.installmentMeta(item)
    let kind: EventKind = product.kind == .autoRenewable && order.renewalIndex != nil ? .renewal : .purchase
    var event = NewEvent(
      id: EventID(rawValue: "googleplay:\(order.id):\(kind.name)"), kind: kind,
      subject: SubjectID(rawValue: chain.subject), at: order.start)
    event.product = ProductID(rawValue: product.id)
    event.transaction = TransactionID(rawValue: order.id)
    switch product.kind {
    case .autoRenewable:
      event.originalTransaction = TransactionID(rawValue: chain.root)
    case .nonRenewing:
      break
    case .nonConsumable, .consumable:
      problems.error(
        line,
        "field '\(itemPath).productId': Google sells '\(item.productID)' as a subscription, but the catalog has '\(product.id)' as \(product.kind.rawValue)"
      )
      return nil
    }
    event.expires = order.end
    let priced = pricing(order)
    priced.fields.set(on: &event)
    meta += priced.meta
    event.store = Self.storeName
    if event.country == nil { event.country = GooglePlayOrderPayload.validCountry(order.resource.regionCode) }
    if let phase = item.offerPhase, priced.meta.contains(where: { $0.0 == "offerPhase" }) {
      problems.unknownValue(
        line, field: itemPath + ".offerPhase", raw: .string(phase),
        consequence: "no offer recorded; kept raw in meta")
    }
    event.setMeta(meta)
    return ImportedEvent(event, recorded: order.firstKnownAt, line: line, identity: "charge:" + order.id)
  }
}

extension GooglePlayMapper {
  /// The offer, price and currency of an order's charge, and why it has no price when the
  /// line item's `recurringPrice` is not taken (nil: nothing to warn about).
  ///
  /// An order document (`orders.get`) for the order gives its price, tax and proceeds
  /// (`orderMoney`). Else `offerPhase` says which phase the order charged; without it (Google
  /// added it on 2026-01-27, older resources lack it) the recurring price is taken only when
  /// nothing marks the order as an offer's: an `offerDetails.offerId`, a `signupPromotion`, or
  /// a replaced token (the first order of an upgrade may be prorated).
  func pricing(_ order: GooglePlayOrder) -> (
    fields: GooglePlayChargeFields, meta: [(String, JSONValue)], unpricedBecause: String?
  ) {
    let item = order.item
    var offer = GooglePlayChargeFields()
    switch item.offerPhase {
    case "freeTrial"?: offer.offer = .trial
    case "introductoryPrice"?: offer.offer = .intro
    default: break
    }
    if var money = orderMoney(item.orderID ?? order.id, productID: item.productID) {
      money.fields.offer = offer.offer
      return (money.fields, money.meta, nil)
    }
    let price = GooglePlayChargeFields(price: item.recurringPrice?.thousandths, currency: item.recurringPrice?.currency)
    switch item.offerPhase {
    case "freeTrial"?, "introductoryPrice"?, "prorationPeriod"?: return (offer, [], nil)
    case "basePrice"?: return (price, [], nil)
    case let other?: return (GooglePlayChargeFields(), [("offerPhase", .string(other))], nil)
    case nil: break
    }
    guard item.recurringPrice != nil else { return (GooglePlayChargeFields(), [], nil) }
    if let offerID = item.offerID, !offerID.isEmpty {
      return (GooglePlayChargeFields(), [], "it was bought with offer '\(offerID)' (offerDetails.offerId)")
    }
    if order.resource.hasSignupPromotion {
      return (GooglePlayChargeFields(), [], "a promotion was applied at signup (signupPromotion)")
    }
    if order.renewalIndex == nil && order.resource.linkedToken != nil {
      return (
        GooglePlayChargeFields(), [],
        "it is the first order of a token that replaced another (linkedPurchaseToken), which may be prorated"
      )
    }
    return (price, [], nil)
  }

  /// A `renewal_extended` at the start of a charged period that sets its end to what the
  /// documents now tell (`knownEnd` was learned from fewer of them: a copy fetched in grace,
  /// after a deferral or after the end). At the charge's own instant and after it in the log,
  /// it leaves every answer as a charge with the right end would. Its id digests the fact and
  /// the end it corrects, so a correction back to an earlier value is a fact of its own.
  private mutating func periodEndCorrection(
    _ order: GooglePlayOrder, chain: GooglePlayChain, from knownEnd: Timestamp
  ) {
    var event = NewEvent(id: "", kind: .renewalExtended, subject: SubjectID(rawValue: chain.subject), at: order.start)
    event.expires = order.end
    event.originalTransaction = TransactionID(rawValue: chain.root)
    let digest = Self.digest(event, adding: [("corrects", .string(knownEnd.rfc3339))])
    let id = "googleplay:\(order.id):\(Self.periodEndName):\(digest)"
    event.id = EventID(rawValue: id)
    event.setMeta(
      Self.baseMeta(isTest: chain.isTest, resource: order.resource) + [("correctsExpires", .string(knownEnd.rfc3339))])
    emit(ImportedEvent(event, recorded: recorded(order.resource.knownAt), line: order.resource.line, identity: id))
  }

  /// What an order the ledger already charged still adds: a correction of its period end
  /// when the documents now tell another one, and its revocation under its subject.
  private mutating func knownChargeEvents(
    _ order: GooglePlayOrder, chain: GooglePlayChain, knownEnd: Timestamp
  ) {
    knownCharges += 1
    if knownEnd != order.end && order.start < order.end {
      periodEndCorrection(order, chain: chain, from: knownEnd)
    }
    revocationForKnownVoid(
      transaction: order.id, subject: chain.subject,
      meta: Self.baseMeta(isTest: chain.isTest, resource: order.resource),
      line: order.resource.line, recorded: recorded(order.resource.knownAt))
  }

  /// The name in the id of a period end correction (`googleplay:<transaction>:period_end:…`).
  static let periodEndName = "period_end"
}

extension Timestamp {
  /// Whether this instant is `other` or later.
  fileprivate func isAfterOrAt(_ other: Timestamp) -> Bool { self >= other }
}

extension GooglePlayNotificationPayload {
  /// The subscription notification type, when this is one this importer knows.
  var kind: GooglePlaySubscriptionNotificationType? {
    guard case .subscription(let type, _) = body else { return nil }
    return GooglePlaySubscriptionNotificationType(rawValue: type)
  }
}
