/// Writes generated events as JSON lines straight into a byte buffer.
///
/// No `String`, no interpolation, no formatter: keys and enumerated values are
/// static byte strings, numbers and instants are written digit by digit. Field
/// values never need escaping (ids are hex, products and codes are fixed ASCII),
/// which is what lets the writer skip JSON string escaping altogether.
struct LineEncoder {
  /// An upper bound on one line's bytes (the longest possible line is under 600).
  static let lineBytesMax = 1024

  private let idKey: UInt64
  private let subjectKey: UInt64

  /// An encoder whose event and subject ids depend on `seed`.
  init(seed: UInt64) {
    idKey = SplitMix64.mix(seed ^ 0x6964)
    subjectKey = SplitMix64.mix(seed ^ 0x7375_626A)
  }

  /// The event id `evt_` + 12 hex digits: unique per event number below 2⁴⁸.
  func writeID(_ number: UInt64, to out: inout ByteCursor) {
    out.put("evt_")
    out.hex12(Self.permute48(number &+ idKey))
  }

  /// The subject `u_` + 12 hex digits: unique per subject index.
  func writeSubject(_ subject: UInt32, to out: inout ByteCursor) {
    out.put("u_")
    out.hex12(Self.permute48(UInt64(subject) &+ subjectKey))
  }

  /// A bijection of 48-bit values (xorshifts and odd multiplications modulo 2⁴⁸).
  ///
  /// Ids look random, as real ones do, yet distinct numbers can never collide,
  /// which a truncated hash could not promise.
  static func permute48(_ value: UInt64) -> UInt64 {
    let mask: UInt64 = (1 << 48) - 1
    var z = value & mask
    z ^= z >> 25
    z = (z &* 0x9E37_79B9_7F4B) & mask
    z ^= z >> 23
    z = (z &* 0xBF58_476D_1CE5) & mask
    z ^= z >> 27
    return z
  }

  /// Writes `event` as one line ending in `\n` at `start`; returns the number of bytes written.
  func write(_ event: GeneratedEvent, to start: UnsafeMutablePointer<UInt8>) -> Int {
    var out = ByteCursor(start)
    out.put("{\"id\":\"")
    writeID(event.number, to: &out)
    out.put("\",\"type\":\"")
    out.put(event.kind.staticName)
    out.put("\",\"subject\":\"")
    writeSubject(event.subject, to: &out)
    out.put("\",\"at\":\"")
    out.timestamp(event.at)
    if event.recordedAt != .min {
      out.put("\",\"recorded\":\"")
      out.timestamp(event.recordedAt)
    }
    out.put("\"")
    if let feature = event.feature {
      out.put(",\"feature\":\"")
      out.put(feature.name)
      out.put("\"")
    }
    if let product = event.product {
      out.put(",\"product\":\"")
      out.put(product.id)
      out.put("\"")
    }
    if event.transaction != 0 {
      out.put(",\"transaction\":\"")
      out.decimal(event.transaction)
      out.put("\"")
    }
    if event.originalTransaction != 0 {
      out.put(",\"original_transaction\":\"")
      out.decimal(event.originalTransaction)
      out.put("\"")
    }
    if event.expiresAt != .min {
      out.put(event.kind == .graceEntered ? ",\"grace_expires\":\"" : ",\"expires\":\"")
      out.timestamp(event.expiresAt)
      out.put("\"")
    }
    if event.kind == .autoRenewChanged {
      out.put(event.autoRenew ? ",\"auto_renew\":true" : ",\"auto_renew\":false")
    }
    if event.quantity != 0 {
      out.put(",\"quantity\":")
      if event.quantity < 0 { out.put(byte: 45) }
      out.decimal(event.quantity.magnitude)
    }
    if event.kind == .consumption {
      out.put(",\"currency\":\"coins\"")
    }
    if event.isFamilyShared {
      out.put(",\"ownership\":\"family_shared\"")
    }
    if let offer = event.offer {
      out.put(",\"offer\":\"")
      out.put(offer.staticName)
      out.put("\"")
    }
    if event.reason != .none {
      out.put(",\"reason\":\"")
      out.put(event.reason.text)
      out.put("\"")
    }
    if event.price >= 0 {
      out.put(",\"price\":")
      out.decimal(UInt64(event.price))
      out.put(",\"currency\":\"")
      out.put(event.storefront.currency)
      out.put("\"")
    }
    switch event.meta {
    case .none:
      break
    case .notification:
      out.put(",\"meta\":{\"source\":\"asn2\",\"storefront\":\"")
      out.put(event.storefront.code)
      out.put("\"}")
    case .sdk:
      out.put(",\"meta\":{\"source\":\"sdk\",\"app_version\":\"")
      out.put(GeneratedMeta.appVersions[Int(event.appVersion)])
      out.put("\",\"storefront\":\"")
      out.put(event.storefront.code)
      out.put("\"}")
    }
    out.put("}\n")
    return out.pointer - start
  }
}

