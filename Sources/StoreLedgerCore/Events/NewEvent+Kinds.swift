// One constructor per event type, taking the fields Docs/log-format.md requires of it as
// parameters and the ones it allows as defaulted parameters: a purchase without a
// transaction does not compile. `recorded` and `meta` may be set on the result.

extension NewEvent {
  /// Why a subscription expired (`expiration`'s `reason`): the log's closed set, so no other
  /// name can be built (`rawValue` is the name in the log).
  public enum ExpirationReason: String, Hashable, Sendable {
    /// The subscriber turned auto-renew off.
    case voluntary
    /// Billing failed past retry and grace.
    case billing
    /// The subscriber did not accept a price increase.
    case priceIncrease = "price_increase"
    /// The product was no longer offered.
    case productUnavailable = "product_unavailable"
    /// Any other reason.
    case other
  }

  /// Why a transaction was revoked (`revocation`'s `reason`; `rawValue` is the name in the log).
  public enum RevocationReason: String, Hashable, Sendable {
    /// Refunded.
    case refund
    /// Family sharing was withdrawn.
    case familyRevoked = "family_revoked"
    /// Any other reason.
    case other
  }

  /// Why a customer asked the store for a refund (`refund_requested`'s `reason`, contract v1.3,
  /// section 11; `rawValue` is the name in the log).
  public enum RefundRequestReason: String, Hashable, Sendable {
    /// The customer did not mean to buy.
    case unintendedPurchase = "unintended_purchase"
    /// What was bought was not delivered or did not work.
    case fulfillmentIssue = "fulfillment_issue"
    /// The customer was not satisfied.
    case unsatisfied
    /// A legal reason.
    case legal
    /// Any other reason.
    case other
  }

  private mutating func setSale(store: String?, country: String?, proceeds: Int64?) {
    self.store = store
    self.country = country
    self.proceeds = proceeds
  }

  private init(_ id: EventID, _ kind: EventKind, _ subject: SubjectID, _ at: Timestamp, _ fill: (inout NewEvent) -> Void) {
    self.init(id: id, kind: kind, subject: subject, at: at)
    fill(&self)
  }

  /// A purchase charging `transaction` for `product` (a subscription's first period needs
  /// `expires`; a consumable may buy several `quantity`); `store`, `country` and `proceeds` as
  /// contract v1.3 section 11 has them.
  public static func purchase(
    id: EventID, subject: SubjectID, at: Timestamp, product: ProductID, transaction: TransactionID,
    originalTransaction: TransactionID? = nil, expires: Timestamp? = nil, quantity: Int64? = nil,
    ownership: Ownership? = nil, offer: Offer? = nil, price: Int64? = nil, currency: String? = nil,
    store: String? = nil, country: String? = nil, proceeds: Int64? = nil
  ) -> NewEvent {
    NewEvent(id, .purchase, subject, at) {
      $0.setSale(store: store, country: country, proceeds: proceeds)
      $0.product = product
      $0.transaction = transaction
      $0.originalTransaction = originalTransaction
      $0.expires = expires
      $0.quantity = quantity
      $0.ownership = ownership
      $0.offer = offer
      $0.price = price
      $0.currency = currency
    }
  }

  /// A purchase waiting for approval (Ask to Buy): grants nothing yet.
  public static func purchasePending(id: EventID, subject: SubjectID, at: Timestamp, product: ProductID) -> NewEvent {
    NewEvent(id, .purchasePending, subject, at) { $0.product = product }
  }

  /// A subscription renewed: `transaction` charges the period ending at `expires`.
  public static func renewal(
    id: EventID, subject: SubjectID, at: Timestamp, product: ProductID, transaction: TransactionID,
    originalTransaction: TransactionID, expires: Timestamp, offer: Offer? = nil, price: Int64? = nil,
    currency: String? = nil, store: String? = nil, country: String? = nil, proceeds: Int64? = nil
  ) -> NewEvent {
    NewEvent(id, .renewal, subject, at) {
      $0.setSale(store: store, country: country, proceeds: proceeds)
      $0.product = product
      $0.transaction = transaction
      $0.originalTransaction = originalTransaction
      $0.expires = expires
      $0.offer = offer
      $0.price = price
      $0.currency = currency
    }
  }

  /// Billing failed; the store retries.
  public static func billingRetry(id: EventID, subject: SubjectID, at: Timestamp, originalTransaction: TransactionID)
    -> NewEvent
  {
    NewEvent(id, .billingRetry, subject, at) { $0.originalTransaction = originalTransaction }
  }

  /// Billing failed; access continues until `graceExpires`.
  public static func graceEntered(
    id: EventID, subject: SubjectID, at: Timestamp, originalTransaction: TransactionID, graceExpires: Timestamp
  ) -> NewEvent {
    NewEvent(id, .graceEntered, subject, at) {
      $0.originalTransaction = originalTransaction
      $0.graceExpires = graceExpires
    }
  }

  /// The subscription ended.
  public static func expiration(
    id: EventID, subject: SubjectID, at: Timestamp, originalTransaction: TransactionID,
    reason: ExpirationReason? = nil
  ) -> NewEvent {
    NewEvent(id, .expiration, subject, at) {
      $0.originalTransaction = originalTransaction
      $0.reason = reason?.rawValue
    }
  }

  /// Auto-renew was turned on or off.
  public static func autoRenewChanged(
    id: EventID, subject: SubjectID, at: Timestamp, originalTransaction: TransactionID, autoRenew: Bool
  ) -> NewEvent {
    NewEvent(id, .autoRenewChanged, subject, at) {
      $0.originalTransaction = originalTransaction
      $0.autoRenew = autoRenew
    }
  }

