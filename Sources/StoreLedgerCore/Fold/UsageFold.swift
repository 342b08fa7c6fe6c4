/// What the policy needs from one subject's events up to T as known at R, gathered during
/// the same effective-order pass that folds `SubjectState` (Docs/semantics.md, "Usage").
///
/// Pure and reusable: `reset` keeps buffers, so a query allocates nothing here.
/// The caller calls `willApply` before and `didApply` after applying each counted event
/// (at ≤ T, recorded ≤ R) in effective order, then `finish`.
package struct UsageFold {
  /// The windows that contain T.
  package private(set) var windows = CalendarWindows(containing: Timestamp(millisecondsSinceEpoch: 0), offsetMs: 0)
  /// T.
  private(set) var time = Timestamp(millisecondsSinceEpoch: 0)
  /// The earliest `at` of a counted event (the trial's start); nil when none counts.
  private(set) var first: Timestamp? = nil
  /// Per feature and window (`feature * 4 + window.rawValue`): the sum of quantities of uses
  /// in [start of that window, T).
  private(set) var used: [Int64] = []
  /// Trial sums and when each threshold was reached.
  private var thresholds = TrialThresholds()
  /// The trial's conversion C: the first counted instant at which its entitlement is active.
  private(set) var conversion: Timestamp? = nil
  /// Positions (within the subject) of counted uses, kept only when explaining.
  package private(set) var usePositions: [Int] = []
  private var explains = false
  private var pendingInstant: Timestamp? = nil
  private var trialEntitlement = -1

  /// Starts over for a query at T.
  /// - Complexity: O(features).
  mutating func reset(policy: Policy, at time: Timestamp, explain: Bool) {
    self.time = time
    windows = CalendarWindows(containing: time, offsetMs: policy.utcOffsetMs)
    first = nil
    conversion = nil
    pendingInstant = nil
    explains = explain
    usePositions.removeAll(keepingCapacity: true)
    let featureCount = policy.features.count
    // Once sized, the buffers are cleared in place: refilling them cost as much as deciding.
    if used.count == featureCount * 4 {
      for index in used.indices { used[index] = 0 }
    } else {
      used = [Int64](repeating: 0, count: featureCount * 4)
    }
    thresholds.reset(featureCount: featureCount)
    trialEntitlement = policy.trial?.entitlement ?? -1
  }

  /// Before `event` is applied: settles the conversion check of the previous instant, whose
  /// events have all been applied once the effective time moves on.
  mutating func willApply(_ event: Event, state: SubjectState, catalog: Catalog) {
    if let instant = pendingInstant, event.at != instant { checkConversion(at: instant, state: state, catalog: catalog) }
  }

  /// After `event` (at `position` within the subject) is applied.
  mutating func didApply(_ event: Event, position: Int, policy: Policy) {
    if first == nil { first = event.at }
    switch event.kind {
    case .usage:
      let feature = Int(event.feature)
      if event.at < time {
        let base = feature * 4
        if event.at >= windows.dayStart { used[base] &+= event.quantity }
        if event.at >= windows.weekStart { used[base + 1] &+= event.quantity }
        if event.at >= windows.monthStart { used[base + 2] &+= event.quantity }
        used[base + 3] &+= event.quantity
        if explains { usePositions.append(position) }
      }
      thresholds.add(event, trial: policy.trial)
    default:
      if event.kind.mayGrantAccess && conversion == nil && trialEntitlement >= 0 { pendingInstant = event.at }
    }
  }

  /// A transfer to the subject takes effect at `instant` (contract v1.3, section 9): the trial's
  /// conversion is also tried there, once the instant's events are applied, never before `started`.
  mutating func tryConversion(at instant: Timestamp) {
    if conversion == nil && trialEntitlement >= 0 { pendingInstant = instant }
  }

  /// After the last counted event.
  mutating func finish(state: SubjectState, catalog: Catalog) {
    if let instant = pendingInstant { checkConversion(at: instant, state: state, catalog: catalog) }
  }

  private mutating func checkConversion(at instant: Timestamp, state: SubjectState, catalog: Catalog) {
    pendingInstant = nil
    // Only a transfer's instant can come before the subject's first event.
    guard let first, first <= instant else { return }
    if conversion == nil && state.hasEntitlement(trialEntitlement, at: instant, catalog: catalog) {
      conversion = instant
    }
  }

  /// Replaces the trial's start and conversion with ones decided over the subject's whole owner
  /// history (contract v1.3, section 9: `QueryEngine.ownedTrial`), before the policy decides.
  mutating func override(first: Timestamp?, conversion: Timestamp?) {
    self.first = first
    self.conversion = conversion
  }

  /// The sum of uses of `feature` in the `window` that contains T, before T.
  package func used(_ feature: Int, in window: UsageWindow) -> Int64 {
    used[feature * 4 + Int(window.rawValue)]
  }

  /// When `feature`'s trial threshold was first reached (`distantFuture`: not yet).
  func thresholdReachedAt(_ feature: Int) -> Timestamp { thresholds.reachedAt(feature) }

  /// Where `window` (containing T) ends; nil for `ever`.
  func windowEnd(_ window: UsageWindow) -> Timestamp? { windows.end(window) }
}

/// What deciding the policy at T needs to know about a subject's counted events.
protocol UsageFacts {
  /// The earliest `at` of a counted event; nil when none counts.
  var first: Timestamp? { get }
  /// The first counted instant at which the trial's entitlement is active.
  var conversion: Timestamp? { get }
  /// When `feature`'s trial threshold was first reached (`distantFuture`: not yet).
  func thresholdReachedAt(_ feature: Int) -> Timestamp
  /// The sum of uses of `feature` in the `window` that contains T, before T.
  func used(_ feature: Int, in window: UsageWindow) -> Int64
  /// Where `window` (containing T) ends; nil for `ever`.
  func windowEnd(_ window: UsageWindow) -> Timestamp?
}

extension UsageFold: UsageFacts {}
