import StoreLedgerCore

/// A policy answer in sentences for people (`query --format text`): the tier, the trial and
/// each feature's usage; the grant and plan wording is `Support/AnswerWords.swift`.
extension AnswerWords {
  /// The tier, the trial and each feature's usage of a policy answer, one line each.
  /// - Complexity: O(features).
  package static func policy(_ answer: Holdings.Policy, policy: Policy, catalog: Catalog) -> [String] {
    var lines: [String] = []
    if let name = answer.tier {
      let label = policy.tiers.first(where: { $0.name == name })?.label
      lines.append("tier: " + (label.map { "\($0) (\(name))" } ?? name))
    } else {
      lines.append("tier: none (no tier of the policy applies)")
    }
    if let trial = answer.trial, let terms = policy.trial {
      lines.append("trial: " + self.trial(trial, terms: terms, policy: policy))
    } else if policy.trial != nil {
      lines.append("trial: not started (no event of the subject yet)")
    }
    let offset = PolicyDescription.offsetText(policy.utcOffsetMs)
    // In the policy's order of features (by name), as the fast writer prints them.
    for feature in policy.features {
      guard let usage = answer.usage[feature.name] else { continue }
      lines.append("usage \(feature.label ?? feature.name): " + self.usage(usage, feature: feature, policy: policy, offset: offset, tier: answer.tier))
    }
    return lines
  }

  /// `4 of 5 decision sessions today, 1 left, resets 00:00 UTC-05:00 (tier free)`.
  static func usage(_ usage: Holdings.FeatureUsage, feature: PolicyFeature, policy: Policy, offset: String, tier: String?) -> String {
    func count(_ value: Int64) -> String { feature.unit?.count(value) ?? (value == 1 ? "1 use" : "\(value) uses") }
    guard let tierName = usage.tier else {
      return "not included" + (tier.map { " in tier \($0)" } ?? "") + " (\(count(usage.used)) so far)"
    }
    let listing = tierName
    let window = feature.limits[policy.tiers.firstIndex(where: { $0.name == tierName }) ?? 0]?.window ?? feature.window
    let span: String
    switch window {
    case .day: span = "today"
    case .week: span = "this week"
    case .month: span = "this month"
    case .ever: span = "in total"
    }
    var text: String
    if let limit = usage.limit {
      text = limit == 0 ? "not included in tier \(listing) (\(count(usage.used)) \(span))" : "\(usage.used) of \(count(limit)) \(span)"
      if limit > 0 { text += usage.allowed ? ", \(limit - usage.used) left" : ", none left" }
    } else {
      text = "\(count(usage.used)) \(span), no limit"
    }
    if let ends = usage.windowEnds {
      let local = Timestamp(millisecondsSinceEpoch: ends.millisecondsSinceEpoch + policy.utcOffsetMs)
      let clock = String(local.rfc3339.dropFirst(11).prefix(5))
      text += window == .day ? ", resets \(clock) UTC\(offset)" : ", resets \(day(local)) \(clock) UTC\(offset)"
    } else if window == .ever {
      text += ", never resets"
    }
    return usage.limit == 0 ? text : text + " (tier \(listing))"
  }

  /// `in trial since 1 Mar 2026; ends 22 Mar 2026 05:00 UTC after 21 days unless 50 interactions or 3 patterns come sooner, then 48 hours of grace`.
  static func trial(_ trial: Holdings.Trial, terms: UsageTrial, policy: Policy) -> String {
    let ends = instant(trial.ends)
    let by: String
    switch trial.endsBy {
    case "subscription": by = "by subscribing"
    case "duration": by = "after \(PolicyDescription.durationWords(terms.duration))"
    default:
      let threshold = terms.thresholds.first { policy.features[$0.feature].name == trial.endsBy }
      let feature = policy.features.first { $0.name == trial.endsBy }
      by = "at " + (threshold.map { threshold in
        feature?.unit?.count(threshold.count) ?? "\(threshold.count) uses of \(feature?.label ?? trial.endsBy)"
      } ?? trial.endsBy)
    }
    let grace = trial.graceEnds.map { $0 > trial.ends ? ", grace until \(instant($0))" : "" } ?? ""
    switch trial.state {
    case .trial:
      let sooner = terms.thresholds.map { threshold -> String in
        let feature = policy.features[threshold.feature]
        return feature.unit?.count(threshold.count) ?? "\(threshold.count) uses of \(feature.label ?? feature.name)"
      }
      return "in trial since \(instant(trial.started)); ends \(ends) \(by)"
        + (trial.endsBy == "duration" && !sooner.isEmpty ? " unless \(sooner.joined(separator: " or ")) come sooner" : "")
        + (terms.grace.map { ", then \(PolicyDescription.durationWords($0)) of grace" } ?? "")
    case .grace:
      return "in grace until \(trial.graceEnds.map(instant) ?? ends); the trial ended \(ends) \(by)"
    case .subscribed:
      return trial.endsBy == "subscription"
        ? "converted \(ends) by subscribing during the trial" : "subscribed; the trial had ended \(ends) \(by)\(grace)"
    case .expired:
      return trial.endsBy == "subscription"
        ? "over: converted \(ends), no longer subscribed (a trial is used once)" : "over: ended \(ends) \(by)\(grace)"
    }
  }
}
