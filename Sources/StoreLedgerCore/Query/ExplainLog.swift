/// Names the events an answer's explanation cites (`--explain`), from what the fold touched.
enum ExplainLog {
  /// Builds the explanation of an answer from what was noted.
  ///
  /// With `gathered` (a subject some transfer names: the events its fold read, section 9), the
  /// transfers that made it the owner of a unit are cited beside that unit's events.
  static func explanation(
    touches: TouchLog, answer: Answer, selection: Selection,
    ledger: Ledger, subject: Symbol?, gathered: OwnedEventGathering? = nil
  ) -> Explanation {
    let events: ArraySlice<Event>
    if let gathered {
      events = gathered.events[...]
    } else if let subject {
      events = ledger.events(of: subject)
    } else {
      return Explanation(entitlements: [], plans: [], balances: [])
    }
    let base = events.startIndex
    func evidence(_ positions: [Int]) -> [Evidence] {
      var cited = positions.map { events[base + $0] }
      for owned in gathered?.ownedUnits ?? [] {
        let unit = ledger.owners.units[Int(owned.unit)]
        // Cited in effective order among the unit's events: the line that made this subject its owner.
        if cited.contains(where: { unit.names($0) }) { cited = (cited + owned.transfers).sorted(by: Event.effectiveOrder) }
      }
      return cited.map { Evidence(id: ledger.symbols.ids.string($0.id), line: Int($0.line)) }
    }
    var result = Explanation(entitlements: [], plans: [], balances: [])
    for (entitlement, candidate) in selection.bestByEntitlement.enumerated() where candidate.isSet {
      result.entitlements.append((ledger.catalog.entitlementNames[entitlement], evidence(touches.positions(candidate))))
    }
    for (group, candidate) in selection.bestByGroup.enumerated() where candidate.isSet {
      result.plans.append((ledger.catalog.groupNames[group], evidence(touches.positions(candidate))))
    }
    for balance in answer.balances {
      let currency = ledger.symbols.currencies.lookup(balance.currency) ?? .none
      result.balances.append((balance.currency, evidence(touches.byCurrency[currency] ?? [])))
    }
    return result
  }
}
