/// Names the events an answer's explanation cites (`--explain`), from what the fold touched.
enum ExplainLog {
  /// Builds the explanation of an answer from what was noted: the deciding events of each
  /// selected entitlement and plan, and of each of `balances`.
  ///
  /// With `gathered` (a subject some transfer names: the events its fold read, section 9), the
  /// transfers that made it the owner of a unit are cited beside that unit's events.
  /// - Complexity: O(events cited).
  static func explanation(
    touches: TouchLog, balances: [BalanceState], selection: Selection,
    ledger: Ledger, subject: Symbol?, gathered: OwnedEventGathering? = nil
  ) -> Holdings.Explanation {
    let events: ArraySlice<Event>
    if let gathered {
      events = gathered.events[...]
    } else if let subject {
      events = ledger.events(of: subject)
    } else {
      return Holdings.Explanation()
    }
    let base = events.startIndex
    func evidence(_ positions: [Int]) -> [Holdings.EventReference] {
      var cited = positions.map { events[base + $0] }
      for owned in gathered?.ownedUnits ?? [] {
        let unit = ledger.owners.units[Int(owned.unit)]
        // Cited in effective order among the unit's events: the line that made this subject its owner.
        if cited.contains(where: { unit.names($0) }) { cited = (cited + owned.transfers).sorted(by: Event.effectiveOrder) }
      }
      return cited.map(ledger.reference)
    }
    var result = Holdings.Explanation()
    for (entitlement, candidate) in selection.bestByEntitlement.enumerated() where candidate.isSet {
      result.entitlements[ledger.catalog.entitlementNames[entitlement]] = evidence(touches.positions(candidate))
    }
    for (group, candidate) in selection.bestByGroup.enumerated() where candidate.isSet {
      result.plans[ledger.catalog.groupNames[group]] = evidence(touches.positions(candidate))
    }
    for balance in balances {
      result.balances[ledger.symbols.currencies.string(balance.currency)] = evidence(touches.byCurrency[balance.currency] ?? [])
    }
    return result
  }
}

extension Ledger {
  /// An event of the ledger as an answer cites it: its id and line.
  func reference(_ event: Event) -> Holdings.EventReference {
    Holdings.EventReference(id: EventID(rawValue: symbols.ids.string(event.id)), line: Int(event.line))
  }
}
