import StoreLedger

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
    writeIdentity(event, to: &out)
    writeReferences(event, to: &out)
    writeValues(event, to: &out)
    writeMeta(event, to: &out)
    out.put("}\n")
    return out.pointer - start
  }

  /// `{"id":…,"type":…,"subject":…,"at":…` and `recorded` when late.
  @inline(__always)
  private func writeIdentity(_ event: GeneratedEvent, to out: inout ByteCursor) {
    out.put("{\"id\":\"")
    writeID(event.number, to: &out)
    out.put("\",\"type\":\"")
    out.put(event.kind.staticName)
    out.put("\",\"subject\":\"")
    writeSubject(event.subject, to: &out)
    if event.isTransfer {
      out.put("\",\"to\":\"")
      writeSubject(event.toSubject, to: &out)
    }
    out.put("\",\"at\":\"")
    out.timestamp(event.at)
    if event.recordedAt != .min {
      out.put("\",\"recorded\":\"")
      out.timestamp(event.recordedAt)
    }
    out.put("\"")
  }

  /// What the event names: feature, product, transactions, and its end.
  @inline(__always)
  private func writeReferences(_ event: GeneratedEvent, to out: inout ByteCursor) {
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
    if let grant = event.grantNumber {
      out.put(",\"grant\":\"")
      writeID(grant, to: &out)
      out.put("\"")
    }
    if event.expiresAt != .min {
      switch event.kind {
      case .graceEntered: out.put(",\"grace_expires\":\"")
      case .refundRequested: out.put(",\"respond_by\":\"")
      default: out.put(",\"expires\":\"")
      }
      out.timestamp(event.expiresAt)
      out.put("\"")
    }
  }

  /// Its values: auto-renew, quantity, currency, ownership, offer, reason and price.
  @inline(__always)
  private func writeValues(_ event: GeneratedEvent, to out: inout ByteCursor) {
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
    writeContract13Values(event, to: &out)
  }

  /// The v1.3 values: entitlements and service of grants and blocks, the refunded amount, and
  /// a charge's store, country and proceeds.
  @inline(__always)
  private func writeContract13Values(_ event: GeneratedEvent, to out: inout ByteCursor) {
    if !event.entitlements.isEmpty {
      out.put(",\"entitlements\":[")
      for (index, name) in event.entitlements.names.enumerated() {
        out.put(index == 0 ? "\"" : ",\"")
        out.put(name)
        out.put("\"")
      }
      out.put("]")
    }
    if let service = event.service {
      out.put(",\"service\":\"")
      out.put(service.name)
      out.put("\"")
    }
    if event.refunded >= 0 {
      out.put(",\"refunded\":")
      out.decimal(UInt64(event.refunded))
    }
    if let store = event.store {
      out.put(",\"store\":\"")
      out.put(store.name)
      out.put("\"")
    }
    if event.writesCountry {
      out.put(",\"country\":\"")
      out.put(event.storefront.alpha2)
      out.put("\"")
    }
    if event.proceeds >= 0 {
      out.put(",\"proceeds\":")
      out.decimal(UInt64(event.proceeds))
    }
  }

  /// `meta`, as a notification or an SDK would send it.
  @inline(__always)
  private func writeMeta(_ event: GeneratedEvent, to out: inout ByteCursor) {
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
  }
}
