/// One validated log line in compact form: interned strings, instants as integers.
///
/// About 80 bytes and no references, so millions of events live in one flat
/// array without per-event allocation. Optional values use sentinels
/// (`Symbol.none`, `ProductIndex.none`, `hasExpires`); accessors say which.
package struct Event: Sendable, Equatable {
  /// Effective time: when it took effect in the world.
  package var at: Timestamp
  /// Knowledge time: when the ledger learned of it (`at` when absent in the log).
  package var recorded: Timestamp
  /// `expires` or `grace_expires`, when `hasExpires`.
  package var expires: Timestamp
  /// `quantity` (consumable purchase, consumption, or usage, where it may be negative); 0 when absent.
  package var quantity: Int64
  /// `price` in thousandths of the currency unit, when `hasPrice`.
  package var price: Int64
  /// A hash of `meta` as a JSON value (0 when absent), so redeliveries can be compared.
  package var metaHash: UInt64
  /// The event id.
  package var id: Symbol
  /// The subject whose access changes.
  package var subject: Symbol
  /// `transaction`, or `.none`.
  package var transaction: Symbol
  /// `original_transaction`, or `.none` (a purchase's default is filled in by the fold).
  package var originalTransaction: Symbol
  /// `currency`, or `.none`.
  package var currency: Symbol
  /// The 1-based line number in the log.
  package var line: UInt32
  /// `product`, or `.none`.
  package var product: ProductIndex
  /// Resolved when the log is loaded, not part of the line: the subscription number
  /// (subscription events), the position within the subject (grants, consumables), or
  /// the target of a `revocation` / `refund_reversed` (`UInt32.max`: unknown).
  package var slot: UInt32
  /// Resolved when the log is loaded: the product a `revocation` / `refund_reversed` targets.
  package var targetProduct: ProductIndex
  /// `feature` of a `usage` event: its index in the catalog policy's features (`noFeature` otherwise).
  package var feature: UInt16
  /// The event type.
  package var kind: EventKind
  /// `ownership` (default `purchased`).
  package var ownership: Ownership
  /// `offer` (default `normal`).
  package var offer: Offer
  /// `expiration.reason` or `revocation.reason` raw value; 255 when absent.
  package var reasonRaw: UInt8
  /// `auto_renew`.
  package var autoRenew: Bool
  /// Whether `expires` holds a value.
  package var hasExpires: Bool
  /// Whether `price` (and its `currency`) are present.
  package var hasPrice: Bool
  /// Whether `recorded` was written in the log (otherwise it equals `at`).
  package var hasRecorded: Bool
  /// Whether `ownership` was written in the log.
  package var hasOwnership: Bool
  /// Whether `offer` was written in the log.
  package var hasOffer: Bool

  /// An empty record to fill in.
  package init(kind: EventKind) {
    at = Timestamp(millisecondsSinceEpoch: 0)
    recorded = at
    expires = at
    quantity = 0
    price = 0
    metaHash = 0
    id = .none
    subject = .none
    transaction = .none
    originalTransaction = .none
    currency = .none
    line = 0
    product = .none
    slot = UInt32.max
    targetProduct = .none
    feature = Event.noFeature
    self.kind = kind
    ownership = .purchased
    offer = .normal
    reasonRaw = 255
    autoRenew = false
    hasExpires = false
    hasPrice = false
    hasRecorded = false
    hasOwnership = false
    hasOffer = false
  }

  /// The `feature` of events that are not `usage`.
  package static let noFeature = UInt16.max

  /// Whether two lines describe the same event, as JSON values ignoring `recorded`.
  ///
  /// This is the redelivery test of Docs/log-format.md ("Redeliveries"); `line` and
  /// `recorded` are not part of the event's identity.
  package func isRedelivery(of other: Event) -> Bool {
    var a = self
    var b = other
    a.line = 0
    b.line = 0
    a.slot = b.slot
    a.targetProduct = b.targetProduct
    a.recorded = a.at
    b.recorded = b.at
    a.hasRecorded = false
    b.hasRecorded = false
    return a == b
  }

  /// The log fields whose values differ between two events with one id (an id conflict names them).
  /// `recorded` does not count: a redelivery may be learned again later.
  package func differingFields(from other: Event) -> [Field] {
    var fields: [Field] = []
    func check(_ differs: Bool, _ field: Field) { if differs { fields.append(field) } }
    check(kind != other.kind, .type)
    check(subject != other.subject, .subject)
    check(at != other.at, .at)
    check(product != other.product, .product)
    check(transaction != other.transaction, .transaction)
    check(originalTransaction != other.originalTransaction, .originalTransaction)
    check(hasExpires != other.hasExpires || (hasExpires && expires != other.expires), kind == .graceEntered ? .graceExpires : .expires)
    check(quantity != other.quantity, .quantity)
    check(hasPrice != other.hasPrice || price != other.price, .price)
    check(currency != other.currency, .currency)
    check(hasOwnership != other.hasOwnership || ownership != other.ownership, .ownership)
    check(hasOffer != other.hasOffer || offer != other.offer, .offer)
    check(reasonRaw != other.reasonRaw, .reason)
    check(autoRenew != other.autoRenew, .autoRenew)
    check(feature != other.feature, .feature)
    check(metaHash != other.metaHash, .meta)
    return fields
  }

  /// The effective-order key: `at`, then line order for ties.
  @inlinable
  package static func effectiveOrder(_ a: Event, _ b: Event) -> Bool {
    a.at != b.at ? a.at < b.at : a.line < b.line
  }
}
