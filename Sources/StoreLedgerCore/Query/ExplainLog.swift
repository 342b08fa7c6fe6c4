/// Names the events an answer's explanation cites (`--explain`), from what the fold touched.
enum ExplainLog {
  /// Builds the explanation of an answer from what was noted.
  static func explanation(
    touches: TouchLog, answer: Answer, selection: Selection,
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
