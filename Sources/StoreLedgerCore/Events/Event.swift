/// One validated log line in compact form: interned strings, instants as integers.
///
/// 64 bytes and no references (pinned by a test), so millions of events live in one flat
/// array without per-event allocation, one cache line each. Optional values use sentinels
/// (`Symbol.none`, `ProductIndex.none`, `hasExpires`); accessors say which. What only reports,
/// explanations and the redelivery check read (a charge's `price` and its currency, the `meta`
/// hash) is kept beside the events, by line (`EventDetails`, `EventDetailTable`); the subject is
/// implied by where a ledger keeps the event (Docs/performance.md, "Memory per event").
package struct Event: Sendable, Equatable {
  /// Effective time: when it took effect in the world.
  package var at: Timestamp
  /// Knowledge time: when the ledger learned of it (`at` when absent in the log).
  package var recorded: Timestamp
  /// `expires` or `grace_expires`, when `hasExpires`.
  package var expires: Timestamp
  /// `quantity` (consumable purchase, consumption, or usage, where it may be negative); 0 when absent.
  package var quantity: Int64
  /// The event id.
  package var id: Symbol
  /// `transaction`, or `.none`.
  package var transaction: Symbol
  /// `original_transaction`, or `.none` (a purchase's default is filled in by the fold).
  package var originalTransaction: Symbol
  /// The 1-based line number in the log.
  package var line: UInt32
  /// Resolved when the log is loaded, not part of the line: the subscription number
  /// (subscription events), the position within the subject (grants, consumables), or
  /// the target of a `revocation` / `refund_reversed` (`UInt32.max`: unknown). Until a builder
  /// groups the events by subject it holds the subject instead (`loadingSubject`).
  package var slot: UInt32
  /// `product`, or `.none`.
  package var product: ProductIndex
  /// The one value only some kinds have, which no two kinds share: the `feature` of a `usage`,
  /// the `targetProduct` of a refund, the `balanceCurrency` of a `consumption` (all ones: none).
  /// Each accessor reads it only for its kinds (none otherwise) and writes it only for them.
  @usableFromInline var kindValue: UInt32
  /// The event type.
  package var kind: EventKind
  /// `offer` (default `normal`).
  package var offer: Offer
  /// `expiration.reason` or `revocation.reason` raw value; 255 when absent.
  package var reasonRaw: UInt8
  /// `ownership` and the flags below, one bit each (`FlagBit`).
  @usableFromInline var flags: UInt8

  /// The bits of `flags`.
  @usableFromInline enum FlagBit: UInt8 {
    case familyShared = 1
    case autoRenew = 2
    case hasExpires = 4
    case hasRecorded = 8
    case hasOwnership = 16
    case hasOffer = 32
    case hasRefunded = 64
    /// Only in the events a fold gathers for one subject (`OwnedEventGathering`), never in a
    /// ledger: another subject's line of a unit this subject owns.
    case isForeign = 128
  }

  /// An empty record to fill in.
  package init(kind: EventKind) {
    at = Timestamp(millisecondsSinceEpoch: 0)
    recorded = at
    expires = at
    quantity = 0
    id = .none
    transaction = .none
    originalTransaction = .none
    line = 0
    slot = UInt32.max
    product = .none
    kindValue = UInt32.max
    self.kind = kind
    offer = .normal
    reasonRaw = 255
    flags = 0
  }

  @inlinable
  func flag(_ bit: FlagBit) -> Bool { flags & bit.rawValue != 0 }

  @inlinable
  mutating func setFlag(_ bit: FlagBit, _ on: Bool) {
    flags = on ? flags | bit.rawValue : flags & ~bit.rawValue
  }

  /// `ownership` (default `purchased`).
  @inlinable
  package var ownership: Ownership {
    get { flag(.familyShared) ? .familyShared : .purchased }
    set { setFlag(.familyShared, newValue == .familyShared) }
  }
  /// `auto_renew`.
  @inlinable
  package var autoRenew: Bool {
    get { flag(.autoRenew) }
    set { setFlag(.autoRenew, newValue) }
  }
  /// Whether `expires` holds a value.
  @inlinable
  package var hasExpires: Bool {
    get { flag(.hasExpires) }
    set { setFlag(.hasExpires, newValue) }
  }
  /// Whether `recorded` was written in the log (otherwise it equals `at`).
  @inlinable
  package var hasRecorded: Bool {
    get { flag(.hasRecorded) }
    set { setFlag(.hasRecorded, newValue) }
  }
  /// Whether `ownership` was written in the log.
  @inlinable
  package var hasOwnership: Bool {
    get { flag(.hasOwnership) }
    set { setFlag(.hasOwnership, newValue) }
  }
  /// Whether `offer` was written in the log.
  @inlinable
  package var hasOffer: Bool {
    get { flag(.hasOffer) }
    set { setFlag(.hasOffer, newValue) }
  }

  /// Whether a revocation's `refunded` was written (its amount is `EventDetails.price`).
  @inlinable
  package var hasRefunded: Bool {
    get { flag(.hasRefunded) }
    set { setFlag(.hasRefunded, newValue) }
  }

  /// Whether a gathered event is another subject's line (see `FlagBit.isForeign`).
  @inlinable
  package var isForeign: Bool {
    get { flag(.isForeign) }
    set { setFlag(.isForeign, newValue) }
  }

  /// `feature` of a `usage` event: its index in the catalog policy's features (`noFeature` otherwise).
  @inlinable
  package var feature: UInt16 {
    get { kind == .usage ? UInt16(truncatingIfNeeded: kindValue) : Event.noFeature }
    set {
      // Another kind's value is never overwritten by this one's absence.
      guard kind == .usage else { return precondition(newValue == Event.noFeature, "a feature on a \(kind.name)") }
      kindValue = newValue == Event.noFeature ? UInt32.max : UInt32(newValue)
    }
  }
  /// Resolved when the log is loaded: the product a `revocation`, `refund_reversed` or refund
  /// notice (`refund_requested`, `refund_declined`) targets.
  @inlinable
  package var targetProduct: ProductIndex {
    get { Event.isRefundKind(kind) ? ProductIndex(rawValue: kindValue) : .none }
    set {
      guard Event.isRefundKind(kind) else { return precondition(!newValue.isSome, "a target product on a \(kind.name)") }
      kindValue = newValue.rawValue
    }
  }
  /// `currency` of a `consumption` (the balance it spends), or `.none`; a charge's price
  /// currency is `EventDetails.priceCurrency`.
  @inlinable
  package var balanceCurrency: Symbol {
    get { kind == .consumption ? Symbol(rawValue: kindValue) : .none }
    set {
      guard kind == .consumption else { return precondition(!newValue.isSome, "a balance currency on a \(kind.name)") }
      kindValue = newValue.rawValue
    }
  }

  /// While a builder loads (before grouping by subject), and in `Ledger.learnedEarlier`: the
  /// subject, kept in `slot` until the grouping implies it.
  @inlinable
  package var loadingSubject: Symbol {
    get { Symbol(rawValue: slot) }
    set { slot = newValue.rawValue }
  }

  /// The kind table's `namesCharge`, restated so hot paths inline it (pinned by `EventKindTableTests`).
  @inlinable
  static func isRefundKind(_ kind: EventKind) -> Bool {
    kind == .revocation || kind == .refundReversed || kind == .refundRequested || kind == .refundDeclined
  }

  /// The `feature` of events that are not `usage`.
  package static let noFeature = UInt16.max

  /// Whether two lines describe the same event, as JSON values ignoring `recorded`, given
  /// whether their subjects are equal and their details (price, meta).
  ///
  /// This is the redelivery test of Docs/log-format.md ("Redeliveries"); `line` and
  /// `recorded` are not part of the event's identity, nor what loading resolves.
  package func isRedelivery(of other: Event, sameSubject: Bool, details: EventDetails, otherDetails: EventDetails) -> Bool {
    guard sameSubject, details == otherDetails else { return false }
    return comparable == other.comparable
  }

  /// This event without what is not part of its identity: line, resolved values, `recorded`.
  private var comparable: Event {
    var a = self
    a.line = 0
    a.slot = 0
    if Event.isRefundKind(a.kind) { a.kindValue = UInt32.max }
    a.recorded = a.at
    a.hasRecorded = false
    return a
  }

  /// The log fields whose values differ between two events with one id (an id conflict names them).
  /// `recorded` does not count: a redelivery may be learned again later.
  package func differingFields(
    from other: Event, sameSubject: Bool, details: EventDetails, otherDetails: EventDetails
  ) -> [Field] {
    var fields: [Field] = []
    func check(_ differs: Bool, _ field: Field) { if differs { fields.append(field) } }
    check(kind != other.kind, .type)
    check(!sameSubject, .subject)
    check(at != other.at, .at)
    check(product != other.product, .product)
    // The access kinds keep their values in these fields (`Event+Access`): named as the log names them.
    let isAccess = self.isAccess && other.isAccess
    check(transaction != other.transaction, isAccess ? (kind == .grantRevoked ? .grant : kind == .grant ? .id : .service) : .transaction)
    check(originalTransaction != other.originalTransaction, isAccess ? .reason : .originalTransaction)
    check(
      hasExpires != other.hasExpires || (hasExpires && expires != other.expires),
      kind == .graceEntered ? .graceExpires : kind == .refundRequested ? .respondBy : .expires)
    check(quantity != other.quantity, isAccess ? .entitlements : .quantity)
    check(
      details.hasPrice != otherDetails.hasPrice || (!hasRefunded && !other.hasRefunded && details.price != otherDetails.price),
      .price)
    check(hasRefunded != other.hasRefunded || (hasRefunded && details.price != otherDetails.price), .refunded)
    check(details.factsHash != otherDetails.factsHash, .store)
    check(
      balanceCurrency != other.balanceCurrency || details.priceCurrency != otherDetails.priceCurrency, .currency)
    check(hasOwnership != other.hasOwnership || ownership != other.ownership, .ownership)
    check(hasOffer != other.hasOffer || offer != other.offer, .offer)
    check(reasonRaw != other.reasonRaw, .reason)
    check(autoRenew != other.autoRenew, .autoRenew)
    check(feature != other.feature, .feature)
    check(details.metaHash != otherDetails.metaHash, .meta)
    return fields
  }

  /// The effective-order key: `at`, then line order for ties.
  @inlinable
  package static func effectiveOrder(_ a: Event, _ b: Event) -> Bool {
    a.at != b.at ? a.at < b.at : a.line < b.line
  }
}

