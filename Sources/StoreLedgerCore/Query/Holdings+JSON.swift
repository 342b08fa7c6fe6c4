/// An optional time as JSON: its RFC 3339 text, or `null`.
private func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }

/// An optional string as JSON, or `null`.
private func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

extension JSONValue {
  /// An object whose member names come from the answer's key table (`AnswerKey`).
  package static func answerObject(_ members: [(AnswerKey, JSONValue)]) -> JSONValue {
    .object(members.map { ($0.0.name, $0.1) })
  }

  /// An object of a name-keyed table, members in byte order of their names (the order
  /// `JSONWriter` prints them in; a `JSONEncoder` keeps it too).
  /// - Complexity: O(n log n).
  fileprivate static func table<Value>(_ table: [String: Value], _ body: (Value) -> JSONValue) -> JSONValue {
    .object(table.byName.map { ($0.key, body($0.value)) })
  }
}

extension Holdings {
  /// The answer as the JSON object of Docs/semantics.md ("Answers"), with `explain` when
  /// explained: what `storeledger query`, the server and `Encodable` write.
  /// - Complexity: O(n log n) in the size of the answer.
  package var jsonValue: JSONValue {
    var members: [(AnswerKey, JSONValue)] = [
      (.subject, .string(subject.rawValue)),
      (.at, time(at)),
      (.asOf, time(asOf)),
      (.entitlements, .table(entitlements) { $0.jsonValue }),
      (.plans, .table(plans) { $0.jsonValue }),
      (.balances, .table(balances) { .integer($0) }),
    ]
    if let blocked {
      members.append((.blocked, .table(blocked) { .array($0.map(\.jsonValue)) }))
    }
    if let cache {
      members.append((.cache, .answerObject([(.verifiedAt, time(cache.verifiedAt)), (.stale, .bool(cache.isStale))])))
    }
    if let policy {
      members.append((.tier, text(policy.tier)))
      members.append((.trial, policy.trial?.jsonValue ?? .null))
      members.append((.usage, .table(policy.usage) { $0.jsonValue }))
    }
    if let explanation { members.append((.explain, explanation.jsonValue)) }
    return .answerObject(members)
  }
}

extension Holdings.Entitlement {
  /// One member of an answer's `entitlements`, without its name.
  var jsonValue: JSONValue {
    var members: [(AnswerKey, JSONValue)] = [
      (.product, text(product?.rawValue)), (.state, .string(state.name)), (.expires, time(expires)),
      (.ownership, .string(ownership.name)), (.period, .string(period.name)),
    ]
    if let graceExpires { members.append((.graceExpires, time(graceExpires))) }
    return .answerObject(members)
  }
}

extension Holdings.Blocker {
  /// One service of a member of an answer's `blocked`.
  var jsonValue: JSONValue {
    .answerObject([(.service, .string(service)), (.since, time(since)), (.reason, text(reason))])
  }
}

extension Holdings.Plan {
  /// One member of an answer's `plans`, without its group.
  var jsonValue: JSONValue {
    var members: [(AnswerKey, JSONValue)] = [
      (.product, .string(product.rawValue)), (.state, .string(state.name)),
      (.expires, time(expires)), (.willRenew, .bool(willRenew)),
      (.renewsTo, text(renewsTo?.rawValue)),
      (.period, .string(period.name)), (.ownership, .string(ownership.name)),
      (.originalTransaction, .string(originalTransaction.rawValue)),
      (.transaction, .string(transaction.rawValue)),
    ]
    if let graceExpires { members.append((.graceExpires, time(graceExpires))) }
    return .answerObject(members)
  }
}

extension Holdings.Trial {
  /// An answer's `trial`.
  var jsonValue: JSONValue {
    .answerObject([
      (.state, .string(state.rawValue)), (.started, time(started)), (.ends, time(ends)),
      (.endsBy, .string(endsBy)), (.graceEnds, time(graceEnds)),
    ])
  }
}

extension Holdings.FeatureUsage {
  /// One member of an answer's `usage`, without its feature.
  var jsonValue: JSONValue {
    .answerObject([
      (.allowed, .bool(allowed)), (.tier, text(tier)),
      (.used, .integer(used)), (.limit, limit.map { .integer($0) } ?? .null),
      (.windowEnds, time(windowEnds)),
    ])
  }
}

extension Holdings.Explanation {
  /// `explain`: the deciding events by entitlement, plan, balance, (with a policy) feature, and
  /// why each entitlement held at other times is absent.
  var jsonValue: JSONValue {
    func events(_ references: [Holdings.EventReference]) -> JSONValue {
      .array(references.map { .answerObject([(.id, .string($0.id.rawValue)), (.line, .integer(Int64($0.line)))]) })
    }
    var members: [(AnswerKey, JSONValue)] = [
      (.entitlements, .table(entitlements, events)), (.plans, .table(plans, events)), (.balances, .table(balances, events)),
      (.absent, .table(absent) { .answerObject([(.reason, .string($0.reason)), (.events, events($0.events))]) }),
    ]
    if let usage {
      members.append((.usage, .table(usage) { .answerObject([(.tier, text($0.tier)), (.events, events($0.events))]) }))
    }
    // In name order, as the answer's own members are not: a `JSONEncoder` keeps this order.
    members.sort { $0.0.name < $1.0.name }
    return .answerObject(members)
  }
}
