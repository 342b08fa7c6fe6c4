/// Judges uses of one subject as known at an earlier knowledge time R (a leak's own
/// `recorded`, or the report's `--as-of`): the policy's outcome for the use's feature at its
/// own `at`, as `query --at AT --as-of R` decides it (`PointInTimeFold`), without folding the
/// subject from its first event for every use.
///
/// Every event before the first one recorded after R (and effective up to the use) counts at
/// R too, so the fold of that prefix is the full-knowledge fold: one sweep keeps it, and each
/// use folds only the events from there to its own instant, as known at R. A property test
/// pins the outcomes to the point-in-time fold's.
struct KnownAtUseJudge {
  /// One use to judge: its position within the subject's events and the knowledge time R.
  struct Request {
    var position: Int
    var knownBy: Timestamp
  }

  /// The full-knowledge fold of the events before the sweep's position.
  private var base = SubjectState()
  /// The fold of one request, from the sweep's position to its use.
  private var work = SubjectState()
  private var selection = Selection()
  private var outcome = PolicyOutcome()
  /// Use times and sums of the sweep's prefix; a request appends its own and truncates them back.
  private var facts = UseScan.Facts()
  private var baseProgress = FoldProgress()
  /// The latest `recorded` of the events up to each position.
  private var latestRecorded: [Timestamp] = []
  /// Per request (by index): the position its fold starts from.
  private var order: [(checkpoint: Int, request: Int)] = []
  private var savedCounts: [Int] = []

  /// What the trial facts hold beyond use sums, as one fold goes.
  private struct FoldProgress {
    var first: Timestamp? = nil
    var conversion: Timestamp? = nil
    /// An instant of an event that may grant access, whose conversion check waits until every event at it is applied.
    var pending: Timestamp? = nil
    var thresholds = TrialThresholds()
  }

  /// Calls `body` with every request's index and the outcome of its use's feature, in an unspecified order.
  /// - Complexity: O(events × (subscriptions + grants) + requests × (events from the first one
  ///   recorded after R to the use + tiers × features × log uses)).
  mutating func judge(
    _ events: UnsafeBufferPointer<Event>, subscriptionCount: Int, context: FoldContext, policy: Policy,
    requests: [Request], body: (_ request: Int, _ outcome: FeatureOutcome) -> Void
  ) {
    guard !requests.isEmpty else { return }
    planCheckpoints(events, requests: requests)
    let featureCount = policy.features.count
    base.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
    baseProgress = FoldProgress()
    baseProgress.thresholds.reset(featureCount: featureCount)
    if facts.useTimes.count != featureCount {
      facts.useTimes = Array(repeating: [], count: featureCount)
      facts.useSums = Array(repeating: [], count: featureCount)
    }
    for feature in 0..<featureCount {
      facts.useTimes[feature].removeAll(keepingCapacity: true)
      facts.useSums[feature].removeAll(keepingCapacity: true)
    }
    var next = 0
    for position in 0...events.count {
      while next < order.count && order[next].checkpoint == position {
        let index = order[next].request
        body(index, judgeOne(events, from: position, requests[index], context: context, policy: policy))
        next += 1
      }
      guard next < order.count, position < events.count else { break }
      Self.fold(events[position], into: &base, &baseProgress, &facts, context: context, policy: policy)
    }
  }

  /// Each request's checkpoint: the first event recorded after R, or the first after the use's instant if earlier.
  private mutating func planCheckpoints(_ events: UnsafeBufferPointer<Event>, requests: [Request]) {
    latestRecorded.removeAll(keepingCapacity: true)
    var latest = Timestamp.distantPast
    for event in events {
      if event.recorded > latest { latest = event.recorded }
      latestRecorded.append(latest)
    }
    order.removeAll(keepingCapacity: true)
    for (index, request) in requests.enumerated() {
      let instant = events[request.position].at
      var end = request.position + 1
      while end < events.count && events[end].at == instant { end += 1 }
      var low = 0
      var high = end
      while low < high {
        let middle = (low + high) / 2
        if latestRecorded[middle] > request.knownBy { high = middle } else { low = middle + 1 }
      }
      order.append((low, index))
    }
    order.sort { ($0.checkpoint, $0.request) < ($1.checkpoint, $1.request) }
  }

  /// One request: the sweep's fold plus the events from `checkpoint` to the use's instant known at R.
  private mutating func judgeOne(
    _ events: UnsafeBufferPointer<Event>, from checkpoint: Int, _ request: Request, context: FoldContext,
    policy: Policy
  ) -> FeatureOutcome {
    let use = events[request.position]
    let time = use.at
    work = base
    var progress = baseProgress
    savedCounts.removeAll(keepingCapacity: true)
    savedCounts.append(contentsOf: facts.useTimes.lazy.map(\.count))
    for position in checkpoint..<events.count {
      let event = events[position]
      if event.at > time { break }
      if event.recorded > request.knownBy { continue }
      Self.fold(event, into: &work, &progress, &facts, context: context, policy: policy)
    }
    if let instant = progress.pending { Self.checkConversion(at: instant, work, &progress, policy: policy, context.catalog) }
    facts.first = progress.first
    facts.conversion = progress.conversion
    facts.thresholds = progress.thresholds
    facts.time = time
    facts.windows = CalendarWindows(containing: time, offsetMs: policy.utcOffsetMs)
    selection.select(work, at: time, catalog: context.catalog)
    let best = selection.bestByEntitlement
    outcome.decide(policy: policy, usage: facts, at: time) { $0 >= 0 && best[$0].isSet }
    for (feature, count) in savedCounts.enumerated() {
      facts.useTimes[feature].removeLast(facts.useTimes[feature].count - count)
      facts.useSums[feature].removeLast(facts.useSums[feature].count - count)
    }
    return outcome.features[Int(use.feature)]
  }

  /// Applies one counted event as `PointInTimeFold` does with `UsageFold` alongside.
  private static func fold(
    _ event: Event, into state: inout SubjectState, _ progress: inout FoldProgress, _ facts: inout UseScan.Facts,
    context: FoldContext, policy: Policy
  ) {
    if let instant = progress.pending, event.at != instant {
      checkConversion(at: instant, state, &progress, policy: policy, context.catalog)
    }
    _ = state.apply(event, context: context)
    if progress.first == nil { progress.first = event.at }
    if event.kind == .usage {
      let feature = Int(event.feature)
      let previous = facts.useSums[feature].last ?? 0
      facts.useTimes[feature].append(event.at)
      facts.useSums[feature].append(previous &+ event.quantity)
      progress.thresholds.add(event, trial: policy.trial)
    } else if event.kind.mayGrantAccess && progress.conversion == nil && policy.trial != nil {
      progress.pending = event.at
    }
  }

  private static func checkConversion(
    at instant: Timestamp, _ state: SubjectState, _ progress: inout FoldProgress, policy: Policy, _ catalog: Catalog
  ) {
    progress.pending = nil
    guard progress.conversion == nil, let trial = policy.trial else { return }
    if state.hasEntitlement(trial.entitlement, at: instant, catalog: catalog) { progress.conversion = instant }
  }
}