/// What an event's line says that only reports, explanations, snapshots and the redelivery
/// check read: kept beside the events, by line (`EventDetailTable`), not in each `Event`.
package struct EventDetails: Sendable, Equatable {
  /// `price` in thousandths of `priceCurrency`, when `hasPrice`.
  package var price: Int64 = 0
  /// The `currency` of a charge's `price`, or `.none` (a price comes with its currency).
  package var priceCurrency: Symbol = .none
  /// A hash of `meta` as a JSON value (0 when absent), so redeliveries can be compared.
  package var metaHash: UInt64 = 0
  /// A hash of a charge's v1.3 `store`, `country` and `proceeds` (0 when it has none), so a
  /// redelivery that changes them is a conflict; the values are for reports (issue 36).
  package var factsHash: UInt64 = 0

  /// No price, no meta.
  @inlinable package init() {}

  /// Details with these values.
  @inlinable package init(price: Int64, priceCurrency: Symbol, metaHash: UInt64) {
    self.price = price
    self.priceCurrency = priceCurrency
    self.metaHash = metaHash
  }

  /// Whether `price` (and its currency) are present.
  @inlinable
  package var hasPrice: Bool { priceCurrency.isSome }

  /// Whether there is nothing to keep (no price, no meta).
  @inlinable
  package var isEmpty: Bool { !priceCurrency.isSome && metaHash == 0 && price == 0 && factsHash == 0 }
}
