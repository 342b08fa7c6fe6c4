extension Permission {
  /// The `can` answer line: the decision, its numbers, and a sentence saying why
  /// (Docs/commands.md, `can`); `FeaturePermission` encodes the same object.
  package func jsonValue(feature: String) -> JSONValue {
    func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }
    return .object([
      ("subject", .string(subject)), ("feature", .string(feature)), ("at", time(at)),
      ("as_of", time(asOf)), ("allowed", .bool(usage.allowed)),
      ("tier", usage.tier.map { .string($0) } ?? .null), ("used", .integer(usage.used)),
      ("limit", usage.limit.map { .integer($0) } ?? .null), ("window_ends", time(usage.windowEnds)),
      ("would_allow", wouldAllow.map { .string($0) } ?? .null),
      ("reason", .string(reason(feature: feature))),
    ])
  }

  /// Why: the tier that decided, uses in its window, the limit, and the tier that would allow it.
  package func reason(feature: String) -> String {
    let window = usage.windowEnds.map { " until \($0.rfc3339)" } ?? ""
    let upgrade = wouldAllow.map { "; tier '\($0)' would allow it" } ?? ""
    guard let tier = usage.tier else {
      return "no tier the subject is in offers '\(feature)'\(upgrade)"
    }
    guard let limit = usage.limit else { return "unlimited in tier '\(tier)'" }
    if usage.allowed { return "\(usage.used) of \(limit) used in tier '\(tier)'\(window)" }
    return "limit reached: \(usage.used) of \(limit) used in tier '\(tier)'\(window)\(upgrade)"
  }
}
