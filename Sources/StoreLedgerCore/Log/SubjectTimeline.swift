/// A subject's history at full knowledge: what it held over time, for snapshots and diffs.
package struct SubjectTimeline: Sendable, Equatable {
  /// A span during which an entitlement was held through one product in one state.
  package struct Interval: Sendable, Equatable {
    /// Start (inclusive).
    package var from: Timestamp
    /// End (exclusive); nil while it never ends.
    package var to: Timestamp?
    /// The product granting it (`support grant` for a v1.3 grant).
    package var product: String
    /// The state reported.
    package var state: String
    /// Who owns it.
    package var ownership: String
    /// The offer of the granting transaction.
    package var period: String
  }

  /// One observed state of a subscription, from an instant on.
  package struct SubscriptionChange: Sendable, Equatable {
    /// When it took this state.
    package var at: Timestamp
    /// The reported state.
    package var state: String
    /// The product.
    package var product: String
    /// The current transaction.
    package var transaction: String
    /// Period end.
    package var expires: Timestamp
    /// Whether it will renew.
    package var willRenew: Bool
    /// Pending product change.
    package var renewsTo: String?
  }

  /// The state of a subscription change from which another subject owns the subscription: the
  /// subject's lane for it ends there (contract v1.3, section 9).
  package static let transferredAway = "transferred_away"

  /// One balance after a change.
  package struct BalanceChange: Sendable, Equatable {
    /// When it changed.
    package var at: Timestamp
    /// The balance from then on.
    package var balance: Int64
  }

  /// Intervals per entitlement id, sorted by id.
  package var entitlements: [(String, [Interval])]
  /// Changes per original transaction, sorted by it.
  package var subscriptions: [(String, [SubscriptionChange])]
  /// Changes per currency, sorted by it.
  package var balances: [(String, [BalanceChange])]

  package static func == (a: SubjectTimeline, b: SubjectTimeline) -> Bool {
    a.entitlements.elementsEqual(b.entitlements, by: { $0.0 == $1.0 && $0.1 == $1.1 })
      && a.subscriptions.elementsEqual(b.subscriptions, by: { $0.0 == $1.0 && $0.1 == $1.1 })
      && a.balances.elementsEqual(b.balances, by: { $0.0 == $1.0 && $0.1 == $1.1 })
  }
}

extension Ledger {
  /// The subject's timeline as known at `asOf` (nil: full knowledge).
  ///
  /// Answers change only at event times and at period, grace and grant ends, so the
  /// state is evaluated at exactly those instants, folding events incrementally. A subject
  /// some transfer names is folded at each instant from the events `OwnedEventGathering`
  /// gathers for it then (contract v1.3, section 9).
  /// - Complexity: O(k · (s + g)) for k instants, s subscriptions and g grants of the subject.
  package func timeline(subject: Symbol, asOf: Timestamp? = nil) -> SubjectTimeline {
    let knownBy = asOf ?? .distantFuture
    if let party = owners.party(of: subject) { return ownedTimeline(party: party, subject: subject, knownBy: knownBy) }
    let events = self.events(of: subject)
    var accumulator = TimelineAccumulator()
    var cursor = FoldCursor(
      events: events, subscriptionCount: extent(of: subject).subscriptions, context: context,
      knownBy: knownBy)
    for instant in Self.instants(of: events, knownBy: knownBy, catalog: catalog) {
      cursor.advance(to: instant)
      accumulator.note(instant, state: cursor.state, selection: cursor.selection, ledger: self)
    }
    return accumulator.timeline(self)
  }

  /// The timeline of the subject named `name` as known at `asOf`: one with lines, or one only a
  /// transfer's `to` names (contract v1.3, section 9); nil when the log names no such subject.
  /// - Complexity: that of `timeline(subject:asOf:)`.
  package func timeline(named name: String, asOf: Timestamp? = nil) -> SubjectTimeline? {
    if let subject = subject(named: name) { return timeline(subject: subject, asOf: asOf) }
    guard let party = owners.party(named: name) else { return nil }
    return ownedTimeline(party: party, subject: .none, knownBy: asOf ?? .distantFuture)
  }

  /// The instants at which answers over `events` may change, sorted, each once.
  private static func instants(of events: some Collection<Event>, knownBy: Timestamp, catalog: Catalog) -> [Timestamp] {
    var instants: [Timestamp] = []
    instants.reserveCapacity(events.count * 2)
    for event in events where event.recorded <= knownBy {
      instants.append(event.at)
      if event.hasExpires { instants.append(event.expires) }
      if event.kind == .purchase {
        let product = catalog[event.product]
        if !event.hasExpires, let duration = product.kind == .nonRenewing ? product.duration : product.expiresAfter {
          instants.append(duration.added(to: event.at))
        }
      }
    }
    instants.sort()
    var unique: [Timestamp] = []
    for instant in instants where unique.last != instant { unique.append(instant) }
    return unique
  }

