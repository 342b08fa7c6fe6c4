/// Per feature, the running sum of uses since the trial started and the instant it first
/// reached the trial's threshold (Docs/semantics.md, "The usage-based trial").
///
/// Shared by the point-in-time fold and the one-pass use scan, so maturity is decided once.
struct TrialThresholds {
  private var sums: [Int64] = []
  private var reachedAt: [Timestamp] = []

  /// Starts over for `featureCount` features, keeping buffers.
  /// - Complexity: O(features).
  mutating func reset(featureCount: Int) {
    if sums.count == featureCount {
      for index in sums.indices {
        sums[index] = 0
        reachedAt[index] = .distantFuture
      }
    } else {
      sums = [Int64](repeating: 0, count: featureCount)
      reachedAt = [Timestamp](repeating: .distantFuture, count: featureCount)
    }
  }

  /// Adds a use (uses at T count towards maturity) and notes when its feature's threshold is first reached.
  mutating func add(_ use: Event, trial: UsageTrial?) {
    guard let trial else { return }
    let feature = Int(use.feature)
    guard reachedAt[feature] == .distantFuture else { return }
    sums[feature] &+= use.quantity
    for threshold in trial.thresholds where threshold.feature == feature && sums[feature] >= threshold.count {
      reachedAt[feature] = use.at
    }
  }

  /// When `feature`'s threshold was first reached (`distantFuture`: not yet, or no threshold).
  func reachedAt(_ feature: Int) -> Timestamp { reachedAt[feature] }
}
