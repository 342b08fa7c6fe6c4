import StoreLedgerCore

/// One event as a fixed-width record of a snapshot's restore section.
///
/// `recordBytes` bytes, every field little-endian at a fixed offset (never a raw struct dump, so
/// the bytes are the same on every platform): `at`, `recorded`, `expires`, `quantity`, `price` and
/// the meta hash as 64-bit integers (milliseconds for instants); the id, transaction, original
/// transaction and currency as 32-bit indices into the section's string tables, then the line,
/// the slot, the product and the target product (all ones: none); `EventFlags` in 32 bits; the
/// usage feature in 16 bits; 16 bits that must be zero. The subject is not stored: records come
/// grouped by subject, in effective order.
enum RecordCoding {
  /// Bytes per record.
  static let recordBytes = 88

  private static let atOffset = 0
  private static let recordedOffset = 8
  private static let expiresOffset = 16
  private static let quantityOffset = 24
  private static let priceOffset = 32
  private static let metaOffset = 40
  private static let idOffset = 48
  private static let transactionOffset = 52
  private static let originalOffset = 56
  private static let currencyOffset = 60
  private static let lineOffset = 64
  private static let slotOffset = 68
  private static let productOffset = 72
  private static let targetOffset = 76
  private static let flagsOffset = 80
  private static let featureOffset = 84
  private static let reservedOffset = 86

  /// Writes `e` as one record at `offset` of `out`, which has room for it.
  static func encode(_ e: Event, into out: UnsafeMutableRawBufferPointer, at offset: Int) {
    precondition(offset >= 0 && offset + recordBytes <= out.count, "record outside the buffer")
    func put<T: FixedWidthInteger>(_ value: T, _ field: Int) {
      out.storeBytes(of: value.littleEndian, toByteOffset: offset + field, as: T.self)
    }
    put(e.at.millisecondsSinceEpoch, atOffset)
    put(e.recorded.millisecondsSinceEpoch, recordedOffset)
    put(e.expires.millisecondsSinceEpoch, expiresOffset)
    put(e.quantity, quantityOffset)
    put(e.price, priceOffset)
    put(e.metaHash, metaOffset)
    put(e.id.rawValue, idOffset)
    put(e.transaction.rawValue, transactionOffset)
    put(e.originalTransaction.rawValue, originalOffset)
    put(e.currency.rawValue, currencyOffset)
    put(e.line, lineOffset)
    put(e.slot, slotOffset)
    put(e.product.rawValue, productOffset)
    put(e.targetProduct.rawValue, targetOffset)
    put(UInt32(EventFlags.pack(e)), flagsOffset)
    put(e.feature, featureOffset)
    put(UInt16(0), reservedOffset)
  }

  /// Reads the record at `offset` of `bytes` (which holds it whole) into an event of `subject`;
  /// nil when its flags are not a valid encoding. Indices are not checked here.
  @inline(__always)
  static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int, subject: Symbol) -> Event? {
    func get<T: FixedWidthInteger>(_ field: Int, _: T.Type) -> T {
      T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + field, as: T.self))
    }
    var e = Event(kind: .purchase)
    guard get(reservedOffset, UInt16.self) == 0, EventFlags.unpack(Int64(get(flagsOffset, UInt32.self)), into: &e)
    else { return nil }
    e.at = Timestamp(millisecondsSinceEpoch: get(atOffset, Int64.self))
    e.recorded = Timestamp(millisecondsSinceEpoch: get(recordedOffset, Int64.self))
    e.expires = Timestamp(millisecondsSinceEpoch: get(expiresOffset, Int64.self))
    e.quantity = get(quantityOffset, Int64.self)
    e.price = get(priceOffset, Int64.self)
    e.metaHash = get(metaOffset, UInt64.self)
    e.id = Symbol(rawValue: get(idOffset, UInt32.self))
    e.subject = subject
    e.transaction = Symbol(rawValue: get(transactionOffset, UInt32.self))
    e.originalTransaction = Symbol(rawValue: get(originalOffset, UInt32.self))
    e.currency = Symbol(rawValue: get(currencyOffset, UInt32.self))
    e.line = get(lineOffset, UInt32.self)
    e.slot = get(slotOffset, UInt32.self)
    e.product = ProductIndex(rawValue: get(productOffset, UInt32.self))
    e.targetProduct = ProductIndex(rawValue: get(targetOffset, UInt32.self))
    e.feature = get(featureOffset, UInt16.self)
    return e
  }
}