  /// The subscription changes to `product` at its next renewal.
  public static func planChanged(
    id: EventID, subject: SubjectID, at: Timestamp, originalTransaction: TransactionID, product: ProductID
  ) -> NewEvent {
    NewEvent(id, .planChanged, subject, at) {
      $0.originalTransaction = originalTransaction
      $0.product = product
    }
  }

  /// The current period was extended to `expires` (a goodwill extension).
  public static func renewalExtended(
    id: EventID, subject: SubjectID, at: Timestamp, originalTransaction: TransactionID, expires: Timestamp
  ) -> NewEvent {
    NewEvent(id, .renewalExtended, subject, at) {
      $0.originalTransaction = originalTransaction
      $0.expires = expires
    }
  }

  /// `transaction` was revoked (a refund is a revocation with `reason: .refund`); a partial refund
  /// gives the amount `refunded` (minor units) or, for a consumable pack, the `quantity` revoked.
  public static func revocation(
    id: EventID, subject: SubjectID, at: Timestamp, transaction: TransactionID, reason: RevocationReason? = nil,
    refunded: Int64? = nil, quantity: Int64? = nil
  ) -> NewEvent {
    NewEvent(id, .revocation, subject, at) {
      $0.transaction = transaction
      $0.reason = reason?.rawValue
      $0.refunded = refunded
      $0.quantity = quantity
    }
  }

  /// The customer asked the store to refund `transaction`, to be answered by `respondBy` (contract v1.3, section 11).
  public static func refundRequested(
    id: EventID, subject: SubjectID, at: Timestamp, transaction: TransactionID, reason: RefundRequestReason? = nil,
    respondBy: Timestamp? = nil
  ) -> NewEvent {
    NewEvent(id, .refundRequested, subject, at) {
      $0.transaction = transaction
      $0.reason = reason?.rawValue
      $0.respondBy = respondBy
    }
  }

  /// The store declined to refund `transaction`.
  public static func refundDeclined(id: EventID, subject: SubjectID, at: Timestamp, transaction: TransactionID)
    -> NewEvent
  {
    NewEvent(id, .refundDeclined, subject, at) { $0.transaction = transaction }
  }

  /// A refund of `transaction` was reversed.
  public static func refundReversed(id: EventID, subject: SubjectID, at: Timestamp, transaction: TransactionID)
    -> NewEvent
  {
    NewEvent(id, .refundReversed, subject, at) { $0.transaction = transaction }
  }

  /// `quantity` units of `currency` were spent.
  public static func consumption(id: EventID, subject: SubjectID, at: Timestamp, currency: String, quantity: Int64)
    -> NewEvent
  {
    NewEvent(id, .consumption, subject, at) {
      $0.currency = currency
      $0.quantity = quantity
    }
  }

  /// The subscription `originalTransaction` moved from `subject` to `to` from `at` on (contract v1.3, section 9).
  public static func transfer(
    id: EventID, subject: SubjectID, at: Timestamp, to: SubjectID, originalTransaction: TransactionID
  ) -> NewEvent {
    NewEvent(id, .transfer, subject, at) {
      $0.to = to
      $0.originalTransaction = originalTransaction
    }
  }

  /// The non-consumable or non-renewing purchase `transaction` moved from `subject` to `to` from `at` on.
  public static func transfer(id: EventID, subject: SubjectID, at: Timestamp, to: SubjectID, transaction: TransactionID)
    -> NewEvent
  {
    NewEvent(id, .transfer, subject, at) {
      $0.to = to
      $0.transaction = transaction
    }
  }

  /// Support gave `entitlements` from `at`, until `expires` or for ever (contract v1.3, section 10).
  public static func grant(
    id: EventID, subject: SubjectID, at: Timestamp, entitlements: [String], expires: Timestamp? = nil,
    reason: String? = nil
  ) -> NewEvent {
    NewEvent(id, .grant, subject, at) {
      $0.entitlements = entitlements
      $0.expires = expires
      $0.reason = reason
    }
  }

  /// Ends the grant whose event id is `grant` from `at` on (contract v1.3, section 10).
  public static func grantRevoked(id: EventID, subject: SubjectID, at: Timestamp, grant: EventID, reason: String? = nil)
    -> NewEvent
  {
    NewEvent(id, .grantRevoked, subject, at) {
      $0.grant = grant
      $0.reason = reason
    }
  }

  /// `service` denies `entitlements` (nil: every one) from `at` until its `unblock`.
  public static func block(
    id: EventID, subject: SubjectID, at: Timestamp, service: String, entitlements: [String]? = nil,
    reason: String? = nil
  ) -> NewEvent {
    NewEvent(id, .block, subject, at) {
      $0.service = service
      $0.entitlements = entitlements
      $0.reason = reason
    }
  }

  /// `service` lifts its block from `at` on.
  public static func unblock(id: EventID, subject: SubjectID, at: Timestamp, service: String, reason: String? = nil)
    -> NewEvent
  {
    NewEvent(id, .unblock, subject, at) {
      $0.service = service
      $0.reason = reason
    }
  }

  /// `feature` of the catalog's policy was used (`quantity` times; negative releases).
  public static func usage(
    id: EventID, subject: SubjectID, at: Timestamp, feature: FeatureID, quantity: Int64? = nil
  ) -> NewEvent {
    NewEvent(id, .usage, subject, at) {
      $0.feature = feature.rawValue
      $0.quantity = quantity
    }
  }
}
