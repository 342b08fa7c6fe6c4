/// The event types of Docs/log-format.md, as past-tense facts.
public enum EventKind: UInt8, Sendable, CaseIterable {
  case purchase
  case purchasePending
  case renewal
  case billingRetry
  case graceEntered
  case expiration
  case autoRenewChanged
  case planChanged
  case renewalExtended
  case revocation
  case refundReversed
  case consumption
  case usage

  /// The name used in the log's `type` field.
  public var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString {
    switch self {
    case .purchase: return "purchase"
    case .purchasePending: return "purchase_pending"
    case .renewal: return "renewal"
    case .billingRetry: return "billing_retry"
    case .graceEntered: return "grace_entered"
    case .expiration: return "expiration"
    case .autoRenewChanged: return "auto_renew_changed"
    case .planChanged: return "plan_changed"
    case .renewalExtended: return "renewal_extended"
    case .revocation: return "revocation"
    case .refundReversed: return "refund_reversed"
    case .consumption: return "consumption"
    case .usage: return "usage"
    }
  }

  /// Every type name, in the order of Docs/log-format.md.
  package static let allNames: [String] = allCases.map(\.name)

  /// The kind named `name` in the log.
  package init?(name: String) {
    guard let kind = EventKind.allCases.first(where: { $0.name == name }) else { return nil }
    self = kind
  }

  /// Whether an event of this kind can give access to an entitlement. Access only ever begins
  /// at such an event, so the trial's conversion is looked for at their instants only.
  var mayGrantAccess: Bool {
    switch self {
    case .usage, .consumption, .purchasePending: return false
    default: return true
    }
  }

  /// Required fields beyond `id`, `type`, `subject`, `at`.
  var required: FieldSet {
    switch self {
    case .purchase: return [.product, .transaction]
    case .purchasePending: return [.product]
    case .renewal: return [.product, .transaction, .originalTransaction, .expires]
    case .billingRetry: return [.originalTransaction]
    case .graceEntered: return [.originalTransaction, .graceExpires]
    case .expiration: return [.originalTransaction]
    case .autoRenewChanged: return [.originalTransaction, .autoRenew]
    case .planChanged: return [.originalTransaction, .product]
    case .renewalExtended: return [.originalTransaction, .expires]
    case .revocation: return [.transaction]
    case .refundReversed: return [.transaction]
    case .consumption: return [.currency, .quantity]
    case .usage: return [.feature]
    }
  }

  /// Optional fields beyond `recorded` and `meta`.
  var optional: FieldSet {
    switch self {
    case .purchase:
      return [.originalTransaction, .expires, .quantity, .ownership, .offer, .price, .currency]
    case .renewal: return [.offer, .price, .currency]
    case .expiration, .revocation: return [.reason]
    case .usage: return [.quantity]
    default: return []
    }
  }
}

/// `ownership`: bought by the subject or shared by a family organiser.
public enum Ownership: UInt8, Sendable, CaseIterable {
  case purchased
  case familyShared

  /// The name used in the log.
  public var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString { self == .purchased ? "purchased" : "family_shared" }
}

/// `offer`: the kind of price of a transaction; `normal` when absent.
public enum Offer: UInt8, Sendable, CaseIterable {
  case normal
  case trial
  case intro
  case promo
  case code
  case winBack

  /// The name used in the log and in answers' `period`.
  public var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString {
    switch self {
    case .normal: return "normal"
    case .trial: return "trial"
    case .intro: return "intro"
    case .promo: return "promo"
    case .code: return "code"
    case .winBack: return "win_back"
    }
  }
}

/// `expiration.reason`.
package enum ExpirationReason: UInt8, Sendable, CaseIterable {
  case voluntary
  case billing
  case priceIncrease
  case productUnavailable
  case other

  /// The name used in the log.
  package var name: String {
    switch self {
    case .voluntary: return "voluntary"
    case .billing: return "billing"
    case .priceIncrease: return "price_increase"
    case .productUnavailable: return "product_unavailable"
    case .other: return "other"
    }
  }
}

/// `revocation.reason`.
package enum RevocationReason: UInt8, Sendable, CaseIterable {
  case refund
  case familyRevoked
  case other

  /// The name used in the log.
  package var name: String {
    switch self {
    case .refund: return "refund"
    case .familyRevoked: return "family_revoked"
    case .other: return "other"
    }
  }
}
