import StoreLedgerCore

extension Answer {
  /// The answer as the JSON object of Docs/semantics.md ("Answers") (with `explain` when explained).
  package var jsonValue: JSONValue {
    func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }
    var members: [(String, JSONValue)] = [
      ("subject", .string(subject)),
      ("at", time(at)),
      ("as_of", time(asOf)),
      (
        "entitlements",
        .object(
          entitlements.map {
            (
              $0.entitlement,
              .object([
                ("product", .string($0.product)), ("state", .string($0.state)),
                ("expires", time($0.expires)), ("ownership", .string($0.ownership)),
                ("period", .string($0.period)),
              ])
            )
          })
      ),
      (
        "plans",
        .object(
          plans.map {
            (
              $0.group,
              .object([
                ("product", .string($0.product)), ("state", .string($0.state)),
                ("expires", time($0.expires)), ("will_renew", .bool($0.willRenew)),
                ("renews_to", $0.renewsTo.map { .string($0) } ?? .null),
                ("period", .string($0.period)), ("ownership", .string($0.ownership)),
                ("original_transaction", .string($0.originalTransaction)),
                ("transaction", .string($0.transaction)),
              ])
            )
          })
      ),
      ("balances", .object(balances.map { ($0.currency, .integer($0.amount)) })),
    ]
    if let cache {
      members.append(("cache", .object([("verified_at", time(cache.verifiedAt)), ("stale", .bool(cache.isStale))])))
    }
    if let policy {
      members.append(("tier", policy.tier.map { .string($0) } ?? .null))
      members.append(
        (
          "trial",
          policy.trial.map { trial in
            .object([
              ("state", .string(trial.state.rawValue)), ("started", time(trial.started)), ("ends", time(trial.ends)),
              ("ends_by", .string(trial.endsBy)), ("grace_ends", time(trial.graceEnds)),
            ])
          } ?? .null
        ))
      members.append(
        (
          "usage",
          .object(
            policy.usage.map { feature in
              (
                feature.feature,
                .object([
                  ("allowed", .bool(feature.allowed)), ("tier", feature.tier.map { .string($0) } ?? .null),
                  ("used", .integer(feature.used)), ("limit", feature.limit.map { .integer($0) } ?? .null),
                  ("window_ends", time(feature.windowEnds)),
                ])
              )
            })
        ))
    }
    if let explanation { members.append(("explain", explanation.jsonValue(hasPolicy: policy != nil))) }
    return .object(members)
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
