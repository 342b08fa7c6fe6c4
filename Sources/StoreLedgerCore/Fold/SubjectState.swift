/// Everything one subject holds after some of its events, in effective order.
///
/// The fold is pure: `apply(_:context:)` reads only the event and the context,
/// never a clock or a file. Subscriptions are indexed by the subscription number
/// and grants or credits by the position the loader resolved into `Event.slot`,
/// so applying an event is O(1) apart from the (few) currencies.
package struct SubjectState: Sendable, Equatable {
  /// Subscriptions by subscription number.
  package var subscriptions: [SubscriptionState] = []
  /// Grants and consumable credits by position within the subject's events.
  package var items: [ItemState] = []
  /// Balances in currencies touched so far, in first-touched order.
  package var balances: [BalanceState] = []
  /// Positions in `items` of non-consumable grants applied so far (what entitlements come from).
  package var grantPositions: [Int] = []
  /// Per blocking service, its deciding block or unblock, in first-seen order (contract v1.3).
  package var blocks: [BlockState] = []
  /// Whether any `block` or `unblock` was applied (an answer then has `blocked`).
  package var hasBlockEvents = false

  /// An empty state.
  package init() {}

  /// Empties the state for a subject with the given shape, keeping buffers.
  /// - Complexity: O(`subscriptionCount` + `itemCount`).
  package mutating func reset(subscriptionCount: Int, itemCount: Int) {
    subscriptions.removeAll(keepingCapacity: true)
    subscriptions.append(contentsOf: repeatElement(SubscriptionState(), count: subscriptionCount))
    items.removeAll(keepingCapacity: true)
    items.append(contentsOf: repeatElement(ItemState(), count: itemCount))
    balances.removeAll(keepingCapacity: true)
    grantPositions.removeAll(keepingCapacity: true)
    blocks.removeAll(keepingCapacity: true)
    hasBlockEvents = false
  }

  /// Whether some service blocks the entitlement with catalog index `entitlement`.
  /// - Complexity: O(services).
  package func isBlocked(_ entitlement: Int) -> Bool {
    for block in blocks where block.blocks(entitlement) { return true }
    return false
  }

  /// The balance of `currency`, or nil when it was never touched.
  package func balance(_ currency: Symbol) -> Int64? {
    balances.first(where: { $0.currency == currency })?.amount
  }

  /// Adds `delta` to the balance of `currency`, touching it.
  package mutating func credit(_ currency: Symbol, _ delta: Int64) {
    if let index = balances.firstIndex(where: { $0.currency == currency }) {
      balances[index].amount = saturatingAdd(balances[index].amount, delta)
    } else {
      balances.append(BalanceState(currency: currency, amount: delta))
    }
  }

  /// Whether a subscription or grant gives `entitlement` (an index into the catalog's
  /// entitlement names) at T; false for a negative index.
  /// - Complexity: O(subscriptions + grants).
  package func hasEntitlement(_ entitlement: Int, at time: Timestamp, catalog: Catalog) -> Bool {
    guard entitlement >= 0 else { return false }
    // A blocked entitlement is not active for any rule (contract v1.3, section 10).
    if hasBlockEvents && isBlocked(entitlement) { return false }
    for sub in subscriptions where sub.isKnown && sub.hasAccess(at: time) {
      if catalog.entitlementIndices[Int(sub.product.rawValue)].contains(entitlement) { return true }
    }
    for position in grantPositions where items[position].hasAccess(at: time) {
      if items[position].gives(entitlement, catalog: catalog) { return true }
    }
    return false
  }

  /// Applies one event (Docs/semantics.md) and says what it did.
  package mutating func apply(_ event: Event, context: FoldContext) -> FoldEffect {
    let slot = Int(event.slot)
    switch event.kind {
    case .purchase:
      let catalog = context.catalog
      switch catalog.kind(event.product) {
      case .autoRenewable:
        startPeriod(&subscriptions[slot], event, isPurchase: true)
        return .applied(FoldTouch(subscription: slot, startsRecord: true))
      case .nonRenewing, .nonConsumable:
        var item = ItemState()
        item.isApplied = true
        item.start = event.at
        if event.hasExpires {
          item.end = event.expires
        } else if let duration = catalog.grantDurations[Int(event.product.rawValue)] {
          item.end = duration.added(to: event.at)
        }
        item.product = event.product
        item.ownership = event.ownership
        item.offer = event.offer
        item.line = event.line
        items[slot] = item
        grantPositions.append(slot)
        return .applied(FoldTouch(item: slot, startsRecord: true))
      case .consumable:
        var item = ItemState()
        item.isApplied = true
        item.start = event.at
        item.product = event.product
        item.line = event.line
        let (amount, overflow) = event.quantity.multipliedReportingOverflow(
          by: catalog.units[Int(event.product.rawValue)])
        item.credited = overflow ? Int64.max : amount
        items[slot] = item
        let currency = context.productCurrencies[Int(event.product.rawValue)]
        credit(currency, item.credited)
        var touch = FoldTouch(item: slot, startsRecord: true)
        touch.currency = currency
        touch.balanceDelta = item.credited
        return .applied(touch)
      }
    case .renewal:
      startPeriod(&subscriptions[slot], event, isPurchase: false)
      return .applied(FoldTouch(subscription: slot, startsRecord: true))
    case .purchasePending, .usage:
      // Kept for reports; usage is counted by the policy, not by this state.
      return .applied(FoldTouch())
    case .consumption:
      credit(event.balanceCurrency, -event.quantity)
      var touch = FoldTouch()
      touch.currency = event.balanceCurrency
      touch.balanceDelta = -event.quantity
      return .applied(touch)
    case .revocation, .refundReversed:
      return applyRefund(event, context: context)
    case .refundRequested, .refundDeclined:
      // A record of what the customer and the store said; it changes no access, balance or revenue.
      return event.targetProduct.isSome ? .noChange : .unknownReference
    case .grant, .grantRevoked, .block, .unblock:
      return applyAccess(event)
    case .transfer:
      // Who owns a unit is decided before the fold, by `OwnerChains`: a state never changes by it.
      return .noChange
    case .billingRetry, .graceEntered, .expiration, .autoRenewChanged, .planChanged,
      .renewalExtended:
      guard slot < subscriptions.count, subscriptions[slot].isKnown else { return .unknownReference }
      return Self.applyToSubscription(&subscriptions[slot], event, slot: slot)
    }
  }

  /// A support grant, its revocation, or a service's block or unblock (contract v1.3, section 10).
  private mutating func applyAccess(_ event: Event) -> FoldEffect {
    let slot = Int(event.slot)
    switch event.kind {
    case .grant:
      // Field by field: a revocation effective first has already set `revokedFrom`.
      items[slot].isApplied = true
      items[slot].isGrant = true
      items[slot].start = event.at
      items[slot].end = event.hasExpires ? event.expires : .distantFuture
      items[slot].entitlementMask = event.entitlementMask
      items[slot].line = event.line
      grantPositions.append(slot)
      return .applied(FoldTouch(item: slot, startsRecord: true))
    case .grantRevoked:
      guard event.slot != UInt32.max else { return .unknownReference }
      items[slot].revokedFrom = min(items[slot].revokedFrom, event.at)
      return .applied(FoldTouch(item: slot))
    default:
      hasBlockEvents = true
      let decided = BlockState(
        service: event.service, isBlocking: event.kind == .block, entitlementMask: event.entitlementMask,
        since: event.at, reason: event.accessReason)
      if let index = blocks.firstIndex(where: { $0.service == event.service }) {
        blocks[index] = decided
      } else {
        blocks.append(decided)
      }
      return .applied(FoldTouch())
    }
  }

  private func startPeriod(_ sub: inout SubscriptionState, _ event: Event, isPurchase: Bool) {
    if !sub.isKnown {
      sub.isKnown = true
      sub.originalTransaction =
        event.originalTransaction.isSome ? event.originalTransaction : event.transaction
      sub.ownership = .purchased
    }
    if isPurchase { sub.ownership = event.ownership }
    sub.transaction = event.transaction
    sub.product = event.product
    sub.offer = event.offer
    sub.periodStart = event.at
    sub.expires = event.expires
    sub.graceExpires = Timestamp.distantPast
    sub.status = .active
    sub.willRenew = true
    if sub.renewsTo == event.product { sub.renewsTo = .none }
    sub.periodLine = event.line
  }

  private static func applyToSubscription(_ sub: inout SubscriptionState, _ event: Event, slot: Int)
    -> FoldEffect
  {
    let isClosed = sub.status == .expired || sub.status == .revoked
    switch event.kind {
    case .billingRetry:
      if isClosed { return .ignoredInState(sub.status) }
      sub.status = .billingRetry
    case .graceEntered:
      if isClosed { return .ignoredInState(sub.status) }
      sub.status = .grace
      sub.graceExpires = event.expires
    case .expiration:
      if isClosed { return .ignoredInState(sub.status) }
      sub.status = .expired
      sub.willRenew = false
    case .autoRenewChanged:
      sub.willRenew = event.autoRenew
    case .planChanged:
      sub.renewsTo = event.product == sub.product ? .none : event.product
    case .renewalExtended:
      if isClosed { return .ignoredInState(sub.status) }
      sub.expires = event.expires
      if sub.status == .billingRetry || sub.status == .grace { sub.status = .active }
    default:
      preconditionFailure("not a subscription event: \(event.kind)")
    }
    return .applied(FoldTouch(subscription: slot))
  }

  /// What a consumable revocation debits: its packs (`quantity` × the product's units, at most
  /// what the purchase credited) or, without `quantity`, the whole credit.
  private static func debit(of event: Event, item: ItemState, context: FoldContext) -> Int64 {
    guard event.quantity > 0 else { return item.credited }
    let (amount, overflow) = event.quantity.multipliedReportingOverflow(
      by: context.catalog.units[Int(event.targetProduct.rawValue)])
    return overflow ? item.credited : min(amount, item.credited)
  }

  private mutating func applyRefund(_ event: Event, context: FoldContext) -> FoldEffect {
    guard event.targetProduct.isSome else { return .unknownReference }
    let slot = Int(event.slot)
    let isRevocation = event.kind == .revocation
    var touch: FoldTouch
    switch context.catalog.kind(event.targetProduct) {
    case .autoRenewable:
      guard subscriptions[slot].isKnown, subscriptions[slot].transaction == event.transaction else {
        return .noChange
      }
      if isRevocation {
        guard subscriptions[slot].status != .revoked else { return .noChange }
        subscriptions[slot].status = .revoked
      } else {
        guard subscriptions[slot].status == .revoked else { return .noChange }
        subscriptions[slot].status = .active
      }
      touch = FoldTouch(subscription: slot)
    case .nonRenewing, .nonConsumable, .consumable:
      guard items[slot].isApplied, items[slot].isRevoked != isRevocation else { return .noChange }
      items[slot].isRevoked = isRevocation
      touch = FoldTouch(item: slot)
      if context.catalog.kind(event.targetProduct) == .consumable {
        let currency = context.productCurrencies[Int(event.targetProduct.rawValue)]
        if isRevocation { items[slot].debited = Self.debit(of: event, item: items[slot], context: context) }
        let delta = isRevocation ? -items[slot].debited : items[slot].debited
        credit(currency, delta)
        touch.currency = currency
        touch.balanceDelta = delta
      }
    }
    return .applied(touch)
  }
}
