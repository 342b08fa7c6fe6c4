extension Permission {
  /// The `can` answer line: the decision, its numbers, and a sentence saying why
  /// (Docs/commands.md, `can`); `FeaturePermission` encodes the same object.
  package func jsonValue(feature: String) -> JSONValue {
    .object(PermissionKey.allCases.map { key in (key.name, value(of: key, feature: feature)) })
  }

  /// The value of member `key` in the line.
  private func value(of key: PermissionKey, feature: String) -> JSONValue {
    func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }
    func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    switch key {
    case .subject: return .string(subject)
    case .feature: return .string(feature)
    case .at: return time(at)
    case .asOf: return time(asOf)
    case .allowed: return .bool(usage.allowed)
    case .tier: return text(usage.tier)
    case .used: return .integer(usage.used)
    case .limit: return usage.limit.map { .integer($0) } ?? .null
    case .windowEnds: return time(usage.windowEnds)
    case .wouldAllow: return text(wouldAllow)
    case .reason: return .string(reason(feature: feature))
    }
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
