/// Records which applied events touched each subscription, grant and currency,
/// so `--explain` can name the events that decided an answer.
///
/// Only built when an explanation is asked for; the plain query path never allocates it.
struct ExplainLog {
  private var bySubscription: [Int: [Int]] = [:]
  private var byItem: [Int: [Int]] = [:]
  private var byCurrency: [Symbol: [Int]] = [:]

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

  /// Builds the explanation of an answer from what was noted.
  func explanation(
    answer: Answer, selection: Selection,
    ledger: Ledger, subject: Symbol?
  ) -> Explanation {
    guard let subject else { return Explanation(entitlements: [], plans: [], balances: []) }
    let events = ledger.events(of: subject)
    let base = events.startIndex
    func evidence(_ positions: [Int]) -> [Evidence] {
      positions.map { position in
        let event = events[base + position]
        return Evidence(id: ledger.symbols.ids.string(event.id), line: Int(event.line))
      }
    }
    func positions(_ candidate: Selection.Candidate) -> [Int] {
      candidate.isSubscription ? bySubscription[candidate.index] ?? [] : byItem[candidate.index] ?? []
    }
    var result = Explanation(entitlements: [], plans: [], balances: [])
    for (entitlement, candidate) in selection.bestByEntitlement.enumerated() where candidate.isSet {
      result.entitlements.append((ledger.catalog.entitlementNames[entitlement], evidence(positions(candidate))))
    }
    for (group, candidate) in selection.bestByGroup.enumerated() where candidate.isSet {
      result.plans.append((ledger.catalog.groupNames[group], evidence(positions(candidate))))
    }
    for balance in answer.balances {
      let currency = ledger.symbols.currencies.lookup(balance.currency) ?? .none
      result.balances.append((balance.currency, evidence(byCurrency[currency] ?? [])))
    }
    return result
  }
}
