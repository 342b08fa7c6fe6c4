/// One entitlement active at T (Docs/semantics.md, "Answers").
package struct EntitlementAnswer: Sendable, Equatable {
  /// The entitlement id.
  package var entitlement: String
  /// The product granting it; nil for a support grant.
  package var product: String?
  /// Subscription state for auto-renewables, `active` otherwise.
  package var state: SubscriptionStatus
  /// When the grant ends; nil for never.
  package var expires: Timestamp?
  /// In state `grace` only: when the grace period ends (contract v1.3, section 5).
  package var graceExpires: Timestamp?
  /// `purchased` or `family_shared`.
  package var ownership: Ownership
  /// The offer of the granting transaction, or `normal`.
  package var period: Offer

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    entitlement: String, product: String?, state: SubscriptionStatus, expires: Timestamp? = nil,
    graceExpires: Timestamp? = nil, ownership: Ownership, period: Offer
  ) {
    self.entitlement = entitlement
    self.product = product
    self.state = state
    self.expires = expires
    self.graceExpires = graceExpires
    self.ownership = ownership
    self.period = period
  }
}

/// The plan in one subscription group at T (Docs/semantics.md, "Answers").
package struct PlanAnswer: Sendable, Equatable {
  /// The subscription group.
  package var group: String
  /// The current product.
  package var product: String
  /// The state reported at T.
  package var state: SubscriptionStatus
  /// End of the current period.
  package var expires: Timestamp
  /// In state `grace` only: when the grace period ends (contract v1.3, section 5).
  package var graceExpires: Timestamp?
  /// Whether it will renew.
  package var willRenew: Bool
  /// A pending product change, or nil.
  package var renewsTo: String?
  /// The offer of the current transaction, or `normal`.
  package var period: Offer
  /// `purchased` or `family_shared`.
  package var ownership: Ownership
  /// The original transaction.
  package var originalTransaction: String
  /// The current transaction.
  package var transaction: String

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    group: String, product: String, state: SubscriptionStatus, expires: Timestamp, graceExpires: Timestamp? = nil,
    willRenew: Bool, renewsTo: String? = nil, period: Offer, ownership: Ownership, originalTransaction: String,
    transaction: String
  ) {
    self.group = group
    self.product = product
    self.state = state
    self.expires = expires
    self.graceExpires = graceExpires
    self.willRenew = willRenew
    self.renewsTo = renewsTo
    self.period = period
    self.ownership = ownership
    self.originalTransaction = originalTransaction
    self.transaction = transaction
  }
}

/// An event that decided part of an answer (for `--explain`).
package struct Evidence: Sendable, Equatable {
  /// The event id.
  package var id: String
  /// Its line in the log.
  package var line: Int

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(id: String, line: Int) {
    self.id = id
    self.line = line
  }
}

/// What a subject held at (at, as_of).
package struct Answer: Sendable, Equatable {
  /// The subject asked about.
  package var subject: String
  /// Effective time T.
  package var at: Timestamp
  /// Knowledge time R, or nil for "everything known".
  package var asOf: Timestamp?
  /// Active entitlements, sorted by id.
  package var entitlements: [EntitlementAnswer]
  /// Plans, sorted by group.
  package var plans: [PlanAnswer]
  /// Balances, sorted by currency.
  package var balances: [(currency: String, amount: Int64)]
  /// Tier, trial and usage, when the catalog has a policy.
  package var policy: PolicyAnswer? = nil
  /// Set for a cached answer (`--cached-at`).
  package var cache: CacheAnswer? = nil
  /// Entitlements active at T but blocked, with their blocking services, sorted by id; nil when
  /// the subject has no block or unblock that counts (contract v1.3, section 10).
  package var blocked: [BlockedAnswer]? = nil
  /// Deciding events per entitlement, plan and balance (when explained).
  package var explanation: Explanation?

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    subject: String, at: Timestamp, asOf: Timestamp? = nil, entitlements: [EntitlementAnswer], plans: [PlanAnswer],
    balances: [(currency: String, amount: Int64)], policy: PolicyAnswer? = nil, cache: CacheAnswer? = nil,
    explanation: Explanation? = nil
  ) {
    self.subject = subject
    self.at = at
    self.asOf = asOf
    self.entitlements = entitlements
    self.plans = plans
    self.balances = balances
    self.policy = policy
    self.cache = cache
    self.explanation = explanation
  }

  package static func == (a: Answer, b: Answer) -> Bool {
    a.subject == b.subject && a.at == b.at && a.asOf == b.asOf && a.entitlements == b.entitlements
      && a.plans == b.plans && a.balances.elementsEqual(b.balances, by: { $0 == $1 })
      && a.policy == b.policy && a.cache == b.cache && a.explanation == b.explanation && a.blocked == b.blocked
  }
}

