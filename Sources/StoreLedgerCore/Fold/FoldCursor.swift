/// Folds one subject's events forward as known at a time (full knowledge by default), instant by
/// instant, and selects what is reported at each instant: the small driver timelines are built on.
package struct FoldCursor {
  private let events: ArraySlice<Event>
  private let context: FoldContext
  /// Events recorded later are skipped, as `query --as-of` skips them.
  private let knownBy: Timestamp
  private var next: Int
  /// The state after every event up to the last instant advanced to.
  package private(set) var state = SubjectState()
  /// What is reported at the last instant advanced to.
  package private(set) var selection = Selection()

  /// A cursor before the first of `events` (one subject's, in effective order).
  package init(events: ArraySlice<Event>, subscriptionCount: Int, context: FoldContext, knownBy: Timestamp = .distantFuture) {
    self.events = events
    self.context = context
    self.knownBy = knownBy
    next = events.startIndex
    state.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
  }

  /// Applies every event with `at` ≤ `instant`, then selects at `instant` (instants must not decrease).
  /// - Complexity: O(events applied + subscriptions + grants).
  package mutating func advance(to instant: Timestamp) {
    while next < events.endIndex && events[next].at <= instant {
      if events[next].recorded <= knownBy { _ = state.apply(events[next], context: context) }
      next += 1
    }
    selection.select(state, at: instant, catalog: context.catalog)
  }
}
