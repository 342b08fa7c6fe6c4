import StoreLedgerCore

extension ReportBuilder {
  /// Folds the parties of a customer joined by transfers known at R under the owner model
  /// (contract v1.3, section 9; Docs/reports.md, "Owners and customers"): each party's stocks at
  /// a boundary are its answer there, and each event is tallied once, in the fold of the party
  /// that owns its unit at its `at`.
  ///
  /// What `OwnedEventGathering` gathers for a party changes only at its change instants
  /// (`OwnerChains.changeInstants`), so the party is folded once per span between them: the span's
  /// gathered events from the start, tallying only those effective in the span. A transfer is
  /// thus neither a new subscription nor churn: the receiver's fold holds the unit's history
  /// before it, the giver's no longer holds the unit. Parties without lines (a `to` only) count too.
  /// - Complexity: O(Σ over parties of (change instants + 1) · (events gathered + buckets · subscriptions)).
  mutating func add(group parties: [Int32]) {
    let owners = ledger.owners
    let allEvents = ledger.events
    let ledger = ledger
    var gathering = OwnedEventGathering(catalog: ledger.catalog)
    for party in parties {
      let subject = owners.partySubjects[Int(party)]
      let starts = [Timestamp.distantPast] + owners.changeInstants(of: party, knownBy: knownBy)
      beginSubject()
      var funnel = TrialFunnel(trial: ledger.catalog.policy?.trial)
      var isFirstKnown = true
      // A span starting after the last boundary tallies nothing the report shows.
      for (index, from) in starts.enumerated() where from <= buckets.end {
        let until = index + 1 < starts.count ? starts[index + 1] : .distantFuture
        allEvents.withUnsafeBufferPointer { all in
          func eventsOf(_ subject: Symbol) -> UnsafeBufferPointer<Event> {
            guard subject.isSome else { return UnsafeBufferPointer(rebasing: all[0..<0]) }
            let extent = ledger.extent(of: subject)
            return UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
          }
          gathering.gather(
            party: party, own: eventsOf(subject), chains: owners, at: from, knownBy: knownBy, eventsOf: eventsOf)
          if hasUsageTrial { noteHiddenOwnLines(eventsOf(subject), party: party, from: from, until: until) }
        }
        let gathered = gathering.events
        gathered.withUnsafeBufferPointer { events in
          fold(
            events, subscriptionCount: gathering.subscriptionCount, from: from, until: until, funnel: &funnel,
            isFirstKnown: &isFirstKnown)
        }
        // The span's last instant is tried with the span's owners.
        if hasUsageTrial { funnel.settle(before: until, state: state, catalog: ledger.catalog, isCandidate: false) }
      }
      if hasUsageTrial { tallyFunnel(funnel) }
    }
    hiddenOwnInstants.removeAll()
  }

  /// Notes the instants in [`from`, `until`) of `party`'s own lines its gathering leaves out: those
  /// naming a unit whose chain counts it a member then while another party owns the unit. The
  /// usage-based trial is the subject's own (contract section 7 with 9), so it sees them.
  /// - Complexity: O(own events × the party's units).
  private mutating func noteHiddenOwnLines(
    _ own: UnsafeBufferPointer<Event>, party: Int32, from: Timestamp, until: Timestamp
  ) {
    hiddenOwnInstants.removeAll(keepingCapacity: true)
    let owners = ledger.owners
    let hidden = owners.unitsOfParty[Int(party)].map { owners.units[Int($0)] }.filter { unit in
      unit.isMember(party, at: from, knownBy: knownBy) && unit.owner(at: from, knownBy: knownBy) != party
    }
    guard !hidden.isEmpty else { return }
    for event in own where event.recorded <= knownBy && event.at >= from && event.at < until {
      if hidden.contains(where: { $0.names(event) }) { hiddenOwnInstants.append(event.at) }
    }
  }
}
