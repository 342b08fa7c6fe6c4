/// What a subject held at an instant, as known at another: the typed form of an answer
/// (Docs/semantics.md, "Answers").
public struct Holdings: Hashable, Codable, Sendable {
  /// The subject asked about.
  public var subject: SubjectID
  /// The effective time T.
  public var at: Timestamp
  /// The knowledge time R; nil means everything the log knows.
  public var asOf: Timestamp?
  /// Active entitlements by entitlement id.
  public var entitlements: [String: Entitlement]
  /// The plan of each subscription group the subject ever subscribed in, by group.
  public var plans: [String: Plan]
  /// Consumable balances by currency (negative after a refund of spent units).
  public var balances: [String: Int64]

  /// One active entitlement.
  public struct Entitlement: Hashable, Codable, Sendable {
    /// The product granting it.
    public var product: ProductID
    /// The subscription state; `active` for one-time purchases.
    public var state: SubscriptionStatus
    /// When access ends; nil for never.
    public var expires: Timestamp?
    /// Bought by the subject or shared by its family.
    public var ownership: Ownership
    /// The offer of the granting transaction.
    public var period: Offer
  }

  /// The plan of one subscription group.
  public struct Plan: Hashable, Codable, Sendable {
    /// The current product.
    public var product: ProductID
    /// The state at T.
    public var state: SubscriptionStatus
    /// End of the current period.
    public var expires: Timestamp
    /// Whether it renews at `expires`.
    public var willRenew: Bool
    /// The product it changes to at renewal, if one is pending.
    public var renewsTo: ProductID?
    /// The offer of the current transaction.
    public var period: Offer
    /// Bought by the subject or shared by its family.
    public var ownership: Ownership
    /// The transaction that started the subscription.
    public var originalTransaction: TransactionID
    /// The current period's transaction.
    public var transaction: TransactionID
  }

  /// Whether the subject holds `entitlement` at T.
  public func has(_ entitlement: String) -> Bool { entitlements[entitlement] != nil }
}

extension Holdings {
  /// The typed form of an engine answer (whose names come from the same enums).
  init(_ answer: Answer) {
    subject = SubjectID(rawValue: answer.subject)
    at = answer.at
    asOf = answer.asOf
    entitlements = [:]
    for item in answer.entitlements {
      entitlements[item.entitlement] = Entitlement(
        product: ProductID(rawValue: item.product), state: Self.vocabulary(item.state),
        expires: item.expires, ownership: Self.vocabulary(item.ownership), period: Self.vocabulary(item.period))
    }
    plans = [:]
    for plan in answer.plans {
      plans[plan.group] = Plan(
        product: ProductID(rawValue: plan.product), state: Self.vocabulary(plan.state), expires: plan.expires,
        willRenew: plan.willRenew, renewsTo: plan.renewsTo.map { ProductID(rawValue: $0) },
        period: Self.vocabulary(plan.period), ownership: Self.vocabulary(plan.ownership),
        originalTransaction: TransactionID(rawValue: plan.originalTransaction),
        transaction: TransactionID(rawValue: plan.transaction))
    }
    balances = Dictionary(answer.balances.map { ($0.currency, $0.amount) }, uniquingKeysWith: { first, _ in first })
  }

  private static func vocabulary<T: NamedVocabulary>(_ name: String) -> T {
    guard let value = T.named(name) else { preconditionFailure("the engine wrote an unknown name \(name)") }
    return value
  }
}
