/// Where the usage-based trial stands at T (Docs/semantics.md, "The usage-based trial").
public enum TrialState: String, Sendable, Hashable, Codable, CaseIterable {
  /// Before maturity, not converted.
  case trial
  /// After maturity, within the grace period.
  case grace
  /// Converted, and the trial's entitlement is active at T.
  case subscribed
  /// Over: past its grace, or converted and no longer entitled (a trial is used once).
  case expired

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString {
    switch self {
    case .trial: return "trial"
    case .grace: return "grace"
    case .subscribed: return "subscribed"
    case .expired: return "expired"
    }
  }
}

/// What ended (or, before maturity, will end) the trial.
package enum TrialEnd: Equatable {
  /// The trial's duration ran out.
  case duration
  /// The subject subscribed before maturity.
  case subscription
  /// The feature at this index reached its threshold.
  case feature(Int)
}

/// The trial at T, in indices and instants (presentation turns it into names).
package struct TrialOutcome: Equatable {
  package var state: TrialState
  package var started: Timestamp
  package var ends: Timestamp
  package var endsBy: TrialEnd
  /// nil when the trial ended by subscription.
  package var graceEnds: Timestamp?
}

/// One feature at T: whether a use is allowed, and by which tier.
package struct FeatureOutcome: Equatable {
  package var allowed = false
  /// The reported tier's index, or -1 when no matching tier lists the feature.
  package var tier = -1
  /// Uses in the reported window before T (may be negative: releases are not clamped).
  package var used: Int64 = 0
  /// The reported tier's limit; nil for unlimited (0 when no tier lists the feature).
  package var limit: Int64? = 0
  /// The window `used` counts over.
  package var window = UsageWindow.ever
  /// Where that window ends; nil for `ever`.
  package var windowEnds: Timestamp? = nil

  /// Not allowed, no tier.
  package init() {}
}

/// The policy's answer at T: tier, trial and every feature, decided from a `UsageFold` and
/// which entitlements are active (Docs/semantics.md, "Usage").
///
/// Buffers are reused across queries, so deciding allocates nothing once warm.
package struct PolicyOutcome: Equatable {
  /// The first matching tier's index, or -1 when none matches.
  package var tier = -1
  /// The trial, or nil without a trial section or when no event counts.
  package var trial: TrialOutcome? = nil
  /// Per feature, in the policy's (name) order.
  package var features: [FeatureOutcome] = []
  /// Per tier: whether it matches at T (a reused buffer).
  private var matching: [Bool] = []

  /// Decides everything at T. `isEntitled(e)` says whether entitlement index `e` is active at
  /// T as the answer reports it (false for all when a cached answer is stale).
  /// - Complexity: O(tiers × features + thresholds).
  mutating func decide<Facts: UsageFacts>(
    policy: Policy, usage: Facts, at time: Timestamp, isEntitled: (Int) -> Bool
  ) {
    trial = Self.trial(policy: policy, usage: usage, at: time, isEntitled: isEntitled)
    let isInTrial = trial.map { $0.state == .trial || $0.state == .grace } ?? false
    func matches(_ tier: PolicyTier) -> Bool {
      if let entitlement = tier.entitlement, !isEntitled(entitlement) { return false }
      if tier.requiresTrial && !isInTrial { return false }
      if let within = tier.within {
        guard let first = usage.first, time < within.added(to: first) else { return false }
      }
      return true
    }
    tier = -1
    matching.removeAll(keepingCapacity: true)
    for (index, candidate) in policy.tiers.enumerated() {
      let isMatch = matches(candidate)
      matching.append(isMatch)
      if isMatch && tier < 0 { tier = index }
    }
    features.removeAll(keepingCapacity: true)
    for (featureIndex, feature) in policy.features.enumerated() {
      var outcome = FeatureOutcome()
      var listing = -1
      for (tierIndex, limit) in feature.limits.enumerated() where matching[tierIndex] {
        guard let limit else { continue }
        if listing < 0 { listing = tierIndex }
        let used = usage.used(featureIndex, in: limit.window)
        if limit.limit.map({ used < $0 }) ?? true {
          listing = tierIndex
          outcome.allowed = true
          break
        }
      }
      outcome.tier = listing
      if listing >= 0, let limit = feature.limits[listing] {
        outcome.limit = limit.limit
        outcome.window = limit.window
      } else {
        outcome.limit = 0
        outcome.window = feature.window
      }
      outcome.used = usage.used(featureIndex, in: outcome.window)
      // A window ending after 9999 (an --at in its last day, week or month) has no end the tool can print.
      outcome.windowEnds = usage.windowEnd(outcome.window).flatMap { $0.isReadable ? $0 : nil }
      features.append(outcome)
    }
  }

  private static func trial<Facts: UsageFacts>(
    policy: Policy, usage: Facts, at time: Timestamp, isEntitled: (Int) -> Bool
  ) -> TrialOutcome? {
    guard let trial = policy.trial, let started = usage.first else { return nil }
    var maturity = trial.duration.added(to: started)
    var maturedBy = TrialEnd.duration
    // Thresholds are in feature (name) order and only an earlier instant wins: on equal
    // instants `duration` comes first, then features by name.
    for threshold in trial.thresholds {
      let reached = usage.thresholdReachedAt(threshold.feature)
      if reached < maturity {
        maturity = reached
        maturedBy = .feature(threshold.feature)
      }
    }
    let graceEnds = trial.grace?.added(to: maturity) ?? maturity
    let state: TrialState
    if usage.conversion != nil {
      state = isEntitled(trial.entitlement) ? .subscribed : .expired
    } else {
      state = time < maturity ? .trial : time < graceEnds ? .grace : .expired
    }
    if let conversion = usage.conversion, conversion < maturity {
      return TrialOutcome(state: state, started: started, ends: conversion, endsBy: .subscription, graceEnds: nil)
    }
    return TrialOutcome(state: state, started: started, ends: maturity, endsBy: maturedBy, graceEnds: graceEnds)
  }
}
