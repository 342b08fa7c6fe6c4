/// What a subject held at an instant, as known at another (Docs/semantics.md, "Answers"): the
/// one answer model. `QueryEngine.answer` builds it; `storeledger query`, the server, the text
/// and reply writers read it; `Codable` as exactly the JSON object `storeledger query` prints
/// (`Holdings+JSON.swift` writes both). Tables are keyed by name: whatever is written in order
/// (JSON keys, lines of text) is sorted when written (Docs/decisions.md, "One answer model").
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
  /// For a cached answer: when it was verified and whether it is past its staleness budget.
  public var cache: Cache?
  /// Entitlements active at T but blocked by a service, by entitlement id (contract v1.3); nil
  /// when the subject has no block or unblock that counts at (T, R).
  public var blocked: [String: [Blocker]]? = nil
  /// The events that decided each part (from `explain`); nil otherwise.
  public var explanation: Explanation?

  /// A service blocking an entitlement (`block` events, contract v1.3).
  public struct Blocker: Hashable, Codable, Sendable {
    /// The blocking service, such as `fraud`.
    public var service: String
    /// The `at` of the service's deciding block.
    public var since: Timestamp
    /// The block's free-text reason, if it gave one.
    public var reason: String?

    /// Creates a value from all its stored properties.
    package init(service: String, since: Timestamp, reason: String?) {
      self.service = service
      self.since = since
      self.reason = reason
    }
  }

  /// A cached answer's relation to its last verification (Docs/semantics.md, "Cached answers").
  public struct Cache: Hashable, Codable, Sendable {
    /// When the app last verified with the server (the answer's knowledge time).
    public var verifiedAt: Timestamp
    /// Whether T is past the staleness budget, so nothing is shown as active.
    public var isStale: Bool

    /// Creates a value from all its stored properties.
    package init(verifiedAt: Timestamp, isStale: Bool) {
      self.verifiedAt = verifiedAt
      self.isStale = isStale
    }
  }

  /// An event named by its id and its line in the log.
  public struct EventReference: Hashable, Codable, Sendable {
    /// The event's id.
    public var id: EventID
    /// Its 1-based line in the log.
    public var line: Int

    /// Creates a value from all its stored properties.
    package init(id: EventID, line: Int) {
      self.id = id
      self.line = line
    }
  }

  /// Why the answer is what it is: the deciding events of each part (`query --explain`).
  public struct Explanation: Hashable, Codable, Sendable {
    /// By entitlement id: the events behind each active entitlement.
    public var entitlements: [String: [EventReference]]
    /// By subscription group.
    public var plans: [String: [EventReference]]
    /// By currency.
    public var balances: [String: [EventReference]]
    /// By feature, with the tier that decided it; nil unless the catalog has a `policy`.
    public var usage: [String: UsageEvidence]?
    /// By entitlement: why one the subject holds at other times is not held at T.
    public var absent: [String: Absence]

    /// Creates a value from all its stored properties; `usage` is nil without a policy.
    package init(
      entitlements: [String: [Holdings.EventReference]] = [:], plans: [String: [Holdings.EventReference]] = [:],
      balances: [String: [Holdings.EventReference]] = [:], usage: [String: Holdings.UsageEvidence]? = nil,
      absent: [String: Holdings.Absence] = [:]
    ) {
      self.entitlements = entitlements
      self.plans = plans
      self.balances = balances
      self.usage = usage
      self.absent = absent
    }
  }

  /// The tier that decided a feature and the uses counted.
  public struct UsageEvidence: Hashable, Codable, Sendable {
    /// The reported tier; nil when none lists the feature.
    public var tier: String?
    /// The `usage` events counted in `used`.
    public var events: [EventReference]

    /// Creates a value from all its stored properties.
    package init(tier: String?, events: [Holdings.EventReference]) {
      self.tier = tier
      self.events = events
    }
  }

  /// Why an entitlement is not held at T.
  public struct Absence: Hashable, Codable, Sendable {
    /// One sentence: the plan's state, when the grant starts or ended, or what was not yet known.
    public var reason: String
    /// The events behind it, possibly none.
    public var events: [EventReference]

    /// Creates a value from all its stored properties.
    package init(reason: String, events: [Holdings.EventReference]) {
      self.reason = reason
      self.events = events
    }
  }

  /// One active entitlement.
  public struct Entitlement: Hashable, Codable, Sendable {
    /// The product granting it; nil for a support grant (`ownership` `granted`).
    public var product: ProductID?
    /// The subscription state; `active` for one-time purchases.
    public var state: SubscriptionStatus
    /// When access ends; nil for never.
    public var expires: Timestamp?
    /// While in state `grace`: when the grace period ends, the access it still gives; nil otherwise.
    public var graceExpires: Timestamp? = nil
    /// Bought by the subject or shared by its family.
    public var ownership: Ownership
    /// The offer of the granting transaction.
    public var period: Offer

    /// Creates a value from all its stored properties.
    package init(
      product: ProductID?, state: SubscriptionStatus, expires: Timestamp?, graceExpires: Timestamp? = nil,
      ownership: Ownership, period: Offer
    ) {
      self.product = product
      self.state = state
      self.expires = expires
      self.graceExpires = graceExpires
      self.ownership = ownership
      self.period = period
    }
  }

  /// The plan of one subscription group.
  public struct Plan: Hashable, Codable, Sendable {
    /// The current product.
    public var product: ProductID
    /// The state at T.
    public var state: SubscriptionStatus
    /// End of the current period.
    public var expires: Timestamp
    /// While in state `grace`: when the grace period ends, the access it still gives; nil otherwise.
    public var graceExpires: Timestamp? = nil
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

    /// Creates a value from all its stored properties.
    package init(
      product: ProductID, state: SubscriptionStatus, expires: Timestamp, graceExpires: Timestamp? = nil, willRenew: Bool,
      renewsTo: ProductID? = nil, period: Offer, ownership: Ownership, originalTransaction: TransactionID,
      transaction: TransactionID
    ) {
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

  /// The catalog policy's verdicts at T (Docs/semantics.md, usage and policy).
  public struct Policy: Hashable, Codable, Sendable {
    /// The first tier that matches at T; nil when none does.
    public var tier: String?
    /// The usage-based trial; nil without one or before the subject's first counted event.
    public var trial: Trial?
    /// Every metered feature of the policy, by name.
    public var usage: [String: FeatureUsage]

    /// Creates a value from all its stored properties.
    package init(tier: String? = nil, trial: Holdings.Trial? = nil, usage: [String: Holdings.FeatureUsage]) {
      self.tier = tier
      self.trial = trial
      self.usage = usage
    }
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

    /// Creates a value from all its stored properties.
    package init(state: TrialState, started: Timestamp, ends: Timestamp, endsBy: String, graceEnds: Timestamp? = nil) {
      self.state = state
      self.started = started
      self.ends = ends
      self.endsBy = endsBy
      self.graceEnds = graceEnds
    }
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

    /// Creates a value from all its stored properties.
    package init(allowed: Bool, tier: String? = nil, used: Int64, limit: Int64? = nil, windowEnds: Timestamp? = nil) {
      self.allowed = allowed
      self.tier = tier
      self.used = used
      self.limit = limit
      self.windowEnds = windowEnds
    }
  }

  /// Whether the subject holds `entitlement` at T.
  public func has(_ entitlement: String) -> Bool { entitlements[entitlement] != nil }
}

// The nested types' `package` initializers are for the engine and the other targets: the public
// API builds none (answers come from a `LedgerStore` or from decoding).

extension Holdings {
  /// An answer with nothing held: the engine fills it.
  package init(subject: SubjectID, at: Timestamp, asOf: Timestamp?) {
    self.init(
      subject: subject, at: at, asOf: asOf, entitlements: [:], plans: [:], balances: [:], policy: nil, cache: nil,
      blocked: nil, explanation: nil)
  }
}

extension Dictionary where Key == String {
  /// The members in byte order of their names: the order the JSON writer prints keys in, and
  /// the order the catalog numbers entitlements, groups, currencies and features in.
  /// - Complexity: O(n log n).
  package var byName: [(key: String, value: Value)] {
    sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
  }
}
