// Contract v1.3, section 9, with section 7: the trial stays per subject. Its start is the
// earliest of the subject's own lines, whichever units they name and whoever owns those now;
// its conversion is the first of those lines' instants (or of a transfer to the subject that
// counts) at which the answer then, with the owners then, holds the trial's entitlement. One fold
// at T gathers the events with the owners at T, so a subject in a transfer group decides both here.
extension QueryEngine {
  /// The trial's start and conversion for the subject of `party` at T as known at `knownBy`; nil
  /// when the catalog has no trial.
  /// - Complexity: O(c · g) for c instants at which access may have begun and g events of the
  ///   subject's group; O(events of the subject) when it never had access.
  mutating func ownedTrial(
    party: Int32, subject: Symbol?, at time: Timestamp, knownBy: Timestamp
  ) -> (first: Timestamp?, conversion: Timestamp?)? {
    let catalog = ledger.catalog
    guard let trial = catalog.policy?.trial else { return nil }
    let own = subject.map { Array(ledger.events(of: $0)) } ?? []
    let counted = own.filter { $0.at <= time && $0.recorded <= knownBy }
    guard let first = counted.first?.at else { return (nil, nil) }
    let owners = ledger.owners
    var candidates = counted.map(\.at)
    // Where access may begin: a line that may grant it (any line of the group's units) or a transfer to the subject.
    var openings = counted.filter { $0.kind.mayGrantAccess }.map(\.at)
    for number in owners.unitsOfParty[Int(party)] {
      let unit = owners.units[Int(number)]
      for step in unit.steps where step.to == party && step.transfer.recorded <= knownBy && step.transfer.at <= time {
        openings.append(step.transfer.at)
        if step.transfer.at >= first { candidates.append(step.transfer.at) }
      }
      for member in owners.subjects(of: unit) where member != subject {
        for event in ledger.events(of: member)
        where unit.names(event) && event.kind.mayGrantAccess && event.recorded <= knownBy && event.at <= time {
          openings.append(event.at)
        }
      }
    }
    candidates = Array(Set(candidates)).sorted()
    openings.sort()
    var probed: Timestamp? = nil
    var nextOpening = 0
    for instant in candidates {
      // Without an opening since the last probe (which found no access), there is none now either.
      var opened = probed == nil
      while nextOpening < openings.count && openings[nextOpening] <= instant {
        if probed.map({ openings[nextOpening] > $0 }) ?? true { opened = true }
        nextOpening += 1
      }
      guard opened else { continue }
      probed = instant
      if holds(trial.entitlement, party: party, subject: subject, at: instant, knownBy: knownBy) {
        return (first, instant)
      }
    }
    return (first, nil)
  }

  /// Whether the answer at `instant` as known at `knownBy` holds `entitlement`, with the owners then.
  private mutating func holds(
    _ entitlement: Int, party: Int32, subject: Symbol?, at instant: Timestamp, knownBy: Timestamp
  ) -> Bool {
    let ledger = self.ledger
    ledger.events.withUnsafeBufferPointer { all in
      func eventsOf(_ subject: Symbol) -> UnsafeBufferPointer<Event> {
        let extent = ledger.extent(of: subject)
        return UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
      }
      trialProbe.gathering.gather(
        party: party, own: subject.map(eventsOf) ?? UnsafeBufferPointer(start: nil, count: 0), chains: ledger.owners,
        at: instant, knownBy: knownBy, eventsOf: eventsOf)
    }
    let gathering = trialProbe.gathering
    gathering.events.withUnsafeBufferPointer { events in
      trialProbe.fold.evaluate(
        events, subscriptionCount: gathering.subscriptionCount, at: instant, knownBy: knownBy, isStale: false,
        context: ledger.context)
    }
    return trialProbe.fold.state.hasEntitlement(entitlement, at: instant, catalog: ledger.catalog)
  }
}
