import StoreLedgerCore

/// The compact encoding of a subject's event records in a snapshot's `state` section.
///
/// Per event, LEB128 varints: zigzag deltas for the line and `at` (events are in
/// effective order, so deltas are small), `recorded − at`, `expires − at`, and
/// symbol / product indices plus one (0 = none), and for `usage` the feature's index. Then base64, so it stays a JSON
/// string. About 30 bytes per event, against ~180 for the log line.
enum RecordCoding {
  /// Flag bit set when the event has a `meta` hash (8 raw bytes follow).
  static let hasMetaFlag: Int64 = 1 << 18

  static func encode(_ events: ArraySlice<Event>, into out: inout [UInt8]) {
    var previousLine: Int64 = 0
    var previousAt: Int64 = 0
    for e in events {
      var flags = EventFlags.pack(e)
      if e.metaHash != 0 { flags |= hasMetaFlag }
      signed(Int64(e.line) - previousLine, &out)
      previousLine = Int64(e.line)
      unsigned(UInt64(flags), &out)
      signed(e.at.millisecondsSinceEpoch &- previousAt, &out)
      previousAt = e.at.millisecondsSinceEpoch
      signed(e.recorded.millisecondsSinceEpoch &- e.at.millisecondsSinceEpoch, &out)
      if e.hasExpires { signed(e.expires.millisecondsSinceEpoch &- e.at.millisecondsSinceEpoch, &out) }
      signed(e.quantity, &out)
      if e.hasPrice { signed(e.price, &out) }
      if e.metaHash != 0 {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: e.metaHash >> UInt64(shift))) }
      }
      unsigned(UInt64(e.id.rawValue), &out)
      for symbol in [e.transaction, e.originalTransaction, e.currency] {
        unsigned(symbol.isSome ? UInt64(symbol.rawValue) + 1 : 0, &out)
      }
      for product in [e.product, e.targetProduct] {
        unsigned(product.isSome ? UInt64(product.rawValue) + 1 : 0, &out)
      }
      unsigned(e.slot == UInt32.max ? 0 : UInt64(e.slot) + 1, &out)
      if e.kind == .usage { unsigned(UInt64(e.feature), &out) }
    }
  }

  @inline(__always)
  static func unsigned(_ value: UInt64, _ out: inout [UInt8]) {
    var v = value
    while v >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  @inline(__always)
  static func signed(_ value: Int64, _ out: inout [UInt8]) {
    unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)), &out)
  }

  /// Reads records back; nil when the bytes are not a valid encoding.
  struct Decoder {
    let p: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ p: UnsafeBufferPointer<UInt8>) { self.p = p }

    var isAtEnd: Bool { i >= p.count }

    @inline(__always)
    mutating func unsigned() -> UInt64? {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while i < p.count {
        let byte = p[i]
        i += 1
        guard shift < 64 else { return nil }
        result |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return result }
        shift += 7
      }
      return nil
    }

    @inline(__always)
    mutating func signed() -> Int64? {
      guard let raw = unsigned() else { return nil }
      return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func raw64() -> UInt64? {
      guard i + 8 <= p.count else { return nil }
      var value: UInt64 = 0
      for k in 0..<8 { value |= UInt64(p[i + k]) << UInt64(8 * k) }
      i += 8
      return value
    }
  }
}
