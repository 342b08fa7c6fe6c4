/// The events one subject's answer folds at (T, R) when transfers touch it (contract v1.3,
/// section 9): its own lines, less those of units whose events it shares then, plus every line of
/// the units it owns then, whatever subject each line carries, in effective order and resolved
/// afresh. Other subjects' lines are marked `isForeign` (they are not the subject's own events
/// for usage and the trial), and each transfer to the subject that counts is added as a marker,
/// the instant the trial's conversion is also tried at.
///
/// Pure; buffers are kept across queries.
package struct OwnedEventGathering {
  /// The gathered events, in effective order, resolved.
  package private(set) var events: [Event] = []
  /// The subscriptions the resolver numbered in `events`.
  package private(set) var subscriptionCount = 0
  /// The units the subject owns at (T, R) that moved at least once to get there: for each, the
  /// counting transfers, in chain order (what `--explain` cites).
  package private(set) var ownedUnits: [(unit: Int32, transfers: [Event])] = []
  private var shared: [Int32] = []
  private var resolver: Resolver

  /// An empty gathering for a catalog.
  package init(catalog: Catalog) { resolver = Resolver(catalog: catalog) }

  /// Gathers `party`'s events at T as known at `knownBy`; `own` is its own lines (empty for a
  /// party without any), `eventsOf` any ledger subject's.
  /// - Complexity: O(own events × its units + the owned units' members' events + k log k).
  package mutating func gather(
    party: Int32, own: UnsafeBufferPointer<Event>, chains: OwnerChains, at time: Timestamp, knownBy: Timestamp,
    eventsOf: (Symbol) -> UnsafeBufferPointer<Event>
  ) {
    events.removeAll(keepingCapacity: true)
    shared.removeAll(keepingCapacity: true)
    ownedUnits.removeAll(keepingCapacity: true)
    let unitNumbers = chains.unitsOfParty[Int(party)]
    for number in unitNumbers where chains.units[Int(number)].isMember(party, at: time, knownBy: knownBy) {
      shared.append(number)
    }
    for event in own where !shared.contains(where: { chains.units[Int($0)].names(event) }) { events.append(event) }
    for number in unitNumbers {
      let unit = chains.units[Int(number)]
      let counting = unit.steps.filter { OwnerChains.Unit.counts($0, at: time, knownBy: knownBy) }
      for step in counting where step.to == party { events.append(Self.marked(step.transfer)) }
      guard shared.contains(number), unit.owner(at: time, knownBy: knownBy) == party else { continue }
      ownedUnits.append((number, counting.map(\.transfer)))
      var members = [unit.firstOwner]
      for step in counting where !members.contains(step.to) { members.append(step.to) }
      for member in members {
        let subject = chains.partySubjects[Int(member)]
        guard subject.isSome else { continue }
        for event in eventsOf(subject) where unit.names(event) {
          events.append(member == party ? event : Self.marked(event))
        }
      }
    }
    events.sort(by: Event.effectiveOrder)
    subscriptionCount = events.withUnsafeMutableBufferPointer { all in
      for index in all.indices { all[index].slot = UInt32.max }
      return Int(resolver.resolve(all))
    }
  }

  private static func marked(_ event: Event) -> Event {
    var event = event
    event.isForeign = true
    return event
  }
}
