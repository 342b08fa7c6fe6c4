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

  /// Nothing folded yet.
  package init() {}

  /// Folds `events` (one subject's, in effective order; empty for a subject never seen) to T
  /// as known at `knownBy`, selects at T, hides everything active when `isStale`, then decides
  /// the policy.
  /// - Complexity: O(events up to T + subscriptions + grants + tiers × features).
  package mutating func evaluate(
    _ events: UnsafeBufferPointer<Event>, subscriptionCount: Int, at time: Timestamp, knownBy: Timestamp?,
    isStale: Bool, context: FoldContext
  ) {
    let catalog = context.catalog
    state.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
    let knownBy = knownBy ?? Timestamp.distantFuture
    if let policy = catalog.policy {
      usage.reset(policy: policy, at: time, explain: touches != nil)
      for position in events.indices {
        let event = events[position]
        if event.at > time { break }
        if event.recorded > knownBy { continue }
        usage.willApply(event, state: state, catalog: catalog)
        let effect = state.apply(event, context: context)
        usage.didApply(event, position: position, policy: policy)
        if touches != nil, case .applied(let touch) = effect { touches!.note(touch, position: position) }
      }
      usage.finish(state: state, catalog: catalog)
    } else {
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
    if let policy = catalog.policy {
      let best = selection.bestByEntitlement
      outcome.decide(policy: policy, usage: usage, at: time) { $0 >= 0 && best[$0].isSet }
    }
  }
}