  /// The timeline of a subject some transfer names: at each instant its events are gathered
  /// afresh (owners change only at transfers' `at`) and folded to that instant.
  /// - Complexity: O(k · g) for k instants and g events of its group's units and its own.
  private func ownedTimeline(party: Int32, subject: Symbol, knownBy: Timestamp) -> SubjectTimeline {
    var candidates = subject.isSome ? Array(events(of: subject)) : []
    for number in owners.unitsOfParty[Int(party)] {
      let unit = owners.units[Int(number)]
      candidates += unit.steps.map(\.transfer)
      for member in owners.subjects(of: unit) { candidates += events(of: member).filter { unit.names($0) } }
    }
    var gathering = OwnedEventGathering(catalog: catalog)
    var fold = PointInTimeFold()
    var accumulator = TimelineAccumulator(gathersOwnedUnits: true)
    events.withUnsafeBufferPointer { all in
      func eventsOf(_ subject: Symbol) -> UnsafeBufferPointer<Event> {
        guard subject.isSome else { return UnsafeBufferPointer(rebasing: all[0..<0]) }
        let extent = extent(of: subject)
        return UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
      }
      for instant in Self.instants(of: candidates, knownBy: knownBy, catalog: catalog) {
        gathering.gather(
          party: party, own: eventsOf(subject), chains: owners, at: instant, knownBy: knownBy, eventsOf: eventsOf)
        gathering.events.withUnsafeBufferPointer { gathered in
          fold.evaluate(
            gathered, subscriptionCount: gathering.subscriptionCount, at: instant, knownBy: knownBy, isStale: false,
            context: context)
        }
        accumulator.note(instant, state: fold.state, selection: fold.selection, ledger: self)
      }
    }
    return accumulator.timeline(self)
  }
}

/// A timeline being built instant by instant from the state and selection there.
private struct TimelineAccumulator {
  /// Whether the subject's events are gathered per instant (a subject some transfer names).
  var gathersOwnedUnits = false
  var entitlementIntervals: [Int: [SubjectTimeline.Interval]] = [:]
  /// By original transaction: a subscription's number may change between gatherings.
  var subscriptionChanges: [Symbol: [SubjectTimeline.SubscriptionChange]] = [:]
  var balanceChanges: [Symbol: [SubjectTimeline.BalanceChange]] = [:]

  mutating func note(_ instant: Timestamp, state: SubjectState, selection: Selection, ledger: Ledger) {
    for (entitlement, candidate) in selection.bestByEntitlement.enumerated() {
      var intervals = entitlementIntervals[entitlement] ?? []
      let current = candidate.isSet ? Self.interval(for: candidate, in: state, from: instant, catalog: ledger.catalog) : nil
      if let last = intervals.last, last.to == nil {
        if let current, current.product == last.product, current.state == last.state,
          current.ownership == last.ownership, current.period == last.period
        {
          continue
        }
        intervals[intervals.count - 1].to = instant
      }
      if let current { intervals.append(current) }
      if !intervals.isEmpty { entitlementIntervals[entitlement] = intervals }
    }
    for sub in state.subscriptions where sub.isKnown {
      let change = SubjectTimeline.SubscriptionChange(
        at: instant, state: sub.reportedStatus(at: instant).name, product: ledger.catalog[sub.product].id,
        transaction: ledger.symbols.transactions.string(sub.transaction), expires: sub.expires,
        willRenew: sub.willRenew, renewsTo: sub.renewsTo.isSome ? ledger.catalog[sub.renewsTo].id : nil)
      var changes = subscriptionChanges[sub.originalTransaction] ?? []
      if let last = changes.last {
        var same = change
        same.at = last.at
        if same == last { continue }
      }
      changes.append(change)
      subscriptionChanges[sub.originalTransaction] = changes
    }
    // Without transfers a subscription, once known, stays in the state: none goes away.
    if gathersOwnedUnits { closeTransferredAway(at: instant, state: state) }
    for balance in state.balances {
      var changes = balanceChanges[balance.currency] ?? []
      if changes.last?.balance == balance.amount { continue }
      changes.append(SubjectTimeline.BalanceChange(at: instant, balance: balance.amount))
      balanceChanges[balance.currency] = changes
    }
  }

  /// Closes each subscription gathered earlier and not at `instant`: it was transferred away
  /// (contract v1.3, section 9), and its last state would otherwise read as held ever after.
  /// - Complexity: O(s) for the s subscriptions noted so far.
  private mutating func closeTransferredAway(at instant: Timestamp, state: SubjectState) {
    let held = Set(state.subscriptions.lazy.filter(\.isKnown).map(\.originalTransaction))
    let gone = subscriptionChanges.compactMap { original, changes in
      changes.last.flatMap { $0.state != SubjectTimeline.transferredAway && !held.contains(original) ? (original, $0) : nil }
    }
    for (original, last) in gone {
      var closing = last
      (closing.at, closing.expires, closing.state, closing.willRenew, closing.renewsTo) =
        (instant, instant, SubjectTimeline.transferredAway, false, nil)
      subscriptionChanges[original]!.append(closing)
    }
  }

  func timeline(_ ledger: Ledger) -> SubjectTimeline {
    SubjectTimeline(
      entitlements: entitlementIntervals.map { (ledger.catalog.entitlementNames[$0.key], $0.value) }
        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
      subscriptions: subscriptionChanges.map { (ledger.symbols.transactions.string($0.key), $0.value) }
        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
      balances: balanceChanges.map { (ledger.symbols.currencies.string($0.key), $0.value) }
        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
  }

  private static func interval(
    for candidate: Selection.Candidate, in state: SubjectState, from instant: Timestamp, catalog: Catalog
  ) -> SubjectTimeline.Interval {
    if candidate.isSubscription {
      let sub = state.subscriptions[candidate.index]
      return SubjectTimeline.Interval(
        from: instant, to: nil, product: catalog[sub.product].id, state: sub.reportedStatus(at: instant).name,
        ownership: sub.ownership.name, period: sub.offer.name)
    }
    let item = state.items[candidate.index]
    // A support grant has no product (contract v1.3): its interval says what it is.
    return SubjectTimeline.Interval(
      from: instant, to: nil, product: item.isGrant ? "support grant" : catalog[item.product].id, state: "active",
      ownership: item.isGrant ? Ownership.granted.name : item.ownership.name, period: item.offer.name)
  }
}
