import StoreLedgerCore

// Contract v1.3, section 9: who held a transferred unit when. A subject's picture shows one
// `ownership` lane per unit its chain names, and the transfers and the unit's lines written
// under other subjects while it held the unit, which its answers then count.
extension CustomerTimeline {
  /// The state an ownership lane's segments have.
  static let ownedState = "owned"

  /// One lane per unit whose chain names `party`: the spans in which it owned the unit, as known
  /// at `knownBy` (a unit bought and moved away shows the span before the move).
  /// - Complexity: O(u · (t² + e)) for its u units of t transfers and e events of their subjects.
  static func ownershipLanes(ledger: Ledger, party: Int32, knownBy: Timestamp) -> [Lane] {
    let owners = ledger.owners
    var lanes: [Lane] = []
    for number in owners.unitsOfParty[Int(party)] {
      let unit = owners.units[Int(number)]
      let first = owners.partySubjects[Int(unit.firstOwner)]
      let lines = first.isSome ? ledger.events(of: first).filter { unit.names($0) && $0.recorded <= knownBy } : []
      guard let start = lines.map(\.at).min() else { continue }
      let product = lines.first { $0.product.isSome }.map { ledger.catalog[$0.product].id } ?? ""
      let instants = Array(Set([start] + unit.steps.map(\.transfer.at).filter { $0 > start })).sorted()
      var segments: [Segment] = []
      for (index, instant) in instants.enumerated() where unit.owner(at: instant, knownBy: knownBy) == party {
        let end = index + 1 < instants.count ? instants[index + 1] : nil
        if let last = segments.last, last.to == instant {
          segments[segments.count - 1].to = end
        } else {
          segments.append(Segment(from: instant, to: end, state: ownedState, product: product))
        }
      }
      lanes.append(Lane(kind: "ownership", name: ledger.symbols.transactions.string(unit.name), segments: segments))
    }
    return lanes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
  }

  /// The events under other subjects that belong in `party`'s picture: the transfers that moved a
  /// unit to it, and a unit's lines that took effect while it owned the unit, as known at `knownBy`.
  /// - Complexity: O(u · (t + e) · t) for its u units of t transfers and e events of their subjects.
  static func ownedEvents(ledger: Ledger, party: Int32, own subject: Symbol, knownBy: Timestamp) -> [Event] {
    let owners = ledger.owners
    var found: [Event] = []
    var seenLines = Set<UInt32>()
    for number in owners.unitsOfParty[Int(party)] {
      let unit = owners.units[Int(number)]
      for step in unit.steps where step.to == party && step.transfer.recorded <= knownBy {
        if seenLines.insert(step.transfer.line).inserted { found.append(step.transfer) }
      }
      for member in owners.subjects(of: unit) where member != subject {
        for event in ledger.events(of: member)
        where unit.names(event) && event.recorded <= knownBy && unit.owner(at: event.at, knownBy: knownBy) == party {
          if seenLines.insert(event.line).inserted { found.append(event) }
        }
      }
    }
    return found
  }
}
