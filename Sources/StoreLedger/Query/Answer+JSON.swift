extension Answer {
  /// The answer as the JSON object of Docs/semantics.md ("Answers") (with `explain` when explained).
  public var jsonValue: JSONValue {
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
    if let explanation {
      func list(_ items: [(String, [Evidence])]) -> JSONValue {
        .object(
          items.map { name, evidence in
            (name, .array(evidence.map { .object([("id", .string($0.id)), ("line", .integer(Int64($0.line)))]) }))
          })
      }
      members.append(
        (
          "explain",
          .object([
            ("entitlements", list(explanation.entitlements)), ("plans", list(explanation.plans)),
            ("balances", list(explanation.balances)),
          ])
        ))
    }
    return .object(members)
  }
}
