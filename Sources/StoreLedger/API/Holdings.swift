import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// What a subject held at an instant, as known at another: the typed form of an answer
/// (Docs/semantics.md, "Answers"). `Codable` as exactly the JSON object `storeledger query`
/// prints (`Holdings+Codable.swift`: both come from one writer).
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

  /// A cached answer's relation to its last verification (Docs/semantics.md, "Cached answers").
  /// A service blocking an entitlement (`block` events, contract v1.3).
  public struct Blocker: Hashable, Codable, Sendable {
    /// The blocking service, such as `fraud`.
    public var service: String
    /// The `at` of the service's deciding block.
    public var since: Timestamp
    /// The block's free-text reason, if it gave one.
    public var reason: String?
  }

  public struct Cache: Hashable, Codable, Sendable {
    /// When the app last verified with the server (the answer's knowledge time).
    public var verifiedAt: Timestamp
    /// Whether T is past the staleness budget, so nothing is shown as active.
    public var isStale: Bool
  }

  /// An event named by its id and its line in the log.
  public struct EventReference: Hashable, Codable, Sendable {
    /// The event's id.
    public var id: EventID
    /// Its 1-based line in the log.
    public var line: Int
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
  }

  /// The tier that decided a feature and the uses counted.
  public struct UsageEvidence: Hashable, Codable, Sendable {
    /// The reported tier; nil when none lists the feature.
    public var tier: String?
    /// The `usage` events counted in `used`.
    public var events: [EventReference]
  }

  /// Why an entitlement is not held at T.
  public struct Absence: Hashable, Codable, Sendable {
    /// One sentence: the plan's state, when the grant starts or ended, or what was not yet known.
    public var reason: String
    /// The events behind it, possibly none.
    public var events: [EventReference]
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
  /// The typed form of an engine answer (whose states, ownerships and offers are the same enums).
  init(_ answer: Answer) {
    subject = SubjectID(rawValue: answer.subject)
    at = answer.at
    asOf = answer.asOf
    entitlements = [:]
    for item in answer.entitlements {
      entitlements[item.entitlement] = Entitlement(
        product: item.product.map { ProductID(rawValue: $0) }, state: item.state, expires: item.expires,
        graceExpires: item.graceExpires, ownership: item.ownership, period: item.period)
    }
    plans = [:]
    for plan in answer.plans {
      plans[plan.group] = Plan(
        product: ProductID(rawValue: plan.product), state: plan.state, expires: plan.expires,
        graceExpires: plan.graceExpires, willRenew: plan.willRenew, renewsTo: plan.renewsTo.map { ProductID(rawValue: $0) },
        period: plan.period, ownership: plan.ownership,
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
            ($0.feature, FeatureUsage(allowed: $0.allowed, tier: $0.tier, used: $0.used, limit: $0.limit, windowEnds: $0.windowEnds))
          }, uniquingKeysWith: { first, _ in first }))
    }
    cache = answer.cache.map { Cache(verifiedAt: $0.verifiedAt, isStale: $0.isStale) }
    blocked = answer.blocked.map { list in
      Dictionary(
        list.map { ($0.entitlement, $0.services.map { Blocker(service: $0.service, since: $0.since, reason: $0.reason) }) },
        uniquingKeysWith: { first, _ in first })
    }
    explanation = answer.explanation.map { Explanation($0, hasPolicy: answer.policy != nil) }
  }

  /// The engine form, for the one JSON writer (`Answer.jsonValue`); parts sorted by name.
  var engineAnswer: Answer {
    func sorted<V>(_ items: [String: V]) -> [(String, V)] { items.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    var answer = Answer(
      subject: subject.rawValue, at: at, asOf: asOf,
      entitlements: sorted(entitlements).map { name, item in
        EntitlementAnswer(
          entitlement: name, product: item.product?.rawValue, state: item.state, expires: item.expires,
          graceExpires: item.graceExpires, ownership: item.ownership, period: item.period)
      },
      plans: sorted(plans).map { group, plan in
        PlanAnswer(
          group: group, product: plan.product.rawValue, state: plan.state, expires: plan.expires,
          graceExpires: plan.graceExpires, willRenew: plan.willRenew, renewsTo: plan.renewsTo?.rawValue, period: plan.period,
          ownership: plan.ownership, originalTransaction: plan.originalTransaction.rawValue,
          transaction: plan.transaction.rawValue)
      },
      balances: sorted(balances).map { (currency: $0.0, amount: $0.1) }, explanation: nil)
    answer.policy = policy.map { policy in
      PolicyAnswer(
        tier: policy.tier,
        trial: policy.trial.map {
          TrialAnswer(state: $0.state, started: $0.started, ends: $0.ends, endsBy: $0.endsBy, graceEnds: $0.graceEnds)
        },
        usage: sorted(policy.usage).map { name, usage in
          FeatureUsageAnswer(
            feature: name, allowed: usage.allowed, tier: usage.tier, used: usage.used, limit: usage.limit,
            windowEnds: usage.windowEnds)
        })
    }
    answer.cache = cache.map { CacheAnswer(verifiedAt: $0.verifiedAt, isStale: $0.isStale) }
    answer.blocked = blocked.map { table in
      sorted(table).map { name, services in
        BlockedAnswer(
          entitlement: name, services: services.map { BlockedAnswer.Blocker(service: $0.service, since: $0.since, reason: $0.reason) })
      }
    }
    answer.explanation = explanation?.engineExplanation
    return answer
  }
}

extension Holdings.Explanation {
  /// The typed form of an engine explanation.
  init(_ explanation: StoreLedger.Explanation, hasPolicy: Bool) {
    func references(_ evidence: [Evidence]) -> [Holdings.EventReference] {
      evidence.map { Holdings.EventReference(id: EventID(rawValue: $0.id), line: $0.line) }
    }
    func table(_ items: [(String, [Evidence])]) -> [String: [Holdings.EventReference]] {
      Dictionary(items.map { ($0.0, references($0.1)) }, uniquingKeysWith: { first, _ in first })
    }
    entitlements = table(explanation.entitlements)
    plans = table(explanation.plans)
    balances = table(explanation.balances)
    usage =
      hasPolicy
      ? Dictionary(
        explanation.usage.map { ($0.feature, Holdings.UsageEvidence(tier: $0.tier, events: references($0.events))) },
        uniquingKeysWith: { first, _ in first }) : nil
    absent = Dictionary(
      (explanation.absent ?? []).map { ($0.entitlement, Holdings.Absence(reason: $0.reason, events: references($0.evidence))) },
      uniquingKeysWith: { first, _ in first })
  }

  /// The engine form, parts sorted by name.
  var engineExplanation: StoreLedger.Explanation {
    func evidence(_ references: [Holdings.EventReference]) -> [Evidence] {
      references.map { Evidence(id: $0.id.rawValue, line: $0.line) }
    }
    func list(_ table: [String: [Holdings.EventReference]]) -> [(String, [Evidence])] {
      table.sorted { $0.key < $1.key }.map { ($0.key, evidence($0.value)) }
    }
    var result = StoreLedger.Explanation(
      entitlements: list(entitlements), plans: list(plans), balances: list(balances),
      usage: (usage ?? [:]).sorted { $0.key < $1.key }.map {
        UsageEvidence(feature: $0.key, tier: $0.value.tier, events: evidence($0.value.events))
      })
    result.absent = absent.sorted { $0.key < $1.key }.map {
      AbsentEntitlement(entitlement: $0.key, reason: $0.value.reason, evidence: evidence($0.value.events))
    }
    return result
  }
}