/// One blocked entitlement of an answer and every service blocking it (contract v1.3, section 10).
package struct BlockedAnswer: Sendable, Hashable {
  /// The entitlement id.
  package var entitlement: String
  /// The blocking services, by `since`, ties by service name.
  package var services: [Blocker]

  /// One blocking service.
  package struct Blocker: Sendable, Hashable {
    /// The service.
    package var service: String
    /// The `at` of its deciding block.
    package var since: Timestamp
    /// Its free-text reason, or nil.
    package var reason: String?

    /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
    package init(service: String, since: Timestamp, reason: String?) {
      self.service = service
      self.since = since
      self.reason = reason
    }
  }

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(entitlement: String, services: [Blocker]) {
    self.entitlement = entitlement
    self.services = services
  }
}

/// The events behind each part of an answer.
package struct Explanation: Sendable, Equatable {
  /// By entitlement id.
  package var entitlements: [(String, [Evidence])]
  /// By group.
  package var plans: [(String, [Evidence])]
  /// By currency.
  package var balances: [(String, [Evidence])]
  /// By feature, when the catalog has a policy.
  package var usage: [UsageEvidence] = []
  /// Why each entitlement the subject holds at other times is not held (`query --explain`).
  package var absent: [AbsentEntitlement]? = nil

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    entitlements: [(String, [Evidence])], plans: [(String, [Evidence])], balances: [(String, [Evidence])],
    usage: [UsageEvidence] = [], absent: [AbsentEntitlement]? = nil
  ) {
    self.entitlements = entitlements
    self.plans = plans
    self.balances = balances
    self.usage = usage
    self.absent = absent
  }

  package static func == (a: Explanation, b: Explanation) -> Bool {
    func same(_ x: [(String, [Evidence])], _ y: [(String, [Evidence])]) -> Bool {
      x.elementsEqual(y, by: { $0.0 == $1.0 && $0.1 == $1.1 })
    }
    return same(a.entitlements, b.entitlements) && same(a.plans, b.plans)
      && same(a.balances, b.balances) && a.usage == b.usage && a.absent == b.absent
  }
}

/// The usage-based trial in an answer.
package struct TrialAnswer: Sendable, Hashable {
  /// Where it stands at T.
  package var state: TrialState
  /// The subject's first counted event.
  package var started: Timestamp
  /// When it ended, or (before maturity) ends as known so far.
  package var ends: Timestamp
  /// `subscription`, `duration`, or the feature whose threshold matured it.
  package var endsBy: String
  /// The end of the grace after maturity; nil when it ended by subscription.
  package var graceEnds: Timestamp?

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(state: TrialState, started: Timestamp, ends: Timestamp, endsBy: String, graceEnds: Timestamp? = nil) {
    self.state = state
    self.started = started
    self.ends = ends
    self.endsBy = endsBy
    self.graceEnds = graceEnds
  }
}

