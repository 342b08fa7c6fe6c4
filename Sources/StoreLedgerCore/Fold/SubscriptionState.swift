/// One auto-renewable subscription, identified by (subject, original transaction).
package struct SubscriptionState: Sendable, Equatable {
  /// Nothing known yet: a subscription no event has started.
  package init() {}

  /// Whether a `purchase` or `renewal` has started tracking it.
  package var isKnown = false
  /// The original transaction that identifies it.
  package var originalTransaction: Symbol = .none
  /// The current transaction.
  package var transaction: Symbol = .none
  /// The current product.
  package var product: ProductIndex = .none
  /// The offer of the current transaction.
  package var offer: Offer = .normal
  /// Who owns it.
  package var ownership: Ownership = .purchased
  /// Start of the current period.
  package var periodStart = Timestamp.distantPast
  /// End of the current period (exclusive).
  package var expires = Timestamp.distantPast
  /// End of the grace period (exclusive), in state `grace`.
  package var graceExpires = Timestamp.distantPast
  /// The stored state (see `reportedStatus(at:)` for the state at an instant).
  package var status = SubscriptionStatus.active
  /// Whether it will renew.
  package var willRenew = true
  /// A pending product change that takes effect at renewal, or `.none`.
  package var renewsTo: ProductIndex = .none
  /// Line of the event that started the current period (ties in selection go to later lines).
  package var periodLine: UInt32 = 0

  /// The state reported at T: `active` past its end is `expired`; `grace` past its grace end is `billing_retry`.
  package func reportedStatus(at time: Timestamp) -> SubscriptionStatus {
    switch status {
    case .active: return time < expires ? .active : .expired
    case .grace: return time < graceExpires ? .grace : .billingRetry
    default: return status
    }
  }

  /// When its grace period ends, only while the state reported at T is `grace` (what answers
  /// show as `grace_expires`, contract v1.3 section 5); nil in every other state.
  package func graceExpires(at time: Timestamp) -> Timestamp? {
    reportedStatus(at: time) == .grace ? graceExpires : nil
  }

  /// Whether the subscription gives access at T (half-open: `T == expires` has none).
  package func hasAccess(at time: Timestamp) -> Bool {
    switch status {
    case .active, .billingRetry: return time < expires
    case .grace: return time < graceExpires || time < expires
    case .expired, .revoked: return false
    }
  }
}
