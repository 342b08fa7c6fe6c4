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
  /// Tier, usage-based trial and metered features; nil unless the catalog has a `policy`.
  public var policy: Policy?

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

  /// The catalog policy's verdicts at T (Docs/semantics.md, usage and policy).
  public struct Policy: Hashable, Codable, Sendable {
    /// The first tier that matches at T; nil when none does.
    public var tier: String?
    /// The usage-based trial; nil without one or before the subject's first counted event.
    public var trial: Trial?
    /// Every metered feature of the policy, by name.
    public var usage: [String: FeatureUsage]
  }

  /// The usage-based trial.
  public struct Trial: Hashable, Codable, Sendable {
    /// Where it stands at T.
    public var state: TrialState
    /// The subject's first counted event.
    public var started: Timestamp
    /// When it ended, or (before maturity) ends as known so far.
    public var ends: Timestamp
    /// `subscription`, `duration`, or the feature whose threshold matured it.
    public var endsBy: String
    /// The end of the grace after maturity; nil when it ended by subscription.
    public var graceEnds: Timestamp?
  }

  /// One metered feature.
  public struct FeatureUsage: Hashable, Codable, Sendable {
    /// Whether one more use is allowed at T.
    public var allowed: Bool
    /// The tier that allows it (else the first matching tier listing it); nil when none lists it.
    public var tier: String?
    /// Uses before T in the reported window.
    public var used: Int64
    /// The reported tier's limit; nil for unlimited.
    public var limit: Int64?
    /// Where the reported window ends; nil for a window that never resets.
    public var windowEnds: Timestamp?
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
    policy = answer.policy.map { policy in
      Policy(
        tier: policy.tier,
        trial: policy.trial.map {
          Trial(state: $0.state, started: $0.started, ends: $0.ends, endsBy: $0.endsBy, graceEnds: $0.graceEnds)
        },
        usage: Dictionary(
          policy.usage.map {
            (
              $0.feature,
              FeatureUsage(allowed: $0.allowed, tier: $0.tier, used: $0.used, limit: $0.limit, windowEnds: $0.windowEnds)
            )
          }, uniquingKeysWith: { first, _ in first }))
    }
  }

  private static func vocabulary<T: NamedVocabulary>(_ name: String) -> T {
    guard let value = T.named(name) else { preconditionFailure("the engine wrote an unknown name \(name)") }
    return value
  }
}
