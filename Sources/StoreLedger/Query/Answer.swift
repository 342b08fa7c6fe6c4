/// One entitlement active at T (Docs/semantics.md, "Answers").
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

/// The plan in one subscription group at T (Docs/semantics.md, "Answers").
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
  /// Deciding events per entitlement, plan and balance (when explained).
  public var explanation: Explanation?

  public static func == (a: Answer, b: Answer) -> Bool {
    a.subject == b.subject && a.at == b.at && a.asOf == b.asOf && a.entitlements == b.entitlements
      && a.plans == b.plans && a.balances.elementsEqual(b.balances, by: { $0 == $1 })
      && a.explanation == b.explanation
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

  public static func == (a: Explanation, b: Explanation) -> Bool {
    func same(_ x: [(String, [Evidence])], _ y: [(String, [Evidence])]) -> Bool {
      x.elementsEqual(y, by: { $0.0 == $1.0 && $0.1 == $1.1 })
    }
    return same(a.entitlements, b.entitlements) && same(a.plans, b.plans)
      && same(a.balances, b.balances)
  }
}
