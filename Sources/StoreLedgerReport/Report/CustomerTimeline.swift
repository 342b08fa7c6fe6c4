import StoreLedgerCore

/// One customer's history for people: lanes of states over time and every event as a marker.
///
/// Built from the ledger's own timeline (`Ledger.timeline(subject:asOf:)`, what snapshots store), so
/// every interval is what `query --at` answers inside it, as known at `asOf`.
package struct CustomerTimeline: Sendable {
  /// A span of one state in a lane.
  package struct Segment: Sendable, Equatable {
    /// Start (inclusive).
    package var from: Timestamp
    /// End (exclusive); nil while it never ends.
    package var to: Timestamp?
    /// `active`, `grace`, `billing_retry`, `expired` or `revoked`; `owned` in an ownership lane.
    package var state: String
    /// The product in that state.
    package var product: String
  }

  /// A row of the picture: one entitlement or one subscription.
  package struct Lane: Sendable, Equatable {
    /// `entitlement`, `subscription` or `ownership` (a transferred unit, contract v1.3 section 9).
    package var kind: String
    /// The entitlement id, or the subscription's original transaction, or the unit's transaction.
    package var name: String
    /// Its states in time order; gaps have no access.
    package var segments: [Segment]
  }

  /// One event of the subject, as the picture and the table show it.
  package struct Marker: Sendable, Equatable {
    /// Event id.
    package var id: String
    /// Event type.
    package var type: String
    /// Effective time: where it is drawn.
    package var at: Timestamp
    /// Knowledge time.
    package var recorded: Timestamp
    /// Line in the log.
    package var line: Int
    /// Product, transaction, price, reason, quantity: what the event says beyond its type.
    package var details: String
    /// The event in words for its label: `renewal`, `refund` (`EventWords`); ids stay in the tooltip.
    package var words: String = ""

    /// Whether the ledger learned of it after it took effect.
    package var isLate: Bool { recorded > at }
  }

  /// The subject id.
  package var subject: String
  /// Knowledge time (nil: everything the log holds).
  package var asOf: Timestamp?
  /// Entitlement lanes (sorted by id), then subscription lanes (sorted by original transaction).
  package var lanes: [Lane]
  /// Events known at `asOf`, in effective order.
  package var markers: [Marker]
  /// Balance changes per currency.
  package var balances: [(currency: String, changes: [(at: Timestamp, balance: Int64)])]
  /// With a catalog policy: per feature used, the uses of each local day and the limit then.
  package var usage: [(feature: String, days: [UsageDay])] = []

  /// One local day's uses of a feature (days begin at the policy's `utc_offset` midnight).
  package struct UsageDay: Sendable, Equatable {
    /// The day's start.
    package var start: Timestamp
    /// The local date, `2026-03-10`.
    package var date: String
    /// The sum of the day's `quantity`.
    package var used: Int64
    /// The daily limit of the tier reporting the feature at the day's last use (nil: unlimited,
    /// or a window other than a day).
    package var limit: Int64?
    /// That tier (nil when no tier offers the feature).
    package var tier: String?
  }

  /// The timeline of `subject` as known at `asOf`; throws `unknownSubject` when no event names it.
  /// - Complexity: O(k · (s + g)) for the subject's k instants, s subscriptions and g grants.
  package static func build(ledger: Ledger, subject: String, asOf: Timestamp?) throws(Diagnostic) -> CustomerTimeline {
    guard let timeline = ledger.timeline(named: subject, asOf: asOf) else {
      throw Diagnostic(.unknownSubject(ledger.subjectHint(subject)))
    }
    var lanes: [Lane] = []
    for (entitlement, intervals) in timeline.entitlements {
      lanes.append(
        Lane(
          kind: "entitlement", name: entitlement,
          segments: intervals.map { Segment(from: $0.from, to: $0.to, state: $0.state, product: $0.product) }))
    }
    for (original, changes) in timeline.subscriptions {
      var segments: [Segment] = []
      var afterGap = false
      for (index, change) in changes.enumerated() {
        let end = index + 1 < changes.count ? changes[index + 1].at : nil
        // Owned by another subject from here on: the ownership lane says to whom; this lane has a gap.
        if change.state == SubjectTimeline.transferredAway {
          afterGap = true
          continue
        }
        defer { afterGap = false }
        if !afterGap, let last = segments.last, last.state == change.state, last.product == change.product {
          segments[segments.count - 1].to = end
        } else {
          segments.append(Segment(from: change.at, to: end, state: change.state, product: change.product))
        }
      }
      lanes.append(Lane(kind: "subscription", name: original, segments: segments))
    }
    let knownBy = asOf ?? .distantFuture
    let symbol = ledger.subject(named: subject) ?? .none
    var events = symbol.isSome ? ledger.events(of: symbol).filter { $0.recorded <= knownBy } : []
    if let party = ledger.owners.party(named: subject) {
      lanes += ownershipLanes(ledger: ledger, party: party, knownBy: knownBy)
      events += ownedEvents(ledger: ledger, party: party, own: symbol, knownBy: knownBy)
      events.sort { ($0.at, $0.line) < ($1.at, $1.line) }
    }
    let markers = events.map { event in
      Marker(
        id: ledger.symbols.ids.string(event.id), type: event.kind.name, at: event.at, recorded: event.recorded,
        line: Int(event.line), details: details(of: event, ledger: ledger), words: EventWords.kind(event, catalog: ledger.catalog))
    }
    return CustomerTimeline(
      subject: subject, asOf: asOf, lanes: lanes, markers: markers,
      balances: timeline.balances.map { ($0.0, $0.1.map { ($0.at, $0.balance) }) },
      usage: symbol.isSome ? usageDays(ledger: ledger, subject: subject, symbol: symbol, asOf: asOf) : [])
  }

  /// Uses per feature and local day, with the limit the answer gives at each day's last use.
  /// - Complexity: O(days with uses × events of the subject).
  private static func usageDays(ledger: Ledger, subject: String, symbol: Symbol, asOf: Timestamp?) -> [(
    feature: String, days: [UsageDay]
  )] {
    guard let policy = ledger.catalog.policy else { return [] }
    let knownBy = asOf ?? .distantFuture
    let dayMs = ReportInterval.dayMs
    var last: [Int: [(start: Timestamp, used: Int64, lastUse: Timestamp)]] = [:]
    for event in ledger.events(of: symbol) where event.kind == .usage && event.recorded <= knownBy {
      let local = event.at.millisecondsSinceEpoch + policy.utcOffsetMs
      let start = Timestamp(millisecondsSinceEpoch: floorDivide(local, dayMs) * dayMs - policy.utcOffsetMs)
      var days = last[Int(event.feature)] ?? []
      if days.last?.start == start {
        days[days.count - 1].used += event.quantity
        days[days.count - 1].lastUse = event.at
      } else {
        days.append((start, event.quantity, event.at))
      }
      last[Int(event.feature)] = days
    }
    var engine = QueryEngine(ledger: ledger)
    return last.keys.sorted { policy.features[$0].name.utf8.lexicographicallyPrecedes(policy.features[$1].name.utf8) }
      .map { feature in
        let name = policy.features[feature].name
        return (
          name,
          last[feature]!.map { day in
            let answer = engine.answer(subject: subject, at: day.lastUse, asOf: asOf)
            let reported = answer.policy?.usage[name]
            let isDaily = reported?.windowEnds == day.start.adding(milliseconds: dayMs)
            let date = String(day.start.adding(milliseconds: policy.utcOffsetMs).rfc3339.prefix(10))
            return UsageDay(
              start: day.start, date: date, used: day.used, limit: isDaily ? reported?.limit : nil, tier: reported?.tier)
          }
        )
      }
  }

  private static func details(of event: Event, ledger: Ledger) -> String {
    if let words = contract13Details(of: event, ledger: ledger) { return words }
    var parts: [String] = []
    let symbols = ledger.symbols
    if event.product.isSome { parts.append(ledger.catalog[event.product].id) }
    if event.transaction.isSome { parts.append("transaction " + symbols.transactions.string(event.transaction)) }
    if event.originalTransaction.isSome && event.originalTransaction != event.transaction {
      parts.append("original " + symbols.transactions.string(event.originalTransaction))
    }
    let price = ledger.details.details(line: event.line)
    if price.hasPrice {
      let currency = symbols.currencies.string(price.priceCurrency)
      parts.append(MoneyText.exact(thousandths: price.price, currency: currency) + " " + currency)
    } else if event.kind == .consumption {
      parts.append("\(event.quantity) " + symbols.currencies.string(event.balanceCurrency))
    }
    if event.kind == .purchase && event.quantity > 1 { parts.append("×\(event.quantity)") }
    if event.kind == .usage, let policy = ledger.catalog.policy {
      parts.append(policy.features[Int(event.feature)].name + " ×\(event.quantity)")
    }
    if event.hasExpires {
      parts.append((event.kind == .graceEntered ? "grace until " : "until ") + event.expires.rfc3339)
    }
    if event.offer != .normal { parts.append("offer " + event.offer.name) }
    if event.ownership != .purchased { parts.append(event.ownership.name) }
    if event.kind == .autoRenewChanged { parts.append("auto_renew " + (event.autoRenew ? "on" : "off")) }
    if event.reasonRaw != 255 {
      let reason =
        event.kind == .expiration
        ? ExpirationReason(rawValue: event.reasonRaw)?.name
        : event.kind == .refundRequested
          ? RefundRequestReason(rawValue: event.reasonRaw)?.name : RevocationReason(rawValue: event.reasonRaw)?.name
      if let reason { parts.append("reason " + reason) }
    }
    return parts.joined(separator: ", ")
  }

  /// The details of the kinds that keep their values in other fields (`Event+Access`,
  /// `Event+Transfer`), worded by their own names; nil for every other kind.
  private static func contract13Details(of event: Event, ledger: Ledger) -> String? {
    let names = ledger.symbols.transactions
    func reason() -> [String] { event.accessReason.isSome ? ["reason " + names.string(event.accessReason)] : [] }
    switch event.kind {
    case .transfer:
      let unit = (event.transferNamesTransaction ? "transaction " : "original ") + names.string(event.transferredUnit)
      return "to " + names.string(event.transferRecipient) + ", " + unit
    case .grant:
      var parts = ["grant " + names.string(event.grantReference)]
      if event.hasExpires { parts.append("until " + event.expires.rfc3339) }
      return (parts + reason()).joined(separator: ", ")
    case .grantRevoked:
      return (["grant " + names.string(event.grantReference)] + reason()).joined(separator: ", ")
    case .block, .unblock:
      return (["service " + names.string(event.service)] + reason()).joined(separator: ", ")
    default:
      return nil
    }
  }
}
