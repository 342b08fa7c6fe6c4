/// Judges uses of one subject as known at an earlier knowledge time R (a leak's own
/// `recorded`, or the report's `--as-of`): the policy's outcome for the use's feature at its
/// own `at`, as `query --at AT --as-of R` decides it (`PointInTimeFold`), without folding the
/// subject from its first event for every use.
///
/// Every event before the first one recorded after R (and effective up to the use) counts at
/// R too, so the fold of that prefix is the full-knowledge fold: one sweep keeps it, and the
/// uses that share that first event fold only the events from there on, as known at R, one
/// after the other while each one's R counts and skips the same events the previous one did
/// (the usual case: a few late events, every other one known at once). A property test pins
/// the outcomes to the point-in-time fold's.
package struct KnownAtUseJudge {
  /// One use to judge: its position within the subject's events and the knowledge time R.
  package struct Request {
    package var position: Int
    package var knownBy: Timestamp

    /// A use at `position`, judged as known at `knownBy`.
    package init(position: Int, knownBy: Timestamp) {
      self.position = position
      self.knownBy = knownBy
    }
  }

  /// Nothing judged yet; buffers grow with the first subject.
  package init() {}

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
  /// The requests (by index) by the position their fold starts from, then in effective order.
  private var order: [(checkpoint: Int, position: Int, request: Int)] = []
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
  package mutating func judge(
    _ events: UnsafeBufferPointer<Event>, subscriptionCount: Int, context: FoldContext, policy: Policy,
    requests: [Request], body: (_ request: Int, _ outcome: FeatureOutcome) -> Void
  ) {
    guard !requests.isEmpty else { return }
    planCheckpoints(events, requests: requests)
    let featureCount = policy.features.count
    base.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
    baseProgress = FoldProgress()
    baseProgress.thresholds.reset(featureCount: featureCount)
    facts.removeUses(featureCount: featureCount)
    var next = 0
    for position in 0...events.count {
      if next < order.count && order[next].checkpoint == position {
        next = judgeGroup(events, from: next, requests, context: context, policy: policy, body: body)
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
      order.append((low, request.position, index))
    }
    order.sort { ($0.checkpoint, $0.position, $0.request) < ($1.checkpoint, $1.position, $1.request) }
  }

  /// The requests from `first` on that share its checkpoint (the sweep's position), in effective
  /// order; returns the index in `order` after them.
  private mutating func judgeGroup(
    _ events: UnsafeBufferPointer<Event>, from first: Int, _ requests: [Request], context: FoldContext,
    policy: Policy, body: (_ request: Int, _ outcome: FeatureOutcome) -> Void
  ) -> Int {
    let checkpoint = order[first].checkpoint
    savedCounts.removeAll(keepingCapacity: true)
    for feature in facts.useTimes.indices { savedCounts.append(facts.useTimes[feature].count) }
    var run = Run(progress: baseProgress, end: checkpoint)
    var next = first
    while next < order.count && order[next].checkpoint == checkpoint {
      let index = order[next].request
      let request = requests[index]
      if !(run.skippedRecorded > request.knownBy && run.countedRecorded <= request.knownBy) {
        truncateUses()
        run = Run(progress: baseProgress, end: checkpoint)
      }
      let use = events[request.position]
      advance(&run, events, through: use.at, knownBy: request.knownBy, context: context, policy: policy)
      body(index, decide(run, at: use.at, feature: Int(use.feature), policy: policy, catalog: context.catalog))
      next += 1
    }
    truncateUses()
    return next
  }

  /// One fold from a checkpoint, as known at the R of the requests it has served.
  private struct Run {
    var progress: FoldProgress
    /// The first position not yet looked at.
    var end: Int
    /// Whether `work` holds the fold (else the sweep's state, unchanged by the events so far, does).
    var isCopied = false
    /// The earliest `recorded` of a skipped event and the latest of a counted one: a later R
    /// between them counts and skips the same events, so the fold goes on from `end`.
    var skippedRecorded = Timestamp.distantFuture
    var countedRecorded = Timestamp.distantPast
  }

  /// Folds the events from `run.end` to the last one at `time`, counting those recorded by `knownBy`.
  /// Usage and pending purchases leave `SubjectState` as it is, so the sweep's state is copied
  /// only once an event that changes it counts.
  private mutating func advance(
    _ run: inout Run, _ events: UnsafeBufferPointer<Event>, through time: Timestamp, knownBy: Timestamp,
    context: FoldContext, policy: Policy
  ) {
    var position = run.end
    while position < events.count && events[position].at <= time {
      let event = events[position]
      position += 1
      if event.recorded > knownBy {
        run.skippedRecorded = min(run.skippedRecorded, event.recorded)
        continue
      }
      run.countedRecorded = max(run.countedRecorded, event.recorded)
      if !run.isCopied && !event.kind.scope.isSubset(of: .usage) {
        work.copy(base)
        run.isCopied = true
      }
      if let instant = run.progress.pending, event.at != instant {
        Self.checkConversion(at: instant, run.isCopied ? work : base, &run.progress, policy: policy, context.catalog)
      }
      if run.isCopied { _ = work.apply(event, context: context) }
      Self.count(event, &run.progress, &facts, policy: policy)
    }
    run.end = position
  }

  /// The outcome of `feature` at `time` over the run's fold.
  private mutating func decide(
    _ run: Run, at time: Timestamp, feature: Int, policy: Policy, catalog: Catalog
  ) -> FeatureOutcome {
    let state = run.isCopied ? work : base
    var progress = run.progress
    if let instant = progress.pending { Self.checkConversion(at: instant, state, &progress, policy: policy, catalog) }
    facts.first = progress.first
    facts.conversion = progress.conversion
    facts.thresholds = progress.thresholds
    facts.time = time
    facts.windows = CalendarWindows(containing: time, offsetMs: policy.utcOffsetMs)
    selection.select(state, at: time, catalog: catalog)
    let best = selection.bestByEntitlement
    outcome.decide(policy: policy, usage: facts, at: time) { $0 >= 0 && best[$0].isSet }
    return outcome.features[feature]
  }

  /// Takes the uses a run appended off the sweep's use sums.
  private mutating func truncateUses() {
    for (feature, count) in savedCounts.enumerated() {
      facts.useTimes[feature].removeLast(facts.useTimes[feature].count - count)
      facts.useSums[feature].removeLast(facts.useSums[feature].count - count)
    }
  }

  /// Applies one counted event of the sweep as `PointInTimeFold` does with `UsageFold` alongside.
  private static func fold(
    _ event: Event, into state: inout SubjectState, _ progress: inout FoldProgress, _ facts: inout UseScan.Facts,
    context: FoldContext, policy: Policy
  ) {
    if let instant = progress.pending, event.at != instant {
      checkConversion(at: instant, state, &progress, policy: policy, context.catalog)
    }
    _ = state.apply(event, context: context)
    count(event, &progress, &facts, policy: policy)
  }

  /// What a counted event adds to the usage facts, after it is applied.
  private static func count(
    _ event: Event, _ progress: inout FoldProgress, _ facts: inout UseScan.Facts, policy: Policy
  ) {
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

extension SubjectState {
  /// Becomes a copy of `other`, reusing this state's buffers.
  /// - Complexity: O(subscriptions + items + balances + grants).
  fileprivate mutating func copy(_ other: SubjectState) {
    subscriptions.removeAll(keepingCapacity: true)
    subscriptions.append(contentsOf: other.subscriptions)
    items.removeAll(keepingCapacity: true)
    items.append(contentsOf: other.items)
    balances.removeAll(keepingCapacity: true)
    balances.append(contentsOf: other.balances)
    grantPositions.removeAll(keepingCapacity: true)
    grantPositions.append(contentsOf: other.grantPositions)
    // Every stored property: a block left from the subject judged before would deny this one's access.
    blocks.removeAll(keepingCapacity: true)
    blocks.append(contentsOf: other.blocks)
    hasBlockEvents = other.hasBlockEvents
  }
}
