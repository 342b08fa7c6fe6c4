/// Judges every use of one subject (quantity > 0) in a single pass over its events: the
/// policy's outcome for its feature at its own `at`, at full knowledge of the events so far.
///
/// That is the answer `query --at` the use's instant gives (no `--as-of`), kept incrementally:
/// the folded state, trial sums and, per feature, cumulative use sums searched by window start.
/// It is also the answer as known at the use's own `recorded` (what decides a leak, Docs/semantics.md)
/// whenever every event effective up to that instant was recorded by then, the usual case;
/// the scan says when it is. Leaks and the report's policy metrics are built on it, and a property
/// test pins the leaks it finds to judging every use by its own fold.
package struct UseScan {
  private var state = SubjectState()
  private var selection = Selection()
  private var outcome = PolicyOutcome()
  private var facts = Facts()

  /// Nothing folded yet.
  package init() {}

  /// What the policy needs at the instant being judged, kept incrementally.
  struct Facts: UsageFacts {
    var first: Timestamp? = nil
    var conversion: Timestamp? = nil
    var thresholds = TrialThresholds()
    /// Per feature: the `at` of each use so far, in effective order.
    var useTimes: [[Timestamp]] = []
    /// Per feature: the running sum of quantities after each use so far.
    var useSums: [[Int64]] = []
    var windows = CalendarWindows(containing: Timestamp(millisecondsSinceEpoch: 0), offsetMs: 0)
    var time = Timestamp(millisecondsSinceEpoch: 0)

    /// Forgets every use, keeping the buffers, for `featureCount` features.
    /// - Complexity: O(features).
    mutating func removeUses(featureCount: Int) {
      if useTimes.count != featureCount {
        useTimes = Array(repeating: [], count: featureCount)
        useSums = Array(repeating: [], count: featureCount)
      }
      for feature in 0..<featureCount {
        useTimes[feature].removeAll(keepingCapacity: true)
        useSums[feature].removeAll(keepingCapacity: true)
      }
    }

    func thresholdReachedAt(_ feature: Int) -> Timestamp { thresholds.reachedAt(feature) }

    func windowEnd(_ window: UsageWindow) -> Timestamp? { windows.end(window) }

    func used(_ feature: Int, in window: UsageWindow) -> Int64 {
      sum(feature, before: time) &- sum(feature, before: windows.start(window))
    }

    /// The sum of `feature`'s uses with `at` before `instant`.
    /// - Complexity: O(log uses).
    private func sum(_ feature: Int, before instant: Timestamp) -> Int64 {
      let times = useTimes[feature]
      var low = 0
      var high = times.count
      while low < high {
        let middle = (low + high) / 2
        if times[middle] < instant { low = middle + 1 } else { high = middle }
      }
      return low == 0 ? 0 : useSums[feature][low - 1]
    }
  }

  /// Scans one subject's events (in effective order) and calls `use` for each use, in effective
  /// order, with its position, its feature's outcome at full knowledge of the events so far, and
  /// whether that outcome is also the one as known at the use's own `recorded`.
  /// - Complexity: O(events × (subscriptions + grants) + uses × tiers × features × log uses).
  package mutating func scan(
    _ events: UnsafeBufferPointer<Event>, subscriptionCount: Int, context: FoldContext, policy: Policy,
    use body: (_ position: Int, _ outcome: FeatureOutcome, _ isKnownAtRecorded: Bool) -> Void
  ) {
    let catalog = context.catalog
    let featureCount = policy.features.count
    let trialEntitlement = policy.trial?.entitlement ?? -1
    state.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
    facts.first = events.first?.at
    facts.conversion = nil
    facts.thresholds.reset(featureCount: featureCount)
    facts.removeUses(featureCount: featureCount)
    var latestRecorded = Timestamp.distantPast
    var start = 0
    while start < events.count {
      let instant = events[start].at
      var end = start
      var mayGrantAccess = false
      var hasUse = false
      while end < events.count && events[end].at == instant {
        let event = events[end]
        _ = state.apply(event, context: context)
        if event.recorded > latestRecorded { latestRecorded = event.recorded }
        if event.kind == .usage {
          hasUse = hasUse || event.quantity > 0
          facts.thresholds.add(event, trial: policy.trial)
        }
        mayGrantAccess = mayGrantAccess || event.kind.mayGrantAccess
        end += 1
      }
      if mayGrantAccess && facts.conversion == nil && trialEntitlement >= 0
        && state.hasEntitlement(trialEntitlement, at: instant, catalog: catalog)
      {
        facts.conversion = instant
      }
      if hasUse {
        var isDecided = false
        for position in start..<end where events[position].kind == .usage && events[position].quantity > 0 {
          let use = events[position]
          if !isDecided {
            decide(at: instant, policy: policy, catalog: catalog)
            isDecided = true
          }
          body(position, outcome.features[Int(use.feature)], latestRecorded <= use.recorded)
        }
      }
      for position in start..<end where events[position].kind == .usage {
        let feature = Int(events[position].feature)
        let previous = facts.useSums[feature].last ?? 0
        facts.useTimes[feature].append(instant)
        facts.useSums[feature].append(previous &+ events[position].quantity)
      }
      start = end
    }
  }

  /// The policy's outcome at `instant` over the events so far (all known).
  private mutating func decide(at instant: Timestamp, policy: Policy, catalog: Catalog) {
    facts.time = instant
    facts.windows = CalendarWindows(containing: instant, offsetMs: policy.utcOffsetMs)
    selection.select(state, at: instant, catalog: catalog)
    let best = selection.bestByEntitlement
    outcome.decide(policy: policy, usage: facts, at: instant) { $0 >= 0 && best[$0].isSet }
  }
}
