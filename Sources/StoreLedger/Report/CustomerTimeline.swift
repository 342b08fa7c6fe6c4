/// One customer's history for people: lanes of states over time and every event as a marker.
///
/// Built from the ledger's own timeline (`Ledger.timeline(subject:asOf:)`, what snapshots store), so
/// every interval is what `query --at` answers inside it, as known at `asOf`.
public struct CustomerTimeline: Sendable {
  /// A span of one state in a lane.
  public struct Segment: Sendable, Equatable {
    /// Start (inclusive).
    public var from: Timestamp
    /// End (exclusive); nil while it never ends.
    public var to: Timestamp?
    /// `active`, `grace`, `billing_retry`, `expired` or `revoked`.
    public var state: String
    /// The product in that state.
    public var product: String
  }

  /// A row of the picture: one entitlement or one subscription.
  public struct Lane: Sendable, Equatable {
    /// `entitlement` or `subscription`.
    public var kind: String
    /// The entitlement id, or the subscription's original transaction.
    public var name: String
    /// Its states in time order; gaps have no access.
    public var segments: [Segment]
  }

  /// One event of the subject, as the picture and the table show it.
  public struct Marker: Sendable, Equatable {
    /// Event id.
    public var id: String
    /// Event type.
    public var type: String
    /// Effective time: where it is drawn.
    public var at: Timestamp
    /// Knowledge time.
    public var recorded: Timestamp
    /// Line in the log.
    public var line: Int
    /// Product, transaction, price, reason, quantity: what the event says beyond its type.
    public var details: String

    /// Whether the ledger learned of it after it took effect.
    public var isLate: Bool { recorded > at }
  }

  /// The subject id.
  public var subject: String
  /// Knowledge time (nil: everything the log holds).
  public var asOf: Timestamp?
  /// Entitlement lanes (sorted by id), then subscription lanes (sorted by original transaction).
  public var lanes: [Lane]
  /// Events known at `asOf`, in effective order.
  public var markers: [Marker]
  /// Balance changes per currency.
  public var balances: [(currency: String, changes: [(at: Timestamp, balance: Int64)])]

  /// The timeline of `subject` as known at `asOf`; throws `unknownSubject` when no event names it.
  /// - Complexity: O(k · (s + g)) for the subject's k instants, s subscriptions and g grants.
  public static func build(ledger: Ledger, subject: String, asOf: Timestamp?) throws(Diagnostic) -> CustomerTimeline {
    guard let symbol = ledger.subject(named: subject) else { throw Diagnostic(.unknownSubject(subject)) }
    let timeline = ledger.timeline(subject: symbol, asOf: asOf)
    var lanes: [Lane] = []
    for (entitlement, intervals) in timeline.entitlements {
      lanes.append(
        Lane(
          kind: "entitlement", name: entitlement,
          segments: intervals.map { Segment(from: $0.from, to: $0.to, state: $0.state, product: $0.product) }))
    }
    for (original, changes) in timeline.subscriptions {
      var segments: [Segment] = []
      for (index, change) in changes.enumerated() {
        let end = index + 1 < changes.count ? changes[index + 1].at : nil
        if let last = segments.last, last.state == change.state, last.product == change.product {
          segments[segments.count - 1].to = end
        } else {
          segments.append(Segment(from: change.at, to: end, state: change.state, product: change.product))
        }
      }
      lanes.append(Lane(kind: "subscription", name: original, segments: segments))
    }
    let knownBy = asOf ?? .distantFuture
    let markers = ledger.events(of: symbol).filter { $0.recorded <= knownBy }.map { event in
      Marker(
        id: ledger.symbols.ids.string(event.id), type: event.kind.name, at: event.at, recorded: event.recorded,
        line: Int(event.line), details: details(of: event, ledger: ledger))
    }
    return CustomerTimeline(
      subject: subject, asOf: asOf, lanes: lanes, markers: markers,
      balances: timeline.balances.map { ($0.0, $0.1.map { ($0.at, $0.balance) }) })
  }

  private static func details(of event: Event, ledger: Ledger) -> String {
    var parts: [String] = []
    let symbols = ledger.symbols
    if event.product.isSome { parts.append(ledger.catalog[event.product].id) }
    if event.transaction.isSome { parts.append("transaction " + symbols.transactions.string(event.transaction)) }
    if event.originalTransaction.isSome && event.originalTransaction != event.transaction {
      parts.append("original " + symbols.transactions.string(event.originalTransaction))
    }
    if event.hasPrice {
      parts.append(ReportFormat.money(thousandths: event.price) + " " + symbols.currencies.string(event.currency))
    } else if event.kind == .consumption {
      parts.append("\(event.quantity) " + symbols.currencies.string(event.currency))
    }
    if event.kind == .purchase && event.quantity > 1 { parts.append("×\(event.quantity)") }
    if event.hasExpires {
      parts.append((event.kind == .graceEntered ? "grace until " : "until ") + event.expires.rfc3339)
    }
    if event.offer != .normal { parts.append("offer " + event.offer.name) }
    if event.ownership != .purchased { parts.append(event.ownership.name) }
    if event.kind == .autoRenewChanged { parts.append("auto_renew " + (event.autoRenew ? "on" : "off")) }
    if event.reasonRaw != 255 {
      let reason =
        event.kind == .expiration
        ? ExpirationReason(rawValue: event.reasonRaw)?.name : RevocationReason(rawValue: event.reasonRaw)?.name
      if let reason { parts.append("reason " + reason) }
    }
    return parts.joined(separator: ", ")
  }
}
