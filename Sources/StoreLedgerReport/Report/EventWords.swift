import StoreLedgerCore

/// One event in words for people: `renewal`, `refund`, `grace period entered`, and how late the
/// ledger learned of it. `query --explain` in text and the timeline's labels word events the same way.
package enum EventWords {
  /// The event in words, without ids: `renewal`, `refund`, `auto-renew turned off`.
  package static func kind(_ event: Event, catalog: Catalog) -> String {
    // Kinds whose fields change the words; every other kind is worded by its row of the kind table.
    switch event.kind {
    case .purchase: return event.originalTransaction.isSome && event.originalTransaction != event.transaction ? "resubscription" : "purchase"
    case .expiration:
      switch ExpirationReason(rawValue: event.reasonRaw) {
      case .voluntary: return "expiration (cancelled by the customer)"
      case .billing: return "expiration (payment never succeeded)"
      case .priceIncrease: return "expiration (price increase not accepted)"
      case .productUnavailable: return "expiration (product no longer sold)"
      case .other, nil: return event.kind.words
      }
    case .autoRenewChanged: return event.autoRenew ? "auto-renew turned on" : "auto-renew turned off"
    case .planChanged:
      return event.product.isSome ? "plan change to \(catalog[event.product].id)" : event.kind.words
    case .revocation:
      switch RevocationReason(rawValue: event.reasonRaw) {
      case .refund: return "refund"
      case .familyRevoked: return "family sharing ended"
      case .other, nil: return event.kind.words
      }
    default: return event.kind.words
    }
  }

  /// How late the ledger learned of an event: `4 days late`, `3 hours late`; nil when it was
  /// learned when it took effect (or earlier, as a scheduled fact is) or under a minute after.
  package static func lateness(at effective: Timestamp, recorded: Timestamp) -> String? {
    let milliseconds = recorded.millisecondsSinceEpoch - effective.millisecondsSinceEpoch
    guard milliseconds >= 60_000 else { return nil }
    return duration(milliseconds: milliseconds) + " late"
  }

  /// A positive duration in the largest whole unit: `4 days`, `1 hour`, `25 minutes`.
  package static func duration(milliseconds: Int64) -> String {
    let minutes = milliseconds / 60_000
    let units: [(Int64, String)] = [(1_440, "day"), (60, "hour"), (1, "minute")]
    for (size, name) in units where minutes >= size {
      let count = minutes / size
      return "\(count) \(name)" + (count == 1 ? "" : "s")
    }
    return "under a minute"
  }
}
