/// One validated log line in compact form: interned strings, instants as integers.
///
/// 88 bytes and no references, so millions of events live in one flat array without
/// per-event allocation (Docs/performance.md, "Memory per event"). Optional values use
/// sentinels (`Symbol.none`, `ProductIndex.none`, `hasExpires`); accessors say which.
/// Small values share words: products are stored in 16 bits (a catalog has at most
/// `Limits.catalogProductsMax`), `ownership`, `offer` and the flags in one 16-bit field;
/// the accessors keep the wide types, so callers read and write them as plain fields.
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
  /// Resolved when the log is loaded, not part of the line: the subscription number
  /// (subscription events), the position within the subject (grants, consumables), or
  /// the target of a `revocation` / `refund_reversed` (`UInt32.max`: unknown).
  package var slot: UInt32
  /// `product` in 16 bits (`UInt16.max`: none).
  private var productBits: UInt16
  /// `targetProduct` in 16 bits (`UInt16.max`: none).
  private var targetProductBits: UInt16
  /// `feature` of a `usage` event: its index in the catalog policy's features (`noFeature` otherwise).
  package var feature: UInt16
  /// `ownership` (bit 0), `offer` (bits 1–3) and the flags (`Flag`).
  private var bits: UInt16
  /// The event type.
  package var kind: EventKind
  /// `expiration.reason` or `revocation.reason` raw value; 255 when absent.
  package var reasonRaw: UInt8

  /// Bits of `bits` above `ownership` and `offer`.
  private enum Flag {
    static let autoRenew: UInt16 = 1 << 4
    static let hasExpires: UInt16 = 1 << 5
    static let hasPrice: UInt16 = 1 << 6
    static let hasRecorded: UInt16 = 1 << 7
    static let hasOwnership: UInt16 = 1 << 8
    static let hasOffer: UInt16 = 1 << 9
  }

  @inline(__always)
  private func flag(_ mask: UInt16) -> Bool { bits & mask != 0 }

  @inline(__always)
  private mutating func setFlag(_ mask: UInt16, _ on: Bool) {
    bits = on ? bits | mask : bits & ~mask
  }

  @inline(__always)
  private static func narrow(_ product: ProductIndex) -> UInt16 {
    guard product.isSome else { return UInt16.max }
    precondition(product.rawValue < UInt32(UInt16.max), "product index beyond Limits.catalogProductsMax")
    return UInt16(truncatingIfNeeded: product.rawValue)
  }

  @inline(__always)
  private static func widen(_ bits: UInt16) -> ProductIndex {
    bits == UInt16.max ? .none : ProductIndex(rawValue: UInt32(bits))
  }

  /// `product`, or `.none`.
  package var product: ProductIndex {
    @inline(__always) get { Event.widen(productBits) }
    @inline(__always) set { productBits = Event.narrow(newValue) }
  }
  /// Resolved when the log is loaded: the product a `revocation` / `refund_reversed` targets.
  package var targetProduct: ProductIndex {
    @inline(__always) get { Event.widen(targetProductBits) }
    @inline(__always) set { targetProductBits = Event.narrow(newValue) }
  }
  /// `ownership` (default `purchased`).
  package var ownership: Ownership {
    @inline(__always) get { bits & 1 == 0 ? .purchased : .familyShared }
    @inline(__always) set { bits = (bits & ~1) | UInt16(newValue.rawValue) }
  }
  /// `offer` (default `normal`).
  package var offer: Offer {
    @inline(__always) get { Offer(rawValue: UInt8(truncatingIfNeeded: (bits >> 1) & 7))! }
    @inline(__always) set { bits = (bits & ~(7 << 1)) | UInt16(newValue.rawValue) << 1 }
  }
  /// `auto_renew`.
  package var autoRenew: Bool {
    @inline(__always) get { flag(Flag.autoRenew) }
    @inline(__always) set { setFlag(Flag.autoRenew, newValue) }
  }
  /// Whether `expires` holds a value.
  package var hasExpires: Bool {
    @inline(__always) get { flag(Flag.hasExpires) }
    @inline(__always) set { setFlag(Flag.hasExpires, newValue) }
  }
  /// Whether `price` (and its `currency`) are present.
  package var hasPrice: Bool {
    @inline(__always) get { flag(Flag.hasPrice) }
    @inline(__always) set { setFlag(Flag.hasPrice, newValue) }
  }
  /// Whether `recorded` was written in the log (otherwise it equals `at`).
  package var hasRecorded: Bool {
    @inline(__always) get { flag(Flag.hasRecorded) }
    @inline(__always) set { setFlag(Flag.hasRecorded, newValue) }
  }
  /// Whether `ownership` was written in the log.
  package var hasOwnership: Bool {
    @inline(__always) get { flag(Flag.hasOwnership) }
    @inline(__always) set { setFlag(Flag.hasOwnership, newValue) }
  }
  /// Whether `offer` was written in the log.
  package var hasOffer: Bool {
    @inline(__always) get { flag(Flag.hasOffer) }
    @inline(__always) set { setFlag(Flag.hasOffer, newValue) }
  }

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
    slot = UInt32.max
    productBits = UInt16.max
    targetProductBits = UInt16.max
    feature = Event.noFeature
    // `ownership` purchased (0), `offer` normal (0), no flags.
    bits = 0
    self.kind = kind
    reasonRaw = 255
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

  /// The effective-order key: `at`, then line order for ties.
  @inlinable
  package static func effectiveOrder(_ a: Event, _ b: Event) -> Bool {
    a.at != b.at ? a.at < b.at : a.line < b.line
  }
}
