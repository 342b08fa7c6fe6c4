/// One subject folded to T as known at R: its state, what an answer reports, and the policy's
/// outcome. The domain half of a query; `QueryEngine` only names and writes what it holds.
///
/// Events apply in effective order, skipping those recorded after R and stopping at the first
/// after T, so every (T, R) pair is exact. Buffers are reused across subjects.
package struct PointInTimeFold {
  /// The state after the counted events.
  package private(set) var state = SubjectState()
  /// What is reported at T (empty for a stale cached answer).
  package private(set) var selection = Selection()
  /// What the policy needs from the counted events.
  package private(set) var usage = UsageFold()
  /// Tier, trial and features at T, when the catalog has a policy.
  package private(set) var outcome = PolicyOutcome()
  /// What each applied event touched, kept only while explaining.
  package var touches: TouchLog? = nil
  /// The trial's start and conversion when decided apart (a subject in a transfer group); nil:
  /// from the events folded.
  package var trialOverride: (first: Timestamp?, conversion: Timestamp?)? = nil
  /// The usage facts read from a `UsageIndex` (the fast path of `evaluate`).
  private var indexed = IndexedUsage()

  /// Nothing folded yet.
  package init() {}

  /// Sets the index (of the ledger whose subjects `evaluate` will be given) that
  /// `evaluate(_:…indexedSubject:)` reads uses from; nil: visit every use.
  package mutating func useIndex(_ index: UsageIndex?) { indexed.index = index }

  /// Folds `events` (one subject's, in effective order; empty for a subject never seen) to T
  /// as known at `knownBy`, selects at T, hides everything active when `isStale`, then decides
  /// the policy.
  ///
  /// With `indexedSubject` (the subject's number in the index set by `useIndex`, and not
  /// explaining) the fold visits only the events that are not uses and reads the uses' sums
  /// from the index; the answer is the same.
  /// - Complexity: O(events up to T + subscriptions + grants + tiers × features); with an
  ///   index, O(other events up to T + features × log uses + uses recorded after R).
  package mutating func evaluate(
    _ events: UnsafeBufferPointer<Event>, subscriptionCount: Int, at time: Timestamp, knownBy: Timestamp?,
    isStale: Bool, context: FoldContext, indexedSubject: Int? = nil
  ) {
    let catalog = context.catalog
    let knownBy = knownBy ?? Timestamp.distantFuture
    // Read once: each `catalog.policy` copies the value (a retain per array in it).
    let policy = catalog.policy
    let isIndexed = policy != nil && indexedSubject != nil && indexed.index != nil && touches == nil
    if isIndexed, let policy, let subject = indexedSubject {
      // Items are indexed by position: the uses after the last other event need none.
      let itemCount = indexed.view.itemCount(of: subject)
      state.reset(subscriptionCount: subscriptionCount, itemCount: itemCount)
      foldOthers(subject: subject, at: time, knownBy: knownBy, policy: policy, context: context)
    } else if let policy {
      state.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
      usage.reset(policy: policy, at: time, explain: touches != nil)
      for position in events.indices {
        let event = events[position]
        if event.at > time { break }
        if event.recorded > knownBy { continue }
        usage.willApply(event, state: state, catalog: catalog)
        let effect = state.apply(event, context: context)
        // Another subject's line of a unit this one owns (section 9) is not this subject's event
        // for usage and the trial; a transfer to it is where its conversion is also tried.
        if !event.isForeign {
          usage.didApply(event, position: position, policy: policy)
        } else if event.isTransfer {
          usage.tryConversion(at: event.at)
        }
        if touches != nil, case .applied(let touch) = effect { touches!.note(touch, position: position) }
      }
      usage.finish(state: state, catalog: catalog)
      if let trialOverride { usage.override(first: trialOverride.first, conversion: trialOverride.conversion) }
    } else {
      state.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
      for position in events.indices {
        let event = events[position]
        if event.at > time { break }
        if event.recorded > knownBy { continue }
        let effect = state.apply(event, context: context)
        if touches != nil, case .applied(let touch) = effect { touches!.note(touch, position: position) }
      }
    }
    selection.select(state, at: time, catalog: catalog)
    // A stale cached answer shows nothing as active; tiers and the trial follow.
    if isStale { selection.clear() }
    if let policy {
      let best = selection.bestByEntitlement
      if isIndexed {
        outcome.decide(policy: policy, usage: indexed, at: time) { $0 >= 0 && best[$0].isSet }
      } else {
        outcome.decide(policy: policy, usage: usage, at: time) { $0 >= 0 && best[$0].isSet }
      }
    }
  }

  /// The indexed fold: the subject's events that are not uses, then its uses from the index.
  private mutating func foldOthers(
    subject: Int, at time: Timestamp, knownBy: Timestamp, policy: Policy,
    context: FoldContext
  ) {
    let catalog = context.catalog
    let index = indexed.view
    usage.reset(policy: policy, at: time, explain: false)
    for event in index.others(of: subject) {
      if event.at > time { break }
      if event.recorded > knownBy { continue }
      usage.willApply(event, state: state, catalog: catalog)
      _ = state.apply(event, context: context)
      // Positions are kept only when explaining, which does not come here.
      usage.didApply(event, position: 0, policy: policy)
    }
    usage.finish(state: state, catalog: catalog)
    indexed.reset(subject: subject, at: time, knownBy: knownBy, windows: usage.windows, fold: usage)
  }
}
