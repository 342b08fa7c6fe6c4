/// The billing state of an auto-renewable subscription (Docs/semantics.md).
public enum SubscriptionStatus: UInt8, Sendable {
  case active
  case billingRetry
  case grace
  case expired
  case revoked

  /// The name used in answers.
  public var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  public var staticName: StaticString {
    switch self {
    case .active: return "active"
    case .billingRetry: return "billing_retry"
    case .grace: return "grace"
    case .expired: return "expired"
    case .revoked: return "revoked"
    }
  }
}

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

/// A grant of a non-renewing or non-consumable product, or a consumable credit.
public struct ItemState: Sendable, Equatable {
  /// Whether its purchase has been applied.
  public var isApplied = false
  /// Whether it is currently revoked.
  public var isRevoked = false
  /// Grant start (the purchase's `at`).
  public var start = Timestamp.distantPast
  /// Grant end (exclusive); `distantFuture` for ever.
  public var end = Timestamp.distantFuture
  /// Units credited (consumables).
  public var credited: Int64 = 0
  /// The product bought.
  public var product: ProductIndex = .none
  /// Who owns it.
  public var ownership: Ownership = .purchased
  /// The offer of the purchase.
  public var offer: Offer = .normal
  /// The purchase's line.
  public var line: UInt32 = 0

  /// Whether the grant gives access at T (half-open `[start, end)`).
  public func hasAccess(at time: Timestamp) -> Bool {
    isApplied && !isRevoked && start <= time && time < end
  }
}

/// A balance in one currency.
public struct BalanceState: Sendable, Equatable {
  /// The currency.
  public var currency: Symbol
  /// Units held; negative after a refund of spent units.
  public var amount: Int64
}
