import StoreLedgerCore

/// The catalog's usage policy described for people (`storeledger policy`): what each tier
/// includes of each feature, when windows reset, the trial's terms and what an offline app may
/// show, from the same `Policy` value the gate (`can`, answers) decides with, so the paywall's
/// words and the engine cannot drift apart.
package struct PolicyDescription: Sendable {
  /// At most `limit` uses per `window`.
  package struct Limit: Sendable, Equatable {
    /// The most uses in the window.
    package var limit: Int64
    /// The window they count over.
    package var window: UsageWindow
  }

  /// What a customer in a tier may use of one feature.
  package enum Allowance: Sendable, Equatable {
    /// As many uses as wanted.
    case unlimited
    /// A use is allowed while any of these limits is not reached (one per window).
    case limited([Limit])
    /// No use (no tier that applies lists the feature, or lists it with a limit of 0).
    case notIncluded
  }

  /// One feature as a tier has it.
  package struct Claim: Sendable, Equatable {
    /// The feature's name in the catalog (the `feature` of `usage` events).
    package var feature: String
    /// What the tier allows.
    package var allowance: Allowance
    /// The allowance in words: "5 decision sessions a day", "unlimited", "not included".
    package var words: String
  }

  /// One tier: who is in it and what a customer in it may use. Tiers without conditions apply to
  /// everyone, so their allowances are part of every tier's (contract §7: a use is allowed when
  /// any tier that applies allows it).
  package struct Tier: Sendable, Equatable {
    /// The tier's name in the catalog.
    package var name: String
    /// Its label for people, else its name.
    package var title: String
    /// Who is in it, in words.
    package var condition: String
    /// Every feature of the policy, in the policy's order (by name).
    package var claims: [Claim]
  }

  /// Tiers in the policy's order.
  package var tiers: [Tier]
  /// Features by name: their titles for people (label, else name).
  package var featureTitles: [String: String]
  /// When usage windows begin, in words.
  package var resets: [String]
  /// The usage-based trial's terms, in words; nil without a trial.
  package var trial: String?
  /// What an offline app may show, in words.
  package var offline: String
  /// The UTC offset windows are counted in: "-05:00".
  package var utcOffset: String
  /// How tiers combine, in words (contract §7: allowed when any tier that applies allows it).
  package var rule =
    "Tiers are checked in order: the first that applies is the customer's tier. A customer may use a feature "
    + "when any tier that applies allows it, so each column includes what the tiers without conditions give "
    + "everyone; a tier with a condition that also holds (a subscriber's first week, say) can add to it."

  /// The staleness budget the contract gives cached answers by default (`--max-staleness`).
  package static let defaultStaleness = "PT24H"

  /// Describes `catalog`'s policy; nil when the catalog has none.
  /// - Complexity: O(tiers × features).
  package init?(catalog: Catalog) {
    guard let policy = catalog.policy else { return nil }
    utcOffset = Self.offsetText(policy.utcOffsetMs)
    featureTitles = Dictionary(uniqueKeysWithValues: policy.features.map { ($0.name, $0.label ?? $0.name) })
    tiers = policy.tiers.enumerated().map { index, tier in
      Tier(
        name: tier.name, title: tier.label ?? tier.name,
        condition: Self.condition(of: tier, isLast: index == policy.tiers.count - 1, catalog: catalog),
        claims: policy.features.map { feature in
          Self.claim(feature, tiers: [index] + Self.unconditionalTiers(policy).filter { $0 != index })
        })
    }
    let windowsUsed = Set(policy.features.flatMap { feature in feature.limits.compactMap { $0?.window } + [feature.window] })
    resets = Self.resets(windowsUsed, offset: utcOffset)
    trial = policy.trial.map { Self.trialTerms($0, policy: policy, catalog: catalog) }
    offline =
      "An app that cannot reach its server may keep showing the last answer it verified for up to 24 hours "
      + "(the staleness budget, \(Self.defaultStaleness); 'query --cached-at V --max-staleness S' answers as such an app would)."
  }

  /// Tiers that apply to everyone (no entitlement, trial or time condition).
  static func unconditionalTiers(_ policy: Policy) -> [Int] {
    policy.tiers.indices.filter { policy.tiers[$0].entitlement == nil && !policy.tiers[$0].requiresTrial && policy.tiers[$0].within == nil }
  }

  /// What a customer to whom `tiers` apply may use of `feature`: unlimited if one allows it
  /// without limit, else the largest limit per window.
  static func claim(_ feature: PolicyFeature, tiers: [Int]) -> Claim {
    var limits: [Limit] = []
    var unlimited = false
    for tier in tiers {
      guard let limit = feature.limits[tier] else { continue }
      guard let count = limit.limit else {
        unlimited = true
        continue
      }
      guard count > 0 else { continue }
      if let same = limits.firstIndex(where: { $0.window == limit.window }) {
        limits[same].limit = max(limits[same].limit, count)
      } else {
        limits.append(Limit(limit: count, window: limit.window))
      }
    }
    let allowance: Allowance = unlimited ? .unlimited : limits.isEmpty ? .notIncluded : .limited(limits)
    return Claim(feature: feature.name, allowance: allowance, words: words(allowance, unit: feature.unit))
  }

  /// "5 decision sessions a day", "1 saved trip in total", "unlimited", "not included".
  static func words(_ allowance: Allowance, unit: UsageUnit?) -> String {
    switch allowance {
    case .unlimited: return "unlimited"
    case .notIncluded: return "not included"
    case .limited(let limits):
      return limits.map { limit in
        let count = unit?.count(limit.limit) ?? (limit.limit == 1 ? "1 use" : "\(limit.limit) uses")
        switch limit.window {
        case .day: return count + " a day"
        case .week: return count + " a week"
        case .month: return count + " a month"
        case .ever: return count + " in total"
        }
      }.joined(separator: ", or ")
    }
  }

  /// Who is in a tier, in words.
  static func condition(of tier: PolicyTier, isLast: Bool, catalog: Catalog) -> String {
    var parts: [String] = []
    if let entitlement = tier.entitlement {
      if entitlement >= 0 {
        let name = catalog.entitlementNames[entitlement]
        let products = catalog.products.filter { $0.entitlements.contains(name) }.map(\.id)
        parts.append("while the '\(name)' entitlement is active (\(products.joined(separator: ", ")))")
      } else {
        parts.append("never: no product grants its entitlement")
      }
    }
    if tier.requiresTrial { parts.append("during the usage-based trial and its grace period") }
    if let within = tier.within { parts.append("within \(durationWords(within)) of the customer's first event") }
    if parts.isEmpty { return isLast ? "everyone else (it applies to everyone: what it includes is in every column)" : "everyone" }
    return parts.joined(separator: ", and ")
  }

  /// When each window used begins anew, in the policy's local time.
  static func resets(_ windows: Set<UsageWindow>, offset: String) -> [String] {
    var lines: [String] = []
    let local = "00:00 UTC\(offset)"
    if windows.contains(.day) { lines.append("Daily limits reset every day at \(local).") }
    if windows.contains(.week) { lines.append("Weekly limits reset every Monday at \(local).") }
    if windows.contains(.month) { lines.append("Monthly limits reset on the 1st of every month at \(local).") }
    if windows.contains(.ever) { lines.append("Limits \"in total\" never reset.") }
    return lines
  }

  /// The trial's terms: how it starts, what ends it, the grace after, what converts it.
  static func trialTerms(_ trial: UsageTrial, policy: Policy, catalog: Catalog) -> String {
    var enders = trial.thresholds.map { threshold -> String in
      let feature = policy.features[threshold.feature]
      return feature.unit?.count(threshold.count) ?? "\(threshold.count) uses of \(feature.label ?? feature.name)"
    }
    enders.append(durationWords(trial.duration))
    let list = enders.count == 1 ? enders[0] : enders.dropLast().joined(separator: ", ") + " or " + enders.last!
    let grace = trial.grace.map { ", then \(durationWords($0)) of grace" } ?? ""
    let entitlement = trial.entitlement >= 0 ? "'\(catalog.entitlementNames[trial.entitlement])'" : "(no product grants it)"
    return "Every customer starts a trial at their first event. It ends after \(list), whichever comes first\(grace). "
      + "Gaining the \(entitlement) entitlement converts it; a trial is used once."
  }

  /// "21 days", "48 hours", "1 month and 2 days".
  static func durationWords(_ duration: ISODuration) -> String {
    func unit(_ value: Int64, _ one: String) -> String? { value == 0 ? nil : "\(value) \(one)\(value == 1 ? "" : "s")" }
    var parts = [unit(duration.years, "year"), unit(duration.months, "month"), unit(duration.days, "day")].compactMap { $0 }
    let ms = duration.timeMilliseconds
    if ms != 0 {
      if ms % 3_600_000 == 0 {
        parts.append(unit(ms / 3_600_000, "hour")!)
      } else if ms % 60_000 == 0 {
        parts.append(unit(ms / 60_000, "minute")!)
      } else {
        parts.append(unit(ms / 1000, "second") ?? "\(ms) ms")
      }
    }
    return parts.count <= 1 ? (parts.first ?? duration.description) : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
  }

  /// "+00:00", "-05:00".
  static func offsetText(_ offsetMs: Int64) -> String {
    let minutes = abs(offsetMs) / 60_000
    let hours = minutes / 60
    let rest = minutes % 60
    return (offsetMs < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
  }
}
