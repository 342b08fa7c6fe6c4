/// An optional time as JSON: its RFC 3339 text, or `null`.
private func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }

extension Answer {
  /// The answer as the JSON object of Docs/semantics.md ("Answers") (with `explain` when explained).
  package var jsonValue: JSONValue {
    var members: [(String, JSONValue)] = [
      ("subject", .string(subject)),
      ("at", time(at)),
      ("as_of", time(asOf)),
      ("entitlements", .object(entitlements.map { ($0.entitlement, $0.jsonValue) })),
      ("plans", .object(plans.map { ($0.group, $0.jsonValue) })),
      ("balances", .object(balances.map { ($0.currency, .integer($0.amount)) })),
    ]
    if let cache {
      members.append(("cache", .object([("verified_at", time(cache.verifiedAt)), ("stale", .bool(cache.isStale))])))
    }
    if let policy {
      members.append(("tier", policy.tier.map { .string($0) } ?? .null))
      members.append(("trial", policy.trial?.jsonValue ?? .null))
      members.append(("usage", .object(policy.usage.map { ($0.feature, $0.jsonValue) })))
    }
    if let explanation { members.append(("explain", explanation.jsonValue(hasPolicy: policy != nil))) }
    return .object(members)
  }
}

extension EntitlementAnswer {
  /// One member of an answer's `entitlements`, without its name.
  var jsonValue: JSONValue {
    .object([
      ("product", .string(product)), ("state", .string(state)), ("expires", time(expires)),
      ("ownership", .string(ownership)), ("period", .string(period)),
    ])
  }
}

extension PlanAnswer {
  /// One member of an answer's `plans`, without its group.
  var jsonValue: JSONValue {
    .object([
      ("product", .string(product)), ("state", .string(state)),
      ("expires", time(expires)), ("will_renew", .bool(willRenew)),
      ("renews_to", renewsTo.map { .string($0) } ?? .null),
      ("period", .string(period)), ("ownership", .string(ownership)),
      ("original_transaction", .string(originalTransaction)),
      ("transaction", .string(transaction)),
    ])
  }
}

extension TrialAnswer {
  /// An answer's `trial`.
  var jsonValue: JSONValue {
    .object([
      ("state", .string(state.rawValue)), ("started", time(started)), ("ends", time(ends)),
      ("ends_by", .string(endsBy)), ("grace_ends", time(graceEnds)),
    ])
  }
}

extension FeatureUsageAnswer {
  /// One member of an answer's `usage`, without its feature.
  var jsonValue: JSONValue {
    .object([
      ("allowed", .bool(allowed)), ("tier", tier.map { .string($0) } ?? .null),
      ("used", .integer(used)), ("limit", limit.map { .integer($0) } ?? .null),
      ("window_ends", time(windowEnds)),
    ])
  }
}

extension Explanation {
  /// `explain`: the deciding events by entitlement, plan, balance and (with a policy) feature;
  /// with `absent`, its members sorted by name.
  func jsonValue(hasPolicy: Bool) -> JSONValue {
    func events(_ evidence: [Evidence]) -> JSONValue {
      .array(evidence.map { .object([("id", .string($0.id)), ("line", .integer(Int64($0.line)))]) })
    }
    func list(_ items: [(String, [Evidence])]) -> JSONValue { .object(items.map { ($0.0, events($0.1)) }) }
    var members: [(String, JSONValue)] = [
      ("entitlements", list(entitlements)), ("plans", list(plans)), ("balances", list(balances)),
    ]
    if hasPolicy {
      members.append(
        (
          "usage",
          .object(
            usage.map { item in
              (item.feature, .object([("tier", item.tier.map { .string($0) } ?? .null), ("events", events(item.events))]))
            })
        ))
    }
    if let absent {
      members.append(
        (
          "absent",
          .object(absent.map { ($0.entitlement, .object([("reason", .string($0.reason)), ("events", events($0.evidence))])) })
        ))
      members.sort { $0.0 < $1.0 }
    }
    return .object(members)
  }
}