/// A write position in a buffer the caller has sized (see `LineEncoder.lineBytesMax`).
struct ByteCursor {
  /// The next byte to write.
  private(set) var pointer: UnsafeMutablePointer<UInt8>

  /// A cursor at `start`.
  init(_ start: UnsafeMutablePointer<UInt8>) {
    pointer = start
  }

  /// Copies a static ASCII string.
  @inline(__always)
  mutating func put(_ text: StaticString) {
    text.withUTF8Buffer { bytes in
      pointer.update(from: bytes.baseAddress!, count: bytes.count)
      pointer += bytes.count
    }
  }

  /// Writes one byte.
  @inline(__always)
  mutating func put(byte: UInt8) {
    pointer.pointee = byte
    pointer += 1
  }

  /// Writes a non-negative integer in decimal.
  /// - Complexity: O(digits).
  @inline(__always)
  mutating func decimal(_ value: UInt64) {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    var position = pointer + digits
    rest = value
    repeat {
      position -= 1
      position.pointee = 48 + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest != 0
    pointer += digits
  }

  /// Writes the low 48 bits as 12 lowercase hex digits.
  @inline(__always)
  mutating func hex12(_ value: UInt64) {
    for index in 0..<12 {
      let nibble = UInt8(truncatingIfNeeded: (value >> UInt64(44 - 4 * index)) & 15)
      pointer[index] = nibble < 10 ? 48 + nibble : 87 + nibble
    }
    pointer += 12
  }

  /// Writes exactly `width` decimal digits of `value` (0 ≤ value < 10^width).
  @inline(__always)
  private mutating func fixed(_ value: Int64, width: Int) {
    var rest = value
    var index = width
    while index > 0 {
      index -= 1
      pointer[index] = 48 + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    pointer += width
  }

  /// Writes an instant in the form of `Timestamp.appendRFC3339` (UTC, `.mmm` only when non-zero).
  ///
  /// The same civil-date arithmetic, written into the buffer directly: this runs
  /// three times per line, and going through an intermediate array would cost
  /// more than the rest of the line. Years are 1970–9999 (see `GeneratorOptions`).
  mutating func timestamp(_ milliseconds: Int64) {
    let days = floorDivide(milliseconds, 86_400_000)
    let millisecondOfDay = milliseconds - days * 86_400_000
    let civil = CivilDate(daysSinceEpoch: days)
    fixed(civil.year, width: 4)
    put(byte: 45)
    fixed(civil.month, width: 2)
    put(byte: 45)
    fixed(civil.day, width: 2)
    put(byte: 84)
    fixed(millisecondOfDay / 3_600_000, width: 2)
    put(byte: 58)
    fixed(millisecondOfDay / 60_000 % 60, width: 2)
    put(byte: 58)
    fixed(millisecondOfDay / 1000 % 60, width: 2)
    let millis = millisecondOfDay % 1000
    if millis != 0 {
      put(byte: 46)
      fixed(millis, width: 3)
    }
    put(byte: 90)
  }
}
