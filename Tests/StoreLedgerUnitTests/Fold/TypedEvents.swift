import StoreLedgerTestSupport

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// One subject's events as typed values over the example catalog (Events/catalog.json), built
/// without JSON, then resolved as the loader resolves them: the seam where `Resolver`,
/// `SubjectState.apply` and `PointInTimeFold` are tested directly.
struct TypedEvents {
  let catalog: Catalog
  private(set) var symbols = LedgerSymbols()
  let context: FoldContext
  /// The events in effective order, as added (line = position + 1).
  private(set) var events: [Event] = []

  init() throws {
    catalog = try StoreLedgerTestSupport.catalog(exampleCatalogText)
    var symbols = LedgerSymbols()
    context = FoldContext(catalog: catalog, symbols: &symbols)
    self.symbols = symbols
  }

  /// The catalog index of a product id, which must exist.
  func product(_ id: String) -> ProductIndex {
    guard let index = catalog.index(of: id) else { preconditionFailure("no product \(id) in the example catalog") }
    return index
  }

  /// The catalog index of an entitlement name.
  func entitlement(_ name: String) -> Int {
    guard let index = catalog.entitlementNames.firstIndex(of: name) else { preconditionFailure("no entitlement \(name)") }
    return index
  }

  /// The symbol of a transaction id.
  mutating func transaction(_ id: String) -> Symbol { symbols.transactions.intern(id) }

  /// The symbol of a currency.
  mutating func currency(_ name: String) -> Symbol { symbols.currencies.intern(name) }

  /// Appends an event of `kind` at `at`, filled in by `fill`; returns its position.
  @discardableResult
  mutating func add(_ kind: EventKind, at: String, recorded: String? = nil, _ fill: (inout Event, inout TypedEvents) -> Void)
    -> Int
  {
    var event = Event(kind: kind)
    event.at = ts(at)
    event.recorded = recorded.map(ts) ?? event.at
    event.hasRecorded = recorded != nil
    event.line = UInt32(events.count + 1)
    event.id = symbols.ids.intern("e\(events.count + 1)")
    // One subject: its events' grouping implies it (`Event` does not hold it).
    _ = symbols.subjects.intern("u1")
    fill(&event, &self)
    events.append(event)
    return events.count - 1
  }

  @discardableResult
  mutating func purchase(
    _ product: String, _ transaction: String, at: String, recorded: String? = nil, expires: String? = nil,
    original: String? = nil, quantity: Int64 = 1, ownership: Ownership = .purchased, offer: Offer = .normal
  ) -> Int {
    add(.purchase, at: at, recorded: recorded) { event, typed in
      event.product = typed.product(product)
      event.transaction = typed.transaction(transaction)
      if let original { event.originalTransaction = typed.transaction(original) }
      if let expires {
        event.expires = ts(expires)
        event.hasExpires = true
      }
      event.quantity = quantity
      event.ownership = ownership
      event.offer = offer
    }
  }

  @discardableResult
  mutating func renewal(
    _ product: String, _ transaction: String, original: String, at: String, recorded: String? = nil, expires: String
  ) -> Int {
    add(.renewal, at: at, recorded: recorded) { event, typed in
      event.product = typed.product(product)
      event.transaction = typed.transaction(transaction)
      event.originalTransaction = typed.transaction(original)
      event.expires = ts(expires)
      event.hasExpires = true
    }
  }

  /// A subscription event naming `original` (`billing_retry`, `expiration`, ...).
  @discardableResult
  mutating func subscriptionEvent(_ kind: EventKind, original: String, at: String, expires: String? = nil) -> Int {
    precondition(kind.scope.contains(.subscription) && !kind.isCharge)
    return add(kind, at: at) { event, typed in
      event.originalTransaction = typed.transaction(original)
      if let expires {
        event.expires = ts(expires)
        event.hasExpires = true
      }
    }
  }

  /// A `revocation` or `refund_reversed` of `transaction`.
  @discardableResult
  mutating func refund(_ kind: EventKind, of transaction: String, at: String) -> Int {
    precondition(kind.isRefund)
    return add(kind, at: at) { event, typed in event.transaction = typed.transaction(transaction) }
  }

  @discardableResult
  mutating func consumption(_ currency: String, _ quantity: Int64, at: String) -> Int {
    add(.consumption, at: at) { event, typed in
      event.balanceCurrency = typed.currency(currency)
      event.quantity = quantity
    }
  }

  /// The events with `slot` and `targetProduct` resolved, and the number of subscriptions.
  func resolved() -> (events: [Event], subscriptionCount: Int) {
    var resolver = Resolver(catalog: catalog)
    var copy = events
    let count = copy.withUnsafeMutableBufferPointer { resolver.resolve($0) }
    return (copy, Int(count))
  }

  /// The state after applying every event, and each event's effect.
  func folded() -> (state: SubjectState, effects: [FoldEffect]) {
    let (resolved, subscriptionCount) = resolved()
    var state = SubjectState()
    state.reset(subscriptionCount: subscriptionCount, itemCount: resolved.count)
    let effects = resolved.map { state.apply($0, context: context) }
    return (state, effects)
  }

  /// The subject folded to `at` as known at `knownBy`.
  func pointInTime(at: String, knownBy: String? = nil) -> PointInTimeFold {
    let (resolved, subscriptionCount) = resolved()
    var fold = PointInTimeFold()
    resolved.withUnsafeBufferPointer {
      fold.evaluate(
        $0, subscriptionCount: subscriptionCount, at: ts(at), knownBy: knownBy.map(ts), isStale: false,
        context: context)
    }
    return fold
  }
}
