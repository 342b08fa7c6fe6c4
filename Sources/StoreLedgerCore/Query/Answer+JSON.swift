/// An optional time as JSON: its RFC 3339 text, or `null`.
private func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }

extension JSONValue {
  /// An object whose member names come from the answer's key table (`AnswerKey`).
  package static func answerObject(_ members: [(AnswerKey, JSONValue)]) -> JSONValue {
    .object(members.map { ($0.0.name, $0.1) })
  }
}

extension Answer {
  /// The answer as the JSON object of Docs/semantics.md ("Answers") (with `explain` when explained).
  package var jsonValue: JSONValue {
    var members: [(AnswerKey, JSONValue)] = [
      (.subject, .string(subject)),
      (.at, time(at)),
      (.asOf, time(asOf)),
      (.entitlements, .object(entitlements.map { ($0.entitlement, $0.jsonValue) })),
      (.plans, .object(plans.map { ($0.group, $0.jsonValue) })),
      (.balances, .object(balances.map { ($0.currency, .integer($0.amount)) })),
    ]
    if let blocked {
      members.append((.blocked, .object(blocked.map { ($0.entitlement, $0.jsonValue) })))
    }
    if let cache {
      members.append((.cache, .answerObject([(.verifiedAt, time(cache.verifiedAt)), (.stale, .bool(cache.isStale))])))
    }
    if let policy {
      members.append((.tier, policy.tier.map { .string($0) } ?? .null))
      members.append((.trial, policy.trial?.jsonValue ?? .null))
      members.append((.usage, .object(policy.usage.map { ($0.feature, $0.jsonValue) })))
    }
    if let explanation { members.append((.explain, explanation.jsonValue(hasPolicy: policy != nil))) }
    return .answerObject(members)
  }
}

extension EntitlementAnswer {
  /// One member of an answer's `entitlements`, without its name.
  var jsonValue: JSONValue {
    var members: [(AnswerKey, JSONValue)] = [
      (.product, product.map { .string($0) } ?? .null), (.state, .string(state.name)), (.expires, time(expires)),
      (.ownership, .string(ownership.name)), (.period, .string(period.name)),
    ]
    if let graceExpires { members.append((.graceExpires, time(graceExpires))) }
    return .answerObject(members)
  }
}

extension BlockedAnswer {
  /// One member of an answer's `blocked`, without its entitlement: the blocking services.
  var jsonValue: JSONValue {
    .array(
      services.map {
        .answerObject([(.service, .string($0.service)), (.since, time($0.since)), (.reason, $0.reason.map { .string($0) } ?? .null)])
      })
  }
}

extension PlanAnswer {
  /// One member of an answer's `plans`, without its group.
  var jsonValue: JSONValue {
    var members: [(AnswerKey, JSONValue)] = [
      (.product, .string(product)), (.state, .string(state.name)),
      (.expires, time(expires)), (.willRenew, .bool(willRenew)),
      (.renewsTo, renewsTo.map { .string($0) } ?? .null),
      (.period, .string(period.name)), (.ownership, .string(ownership.name)),
      (.originalTransaction, .string(originalTransaction)),
      (.transaction, .string(transaction)),
    ]
    if let graceExpires { members.append((.graceExpires, time(graceExpires))) }
    return .answerObject(members)
  }
}

extension TrialAnswer {
  /// An answer's `trial`.
  var jsonValue: JSONValue {
    .answerObject([
      (.state, .string(state.rawValue)), (.started, time(started)), (.ends, time(ends)),
      (.endsBy, .string(endsBy)), (.graceEnds, time(graceEnds)),
    ])
  }
}

extension FeatureUsageAnswer {
  /// One member of an answer's `usage`, without its feature.
  var jsonValue: JSONValue {
    .answerObject([
      (.allowed, .bool(allowed)), (.tier, tier.map { .string($0) } ?? .null),
      (.used, .integer(used)), (.limit, limit.map { .integer($0) } ?? .null),
      (.windowEnds, time(windowEnds)),
    ])
  }
}

extension Explanation {
  /// `explain`: the deciding events by entitlement, plan, balance and (with a policy) feature;
  /// with `absent`, its members sorted by name.
  func jsonValue(hasPolicy: Bool) -> JSONValue {
    func events(_ evidence: [Evidence]) -> JSONValue {
      .array(evidence.map { .answerObject([(.id, .string($0.id)), (.line, .integer(Int64($0.line)))]) })
    }
    func list(_ items: [(String, [Evidence])]) -> JSONValue { .object(items.map { ($0.0, events($0.1)) }) }
    var members: [(AnswerKey, JSONValue)] = [
      (.entitlements, list(entitlements)), (.plans, list(plans)), (.balances, list(balances)),
    ]
    if hasPolicy {
      members.append(
        (
          .usage,
          .object(
            usage.map { item in
              (item.feature, .answerObject([(.tier, item.tier.map { .string($0) } ?? .null), (.events, events(item.events))]))
            })
        ))
    }
    if let absent {
      members.append(
        (
          .absent,
          .object(
            absent.map { ($0.entitlement, .answerObject([(.reason, .string($0.reason)), (.events, events($0.evidence))])) })
        ))
      members.sort { $0.0.name < $1.0.name }
    }
    return .answerObject(members)
  }
}
