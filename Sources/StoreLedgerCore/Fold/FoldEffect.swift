/// What applying one event touched, so explanations and rules read it instead of re-deriving it.
package struct FoldTouch: Sendable, Equatable {
  /// The subscription number it changed, or -1.
  package var subscription: Int32 = -1
  /// The position of the grant or credit it changed, or -1.
  package var item: Int32 = -1
  /// The balance it moved, if any.
  package var currency: Symbol? = nil
  /// How much it moved that balance (at most `Limits.amountMax` either way).
  package var balanceDelta: Int64 = 0
  /// Whether it started a new record (a purchase or renewal): earlier events no longer decide it.
  package var startsRecord = false

  /// Nothing touched (`purchase_pending`, `usage`: kept for reports and the policy).
  package init() {}

  init(subscription: Int, startsRecord: Bool = false) {
    self.subscription = Int32(subscription)
    self.startsRecord = startsRecord
  }

  init(item: Int, startsRecord: Bool = false) {
    self.item = Int32(item)
    self.startsRecord = startsRecord
  }
}

/// What applying one event did, so that `check` can warn about events that change nothing.
package enum FoldEffect: Sendable, Equatable {
  /// The event changed the state (or is kept only for reports, like `purchase_pending`).
  case applied(FoldTouch)
  /// It names a subscription the subject has no purchase or renewal for at that point.
  case unknownReference
  /// The subscription's state (`expired`, `revoked`) ignores this event type.
  case ignoredInState(SubscriptionStatus)
  /// It targets a transaction that is not the current one, or is already in that state.
  case noChange

  /// Whether the event changed the state.
  package var isApplied: Bool {
    if case .applied = self { return true }
    return false
  }
}