/// One metered feature in an answer.
package struct FeatureUsageAnswer: Sendable, Hashable {
  /// The feature's name.
  package var feature: String
  /// Whether one more use is allowed at T.
  package var allowed: Bool
  /// The tier that allows it (or, when none does, the first matching tier listing it); nil when none lists it.
  package var tier: String?
  /// Uses before T in the reported window (releases count negative; not clamped).
  package var used: Int64
  /// The reported tier's limit; nil for unlimited.
  package var limit: Int64?
  /// Where the reported window ends; nil for `ever`.
  package var windowEnds: Timestamp?

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    feature: String, allowed: Bool, tier: String? = nil, used: Int64, limit: Int64? = nil,
    windowEnds: Timestamp? = nil
  ) {
    self.feature = feature
    self.allowed = allowed
    self.tier = tier
    self.used = used
    self.limit = limit
    self.windowEnds = windowEnds
  }
}

/// The policy part of an answer: present exactly when the catalog has a policy.
package struct PolicyAnswer: Sendable, Hashable {
  /// The first tier that matches at T; nil when none does.
  package var tier: String?
  /// The trial; nil without a trial section or when no event of the subject counts.
  package var trial: TrialAnswer?
  /// Every feature of the policy, sorted by name.
  package var usage: [FeatureUsageAnswer]

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(tier: String? = nil, trial: TrialAnswer? = nil, usage: [FeatureUsageAnswer]) {
    self.tier = tier
    self.trial = trial
    self.usage = usage
  }
}

/// How a cached answer relates to its last verification (present only for cached answers).
package struct CacheAnswer: Sendable, Hashable {
  /// When the app last verified with the server (the answer's knowledge time).
  package var verifiedAt: Timestamp
  /// Whether T is past the staleness budget, so nothing is shown as active.
  package var isStale: Bool

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(verifiedAt: Timestamp, isStale: Bool) {
    self.verifiedAt = verifiedAt
    self.isStale = isStale
  }
}

/// Usage evidence for `--explain`: the tier that decided a feature and the uses counted.
package struct UsageEvidence: Sendable, Equatable {
  /// The feature.
  package var feature: String
  /// The reported tier, nil when none lists the feature.
  package var tier: String?
  /// The `usage` events counted in `used`.
  package var events: [Evidence]

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(feature: String, tier: String? = nil, events: [Evidence]) {
    self.feature = feature
    self.tier = tier
    self.events = events
  }
}

/// The answer to "may this subject use this feature once more at T?".
package struct Permission: Sendable, Hashable {
  /// The subject asked about.
  package var subject: String
  /// Effective time T.
  package var at: Timestamp
  /// Knowledge time (or the cache's verification time); nil for everything known.
  package var asOf: Timestamp?
  /// The subject's tier at T.
  package var tier: String?
  /// The feature's usage answer (allowed, reported tier, used, limit, window end).
  package var usage: FeatureUsageAnswer
  /// When not allowed: the first tier the subject is not in that would allow it.
  package var wouldAllow: String?

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    subject: String, at: Timestamp, asOf: Timestamp? = nil, tier: String? = nil, usage: FeatureUsageAnswer,
    wouldAllow: String? = nil
  ) {
    self.subject = subject
    self.at = at
    self.asOf = asOf
    self.tier = tier
    self.usage = usage
    self.wouldAllow = wouldAllow
  }
}

/// A use the policy did not allow when it happened, as known then (premium access below the paywall).
package struct Leak: Sendable, Hashable {
  /// The subject.
  package var subject: String
  /// The `usage` event's id.
  package var id: String
  /// Its line in the log.
  package var line: Int
  /// Its effective time.
  package var at: Timestamp
  /// The feature used.
  package var feature: String
  /// The tier that reported the feature (nil: no tier the subject was in offers it).
  package var tier: String?
  /// Uses already counted in that tier's window.
  package var used: Int64
  /// That tier's limit (0 when no tier offers the feature).
  package var limit: Int64?
}
