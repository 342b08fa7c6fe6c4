/// The answer to "may this subject use this feature once more at T?".
package struct Permission: Sendable, Hashable {
  /// The subject asked about.
  package var subject: String
  /// Effective time T.
  package var at: Timestamp
  /// Knowledge time (or the cache's verification time); nil for everything known.
  package var asOf: Timestamp?
  /// The subject's tier at T.
  package var tier: String?
  /// The feature's usage answer (allowed, reported tier, used, limit, window end).
  package var usage: Holdings.FeatureUsage
  /// When not allowed: the first tier the subject is not in that would allow it.
  package var wouldAllow: String?

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(
    subject: String, at: Timestamp, asOf: Timestamp? = nil, tier: String? = nil, usage: Holdings.FeatureUsage,
    wouldAllow: String? = nil
  ) {
    self.subject = subject
    self.at = at
    self.asOf = asOf
    self.tier = tier
    self.usage = usage
    self.wouldAllow = wouldAllow
  }
}

/// A use the policy did not allow when it happened, as known then (premium access below the paywall).
package struct Leak: Sendable, Hashable {
  /// The subject.
  package var subject: String
  /// The `usage` event's id.
  package var id: String
  /// Its line in the log.
  package var line: Int
  /// Its effective time.
  package var at: Timestamp
  /// The feature used.
  package var feature: String
  /// The tier that reported the feature (nil: no tier the subject was in offers it).
  package var tier: String?
  /// Uses already counted in that tier's window.
  package var used: Int64
  /// That tier's limit (0 when no tier offers the feature).
  package var limit: Int64?
}
