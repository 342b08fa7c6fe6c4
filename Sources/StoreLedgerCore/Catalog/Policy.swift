/// A calendar window over which a feature's uses are counted (Docs/semantics.md, "Usage").
package enum UsageWindow: UInt8, Sendable, CaseIterable {
  /// The local calendar day.
  case day
  /// The ISO week, from Monday 00:00 local time.
  case week
  /// The local calendar month.
  case month
  /// Since the beginning of time: never resets.
  case ever

  /// The name used in catalogs.
  package var name: String {
    switch self {
    case .day: return "day"
    case .week: return "week"
    case .month: return "month"
    case .ever: return "ever"
    }
  }
}

/// What one tier allows of one feature.
package struct TierLimit: Sendable, Equatable {
  /// The most uses in `window`; nil for unlimited.
  package var limit: Int64?
  /// The window `limit` counts over.
  package var window: UsageWindow
}

/// One tier of a policy: a name and the conditions under which a subject is in it.
package struct PolicyTier: Sendable, Equatable {
  /// The tier's name, unique in the policy.
  package var name: String
  /// An entitlement that must be active at T (index into `Catalog.entitlementNames`; -1 when
  /// no product grants it, so the condition never holds); nil for no condition.
  package var entitlement: Int?
  /// Whether the usage-based trial must be in state `trial` or `grace` at T.
  package var requiresTrial: Bool
  /// T must be before the subject's first event plus this; nil for no condition.
  package var within: ISODuration?
  /// The tier's name for people (contract v1.2 §7); answers ignore it.
  package var label: String? = nil
}

/// How a feature's uses are counted in words: "1 decision session", "5 decision sessions".
package struct UsageUnit: Sendable, Equatable {
  /// The singular: "decision session".
  package var one: String
  /// The plural: "decision sessions".
  package var other: String

  /// "1 decision session", "5 decision sessions".
  package func count(_ value: Int64) -> String { "\(value) \(value == 1 ? one : other)" }
}

/// One metered feature of a policy.
package struct PolicyFeature: Sendable, Equatable {
  /// The feature's name (the `feature` of `usage` events).
  package var name: String
  /// The window limits count over unless a tier names another.
  package var window: UsageWindow
  /// Per tier (by index into `Policy.tiers`), the limit; nil when the tier gives no use.
  package var limits: [TierLimit?]
  /// The feature's name for people (contract v1.2 §7); answers ignore it.
  package var label: String? = nil
  /// What one use is called, singular and plural; answers ignore it.
  package var unit: UsageUnit? = nil
}

/// The usage-based trial: ends at subscription, at a usage threshold or after a duration.
package struct UsageTrial: Sendable, Equatable {
  /// The entitlement whose start converts the trial (index into `Catalog.entitlementNames`, -1 if
  /// no product grants it).
  package var entitlement: Int
  /// The longest the trial lasts.
  package var duration: ISODuration
  /// Uses that mature the trial: (feature index, count ≥ 1), sorted by feature.
  package var thresholds: [(feature: Int, count: Int64)]
  /// Time after maturity in state `grace`; nil for none.
  package var grace: ISODuration?

  package static func == (a: UsageTrial, b: UsageTrial) -> Bool {
    a.entitlement == b.entitlement && a.duration == b.duration && a.grace == b.grace
      && a.thresholds.elementsEqual(b.thresholds, by: { $0 == $1 })
  }
}

/// A catalog's usage policy: tiers, metered features and the usage-based trial.
///
/// Features are sorted by name (byte order), so indices and everything printed from them
/// are deterministic. Immutable once parsed.
package struct Policy: Sendable, Equatable {
  /// Where calendar windows begin: the offset of local time from UTC, in milliseconds.
  package var utcOffsetMs: Int64
  /// The usage-based trial, if any.
  package var trial: UsageTrial?
  /// Tiers in order; the first that matches is the subject's tier.
  package var tiers: [PolicyTier]
  /// Features sorted by name.
  package var features: [PolicyFeature]

  /// The index of the feature named `name`.
  /// - Complexity: O(log features).
  package func featureIndex(of name: String) -> Int? {
    var name = name
    return name.withUTF8 { featureIndex(of: $0) }
  }

  /// The index of the feature whose name's bytes are `bytes`.
  /// - Complexity: O(log features × name length).
  package func featureIndex(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var low = 0
    var high = features.count
    while low < high {
      let middle = (low + high) / 2
      // Compared as contiguous bytes: the generic UTF8View comparisons cost a thousand
      // instructions per usage line.
      var name = features[middle].name
      let order = name.withUTF8 { Policy.compareBytes($0, bytes) }
      if order == 0 { return middle }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  /// Byte-wise lexicographic order of two byte strings: negative, zero or positive.
  static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    for k in 0..<min(a.count, b.count) where a[k] != b[k] { return Int(a[k]) - Int(b[k]) }
    return a.count - b.count
  }
}
