/// One event as a fixed-width record of a snapshot's restore section, plus the values it has
/// beyond the common ones in the section's extras stream.
///
/// A record is `recordBytes` bytes, every field little-endian at a fixed offset (never a raw
/// struct dump, so the bytes are the same on every platform): `at` (milliseconds, 64 bits), then
/// 32-bit indices of the id, transaction and original transaction into the section's string
/// tables (all ones: none), the line, the slot, and 32 bits of `EventFlags` with one bit per
/// extra value present. Extras follow, in this order, only when their bit is set: `recorded`,
/// `expires`, `quantity`, `price`, the meta hash (64 bits each), the currency, product and target
/// product (32 bits each), the usage feature (16 bits). A value at its default (`recorded == at`,
/// zero, none) is not written. The subject is not stored: records come grouped by subject.
package enum RecordCoding {
  /// Bytes per record.
  package static let recordBytes = 32

  private static let atOffset = 0
  private static let idOffset = 8
  private static let transactionOffset = 12
  private static let originalOffset = 16
  private static let lineOffset = 20
  private static let slotOffset = 24
  private static let flagsOffset = 28

  /// The first bit above `EventFlags`' bits: one bit per extra value, in stream order.
  private static let firstExtraBit: UInt32 = 18
  /// Extra values a record can have, in the order they follow in the extras stream.
  private enum Extra: UInt32, CaseIterable {
    case recorded, expires, quantity, price, meta, currency, product, target, feature
    // Contract v1.3: a revocation's `refunded` (instead of `price`), a charge's facts hash.
    case refunded, facts
    // A kind past `EventFlags.extendedKind`: its storage code.
    case kind
    var bit: UInt32 { 1 << (RecordCoding.firstExtraBit + rawValue) }
  }
  /// Bits of the flags word that must be zero.
  private static let unusedBits: UInt32 = ~0 << (firstExtraBit + UInt32(Extra.allCases.count))

  /// The currency a record stores: a consumption's balance currency or a charge's price currency.
  private static func currency(_ e: Event, _ d: EventDetails) -> Symbol {
    e.kind == .consumption ? e.balanceCurrency : d.priceCurrency
  }

  /// The most bytes of extras one record writes (every extra present).
  package static let extrasBytesMax = 7 * 8 + 3 * 4 + 2 + 1

  /// Bytes of the extras stream `e` (with its details `d`) writes.
  package static func extrasBytes(_ e: Event, _ d: EventDetails) -> Int {
    var bytes = 0
    if e.recorded != e.at { bytes += 8 }
    if e.expires.millisecondsSinceEpoch != 0 { bytes += 8 }
    if e.quantity != 0 { bytes += 8 }
    if d.price != 0 || e.hasRefunded { bytes += 8 }
    if d.metaHash != 0 { bytes += 8 }
    if d.factsHash != 0 { bytes += 8 }
    if e.kind.storageCode >= EventFlags.extendedKind { bytes += 1 }
    if currency(e, d).isSome { bytes += 4 }
    if e.product.isSome { bytes += 4 }
    if e.targetProduct.isSome { bytes += 4 }
    if e.feature != Event.noFeature { bytes += 2 }
    return bytes
  }

  /// Writes `e` (with its details `d`) as one record at `offset` of `out`, and its extras at
  /// `extras` (moved past them); `out` has room for both (`recordBytes`, `extrasBytes(e, d)`).
  package static func encode(
    _ e: Event, _ d: EventDetails, into out: UnsafeMutableRawBufferPointer, at offset: Int, extras: inout Int
  ) {
    encode(e, d, into: out, at: offset, extrasInto: out, at: &extras)
  }

  /// Writes `e` (with its details `d`) as one record at `offset` of `out`, and its extras at
  /// `extras` of `extrasOut` (moved past them); each buffer has room for its part.
  @inline(__always)
  package static func encode(
    _ e: Event, _ d: EventDetails, into out: UnsafeMutableRawBufferPointer, at offset: Int,
    extrasInto extrasOut: UnsafeMutableRawBufferPointer, at extras: inout Int
  ) {
    precondition(offset >= 0 && offset + recordBytes <= out.count, "record outside the buffer")
    func put<T: FixedWidthInteger>(_ value: T, _ at: Int) {
      out.storeBytes(of: value.littleEndian, toByteOffset: at, as: T.self)
    }
    var flags = UInt32(EventFlags.pack(e, hasPrice: d.hasPrice))
    func extra<T: FixedWidthInteger>(_ present: Bool, _ which: Extra, _ value: T) {
      guard present else { return }
      flags |= which.bit
      precondition(extras >= 0 && extras + MemoryLayout<T>.size <= extrasOut.count, "extras outside the buffer")
      extrasOut.storeBytes(of: value.littleEndian, toByteOffset: extras, as: T.self)
      extras += MemoryLayout<T>.size
    }
    extra(e.recorded != e.at, .recorded, e.recorded.millisecondsSinceEpoch)
    extra(e.expires.millisecondsSinceEpoch != 0, .expires, e.expires.millisecondsSinceEpoch)
    extra(e.quantity != 0, .quantity, e.quantity)
    extra(d.price != 0 && !e.hasRefunded, .price, d.price)
    extra(d.metaHash != 0, .meta, d.metaHash)
    extra(currency(e, d).isSome, .currency, currency(e, d).rawValue)
    extra(e.product.isSome, .product, e.product.rawValue)
    extra(e.targetProduct.isSome, .target, e.targetProduct.rawValue)
    extra(e.feature != Event.noFeature, .feature, e.feature)
    extra(e.hasRefunded, .refunded, d.price)
    extra(d.factsHash != 0, .facts, d.factsHash)
    extra(e.kind.storageCode >= EventFlags.extendedKind, .kind, e.kind.storageCode)
    put(e.at.millisecondsSinceEpoch, offset + atOffset)
    put(e.id.rawValue, offset + idOffset)
    put(e.transaction.rawValue, offset + transactionOffset)
    put(e.originalTransaction.rawValue, offset + originalOffset)
    put(e.line, offset + lineOffset)
    put(e.slot, offset + slotOffset)
    put(flags, offset + flagsOffset)
  }

  /// Reads the record at `offset` of `bytes` (which holds it whole) into an event and its
  /// details, taking its extras from `extras` up to `extrasEnd`; nil when its flags are not a
  /// valid encoding, a value is one its kind cannot hold, or its extras run past `extrasEnd`.
  /// Indices are not checked here.
  @inline(__always)
  package static func decode(
    _ bytes: UnsafeRawBufferPointer, at offset: Int, extras: inout Int, extrasEnd: Int
  ) -> (event: Event, details: EventDetails)? {
    func get<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
      T(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: T.self))
    }
    let flags = get(offset + flagsOffset, UInt32.self)
    var e = Event(kind: .purchase)
    var d = EventDetails()
    var hasPrice = false
    guard flags & unusedBits == 0,
      EventFlags.unpack(Int64(flags & ((1 << firstExtraBit) - 1)), into: &e, hasPrice: &hasPrice)
    else { return nil }
    var ok = true
    func extra<T: FixedWidthInteger>(_ which: Extra, _ absent: T) -> T {
      guard flags & which.bit != 0 else { return absent }
      guard extras + MemoryLayout<T>.size <= extrasEnd else {
        ok = false
        return absent
      }
      defer { extras += MemoryLayout<T>.size }
      return get(extras, T.self)
    }
    let at = get(offset + atOffset, Int64.self)
    e.at = Timestamp(millisecondsSinceEpoch: at)
    e.recorded = Timestamp(millisecondsSinceEpoch: extra(.recorded, at))
    e.expires = Timestamp(millisecondsSinceEpoch: extra(.expires, Int64(0)))
    e.quantity = extra(.quantity, Int64(0))
    d.price = extra(.price, Int64(0))
    d.metaHash = extra(.meta, UInt64(0))
    let currency = Symbol(rawValue: extra(.currency, UInt32.max))
    e.product = ProductIndex(rawValue: extra(.product, UInt32.max))
    let target = ProductIndex(rawValue: extra(.target, UInt32.max))
    let feature = extra(.feature, Event.noFeature)
    if flags & Extra.refunded.bit != 0 {
      guard e.kind == .revocation, d.price == 0 else { return nil }
      e.hasRefunded = true
      d.price = extra(.refunded, Int64(0))
    }
    d.factsHash = extra(.facts, UInt64(0))
    if e.kind.storageCode == EventFlags.extendedKind {
      guard flags & Extra.kind.bit != 0, let kind = EventKind(storageCode: extra(.kind, UInt8(0))),
        kind.storageCode >= EventFlags.extendedKind
      else { return nil }
      e.kind = kind
    } else if flags & Extra.kind.bit != 0 {
      return nil
    }
    // Values only some kinds hold (`Event` keeps them in one place): refused on any other.
    let refund = Event.isRefundKind(e.kind)
    guard e.kind == .usage || feature == Event.noFeature, refund || !target.isSome else { return nil }
    if e.kind == .usage { e.feature = feature }
    if refund { e.targetProduct = target }
    if e.kind == .consumption { e.balanceCurrency = currency } else { d.priceCurrency = currency }
    guard hasPrice == d.hasPrice, d.hasPrice || d.price == 0 || e.hasRefunded else { return nil }
    e.id = Symbol(rawValue: get(offset + idOffset, UInt32.self))
    e.transaction = Symbol(rawValue: get(offset + transactionOffset, UInt32.self))
    e.originalTransaction = Symbol(rawValue: get(offset + originalOffset, UInt32.self))
    e.line = get(offset + lineOffset, UInt32.self)
    e.slot = get(offset + slotOffset, UInt32.self)
    return ok ? (e, d) : nil
  }
}
