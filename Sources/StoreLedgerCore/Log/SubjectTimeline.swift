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
  /// state is evaluated at exactly those instants, folding events incrementally.
  /// - Complexity: O(k · (s + g)) for k instants, s subscriptions and g grants of the subject.
  package func timeline(subject: Symbol, asOf: Timestamp? = nil) -> SubjectTimeline {
    let events = self.events(of: subject)
    let knownBy = asOf ?? .distantFuture
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
    var entitlementIntervals: [Int: [SubjectTimeline.Interval]] = [:]
    var subscriptionChanges: [Int: [SubjectTimeline.SubscriptionChange]] = [:]
    var balanceChanges: [Symbol: [SubjectTimeline.BalanceChange]] = [:]
    var cursor = FoldCursor(
      events: events, subscriptionCount: extent(of: subject).subscriptions, context: context,
      knownBy: knownBy)
    var previous: Timestamp? = nil
    for instant in instants where instant != previous {
      previous = instant
      cursor.advance(to: instant)
      for (entitlement, candidate) in cursor.selection.bestByEntitlement.enumerated() {
        var intervals = entitlementIntervals[entitlement] ?? []
        let current = candidate.isSet ? interval(for: candidate, in: cursor.state, from: instant) : nil
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
      for (index, sub) in cursor.state.subscriptions.enumerated() where sub.isKnown {
        let change = SubjectTimeline.SubscriptionChange(
          at: instant, state: sub.reportedStatus(at: instant).name, product: productName(sub.product),
          transaction: symbols.transactions.string(sub.transaction), expires: sub.expires,
          willRenew: sub.willRenew, renewsTo: sub.renewsTo.isSome ? productName(sub.renewsTo) : nil)
        var changes = subscriptionChanges[index] ?? []
        if let last = changes.last {
          var same = change
          same.at = last.at
          if same == last { continue }
        }
        changes.append(change)
        subscriptionChanges[index] = changes
      }
      for balance in cursor.state.balances {
        var changes = balanceChanges[balance.currency] ?? []
        if changes.last?.balance == balance.amount { continue }
        changes.append(SubjectTimeline.BalanceChange(at: instant, balance: balance.amount))
        balanceChanges[balance.currency] = changes
      }
    }
    return SubjectTimeline(
      entitlements: entitlementIntervals.map { (catalog.entitlementNames[$0.key], $0.value) }
        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
      subscriptions: subscriptionChanges.map {
        (symbols.transactions.string(cursor.state.subscriptions[$0.key].originalTransaction), $0.value)
      }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
      balances: balanceChanges.map { (symbols.currencies.string($0.key), $0.value) }
        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
  }

  private func interval(
    for candidate: Selection.Candidate, in state: SubjectState, from instant: Timestamp
  ) -> SubjectTimeline.Interval {
    if candidate.isSubscription {
      let sub = state.subscriptions[candidate.index]
      return SubjectTimeline.Interval(
        from: instant, to: nil, product: productName(sub.product), state: sub.reportedStatus(at: instant).name,
        ownership: sub.ownership.name, period: sub.offer.name)
    }
    let item = state.items[candidate.index]
    // A support grant has no product (contract v1.3): its interval says what it is.
    return SubjectTimeline.Interval(
      from: instant, to: nil, product: item.isGrant ? "support grant" : productName(item.product), state: "active",
      ownership: item.isGrant ? Ownership.granted.name : item.ownership.name, period: item.offer.name)
  }

  private func productName(_ index: ProductIndex) -> String { catalog[index].id }
}
