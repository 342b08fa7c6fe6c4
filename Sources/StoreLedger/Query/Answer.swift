/// One entitlement active at T (CONTRACT §5).
public struct EntitlementAnswer: Sendable, Equatable {
  /// The entitlement id.
  public var entitlement: String
  /// The product granting it.
  public var product: String
  /// Subscription state for auto-renewables, `active` otherwise.
  public var state: String
  /// When the grant ends; nil for never.
  public var expires: Timestamp?
  /// `purchased` or `family_shared`.
  public var ownership: String
  /// The offer of the granting transaction, or `normal`.
  public var period: String
}

/// The plan in one subscription group at T (CONTRACT §5).
public struct PlanAnswer: Sendable, Equatable {
  /// The subscription group.
  public var group: String
  /// The current product.
  public var product: String
  /// The state reported at T.
  public var state: String
  /// End of the current period.
  public var expires: Timestamp
  /// Whether it will renew.
  public var willRenew: Bool
  /// A pending product change, or nil.
  public var renewsTo: String?
  /// The offer of the current transaction, or `normal`.
  public var period: String
  /// `purchased` or `family_shared`.
  public var ownership: String
  /// The original transaction.
  public var originalTransaction: String
  /// The current transaction.
  public var transaction: String
}

/// An event that decided part of an answer (for `--explain`).
public struct Evidence: Sendable, Equatable {
  /// The event id.
  public var id: String
  /// Its line in the log.
  public var line: Int
}

/// What a subject held at (at, as_of).
public struct Answer: Sendable, Equatable {
  /// The subject asked about.
  public var subject: String
  /// Effective time T.
  public var at: Timestamp
  /// Knowledge time R, or nil for "everything known".
  public var asOf: Timestamp?
  /// Active entitlements, sorted by id.
  public var entitlements: [EntitlementAnswer]
  /// Plans, sorted by group.
  public var plans: [PlanAnswer]
  /// Balances, sorted by currency.
  public var balances: [(currency: String, amount: Int64)]
  /// Tier, trial and usage, when the catalog has a policy.
  public var policy: PolicyAnswer? = nil
  /// Set for a cached answer (`--cached-at`).
  public var cache: CacheAnswer? = nil
  /// Deciding events per entitlement, plan and balance (when explained).
  public var explanation: Explanation?

  public static func == (a: Answer, b: Answer) -> Bool {
    a.subject == b.subject && a.at == b.at && a.asOf == b.asOf && a.entitlements == b.entitlements
      && a.plans == b.plans && a.balances.elementsEqual(b.balances, by: { $0 == $1 })
      && a.policy == b.policy && a.cache == b.cache && a.explanation == b.explanation
  }
}

/// The events behind each part of an answer.
public struct Explanation: Sendable, Equatable {
  /// By entitlement id.
  public var entitlements: [(String, [Evidence])]
  /// By group.
  public var plans: [(String, [Evidence])]
  /// By currency.
  public var balances: [(String, [Evidence])]
  /// By feature, when the catalog has a policy.
  public var usage: [UsageEvidence] = []

  public static func == (a: Explanation, b: Explanation) -> Bool {
    func same(_ x: [(String, [Evidence])], _ y: [(String, [Evidence])]) -> Bool {
      x.elementsEqual(y, by: { $0.0 == $1.0 && $0.1 == $1.1 })
    }
    return same(a.entitlements, b.entitlements) && same(a.plans, b.plans)
      && same(a.balances, b.balances) && a.usage == b.usage
  }
}

/// The usage-based trial in an answer.
public struct TrialAnswer: Sendable, Hashable {
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

/// One metered feature in an answer.
public struct FeatureUsageAnswer: Sendable, Hashable {
  /// The feature's name.
  public var feature: String
  /// Whether one more use is allowed at T.
  public var allowed: Bool
  /// The tier that allows it (or, when none does, the first matching tier listing it); nil when none lists it.
  public var tier: String?
  /// Uses before T in the reported window (releases count negative; not clamped).
  public var used: Int64
  /// The reported tier's limit; nil for unlimited.
  public var limit: Int64?
  /// Where the reported window ends; nil for `ever`.
  public var windowEnds: Timestamp?
}

/// The policy part of an answer: present exactly when the catalog has a policy.
public struct PolicyAnswer: Sendable, Hashable {
  /// The first tier that matches at T; nil when none does.
  public var tier: String?
  /// The trial; nil without a trial section or when no event of the subject counts.
  public var trial: TrialAnswer?
  /// Every feature of the policy, sorted by name.
  public var usage: [FeatureUsageAnswer]
}

/// How a cached answer relates to its last verification (present only for cached answers).
public struct CacheAnswer: Sendable, Hashable {
  /// When the app last verified with the server (the answer's knowledge time).
  public var verifiedAt: Timestamp
  /// Whether T is past the staleness budget, so nothing is shown as active.
  public var isStale: Bool
}

/// Usage evidence for `--explain`: the tier that decided a feature and the uses counted.
public struct UsageEvidence: Sendable, Equatable {
  /// The feature.
  public var feature: String
  /// The reported tier, nil when none lists the feature.
  public var tier: String?
  /// The `usage` events counted in `used`.
  public var events: [Evidence]
}

/// The answer to "may this subject use this feature once more at T?".
public struct Permission: Sendable, Hashable {
  /// The subject asked about.
  public var subject: String
  /// Effective time T.
  public var at: Timestamp
  /// Knowledge time (or the cache's verification time); nil for everything known.
  public var asOf: Timestamp?
  /// The subject's tier at T.
  public var tier: String?
  /// The feature's usage answer (allowed, reported tier, used, limit, window end).
  public var usage: FeatureUsageAnswer
  /// When not allowed: the first tier the subject is not in that would allow it.
  public var wouldAllow: String?
}

/// A use the policy did not allow when it happened, as known then (premium access below the paywall).
public struct Leak: Sendable, Hashable {
  /// The subject.
  public var subject: String
  /// The `usage` event's id.
  public var id: String
  /// Its line in the log.
  public var line: Int
  /// Its effective time.
  public var at: Timestamp
  /// The feature used.
  public var feature: String
  /// The tier that reported the feature (nil: no tier the subject was in offers it).
  public var tier: String?
  /// Uses already counted in that tier's window.
  public var used: Int64
  /// That tier's limit (0 when no tier offers the feature).
  public var limit: Int64?
}
