import StoreLedger

// The generator's seam with the rest of the package: every generated event is the library's
// typed event (`NewEvent`), the one the importers, the library's appends and the log's reader
// share (issue 33: one typed event at every seam). The simulation keeps its flat
// `GeneratedEvent` records, which sort by delivery in one array and are written by
// `LineEncoder` without a `String`; `GeneratedTypedEventTests` pins that each line `write`
// writes reads back as exactly the value `newEvent` gives.

extension LineEncoder {
  /// The typed event whose line `write(_:to:)` writes for `event`.
  /// - Complexity: O(fields of the event).
  func newEvent(_ event: GeneratedEvent) -> NewEvent {
    var typed = NewEvent(
      id: EventID(rawValue: id(event.number)), kind: event.kind, subject: SubjectID(rawValue: subject(event.subject)),
      at: Timestamp(millisecondsSinceEpoch: event.at))
    if event.recordedAt != .min { typed.recorded = Timestamp(millisecondsSinceEpoch: event.recordedAt) }
    if event.isTransfer { typed.to = SubjectID(rawValue: subject(event.toSubject)) }
    typed.feature = event.feature.map { $0.name.description }
    typed.product = event.product.map { ProductID(rawValue: $0.id.description) }
    if event.transaction != 0 { typed.transaction = TransactionID(rawValue: String(event.transaction)) }
    if event.originalTransaction != 0 {
      typed.originalTransaction = TransactionID(rawValue: String(event.originalTransaction))
    }
    typed.grant = event.grantNumber.map { EventID(rawValue: id($0)) }
    if event.expiresAt != .min {
      let end = Timestamp(millisecondsSinceEpoch: event.expiresAt)
      switch event.kind {
      case .graceEntered: typed.graceExpires = end
      case .refundRequested: typed.respondBy = end
      default: typed.expires = end
      }
    }
    setValues(event, on: &typed)
    typed.metaValues = meta(event)
    return typed
  }

  /// The values `writeValues` writes.
  private func setValues(_ event: GeneratedEvent, on typed: inout NewEvent) {
    if event.kind == .autoRenewChanged { typed.autoRenew = event.autoRenew }
    if event.quantity != 0 { typed.quantity = event.quantity }
    if event.kind == .consumption { typed.currency = "coins" }
    if event.isFamilyShared { typed.ownership = .familyShared }
    typed.offer = event.offer
    if event.reason != .none { typed.reason = event.reason.text.description }
    if event.price >= 0 {
      typed.price = event.price
      typed.currency = event.storefront.currency.description
    }
    if !event.entitlements.isEmpty { typed.entitlements = event.entitlements.names.map(\.description) }
    typed.service = event.service.map { $0.name.description }
    if event.refunded >= 0 { typed.refunded = event.refunded }
    typed.store = event.store.map { $0.name.description }
    if event.writesCountry { typed.country = event.storefront.alpha2.description }
    if event.proceeds >= 0 { typed.proceeds = event.proceeds }
  }

  /// The `meta` object `writeMeta` writes.
  private func meta(_ event: GeneratedEvent) -> [String: JSONValue] {
    let storefront = JSONValue.string(event.storefront.code.description)
    switch event.meta {
    case .none: return [:]
    case .notification: return ["source": .string("asn2"), "storefront": storefront]
    case .sdk:
      let version = GeneratedMeta.appVersions[Int(event.appVersion)].description
      return ["source": .string("sdk"), "app_version": .string(version), "storefront": storefront]
    }
  }

  /// The event id of event number `number`, as `writeID` writes it.
  func id(_ number: UInt64) -> String { text { writeID(number, to: &$0) } }

  /// The subject id of subject `index`, as `writeSubject` writes it.
  func subject(_ index: UInt32) -> String { text { writeSubject(index, to: &$0) } }

  /// What `write` puts through a cursor, as a `String`.
  private func text(_ write: (inout ByteCursor) -> Void) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
      var cursor = ByteCursor(buffer.baseAddress!)
      write(&cursor)
      return String(decoding: UnsafeBufferPointer(start: buffer.baseAddress!, count: cursor.pointer - buffer.baseAddress!), as: UTF8.self)
    }
  }
}
