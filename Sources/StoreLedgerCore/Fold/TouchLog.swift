/// Records which applied events touched each subscription, grant and currency, so an
/// explanation can name the events that decided an answer.
///
/// Only built when an explanation is asked for; the plain query path never allocates it.
package struct TouchLog {
  private(set) var bySubscription: [Int: [Int]] = [:]
  private(set) var byItem: [Int: [Int]] = [:]
  package private(set) var byCurrency: [Symbol: [Int]] = [:]

  /// Nothing folded yet.
  package init() {}

  /// Notes what an applied event at `position` within its subject touched.
  mutating func note(_ touch: FoldTouch, position: Int) {
    if touch.subscription >= 0 {
      let slot = Int(touch.subscription)
      if touch.startsRecord { bySubscription[slot] = [position] } else { bySubscription[slot, default: []].append(position) }
    }
    if touch.item >= 0 {
      let slot = Int(touch.item)
      if touch.startsRecord { byItem[slot] = [position] } else { byItem[slot, default: []].append(position) }
    }
    if let currency = touch.currency { byCurrency[currency, default: []].append(position) }
  }

  /// The positions of the events that decided a selected subscription or grant.
  package func positions(_ candidate: Selection.Candidate) -> [Int] {
    candidate.isSubscription ? bySubscription[candidate.index] ?? [] : byItem[candidate.index] ?? []
  }
}
