/// One auto-renewable subscription, identified by (subject, original transaction).
public struct SubscriptionState: Sendable, Equatable {
  /// Whether a `purchase` or `renewal` has started tracking it.
  public var isKnown = false
  /// The original transaction that identifies it.
  public var originalTransaction: Symbol = .none
  /// The current transaction.
  public var transaction: Symbol = .none
  /// The current product.
  public var product: ProductIndex = .none
  /// The offer of the current transaction.
  public var offer: Offer = .normal
  /// Who owns it.
  public var ownership: Ownership = .purchased
  /// Start of the current period.
  public var periodStart = Timestamp.distantPast
  /// End of the current period (exclusive).
  public var expires = Timestamp.distantPast
  /// End of the grace period (exclusive), in state `grace`.
  public var graceExpires = Timestamp.distantPast
  /// The stored state (see `reportedStatus(at:)` for the state at an instant).
  public var status = SubscriptionStatus.active
  /// Whether it will renew.
  public var willRenew = true
  /// A pending product change that takes effect at renewal, or `.none`.
  public var renewsTo: ProductIndex = .none
  /// Line of the event that started the current period (ties in selection go to later lines).
  public var periodLine: UInt32 = 0

  /// The state reported at T: `active` past its end is `expired`; `grace` past its grace end is `billing_retry`.
  public func reportedStatus(at time: Timestamp) -> SubscriptionStatus {
    switch status {
    case .active: return time < expires ? .active : .expired
    case .grace: return time < graceExpires ? .grace : .billingRetry
    default: return status
    }
  }

  /// Whether the subscription gives access at T (half-open: `T == expires` has none).
  public func hasAccess(at time: Timestamp) -> Bool {
    switch status {
    case .active, .billingRetry: return time < expires
    case .grace: return time < graceExpires || time < expires
    case .expired, .revoked: return false
    }
  }
}
