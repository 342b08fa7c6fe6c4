/// Resolves, per subject, subscription numbers and refund targets into `Event.slot`.
struct Resolver {
  let catalog: Catalog
  private var subscriptionByOriginal: [Symbol: UInt32] = [:]
  private var chargeByTransaction: [Symbol: UInt32] = [:]
  private var grantByReference: [Symbol: UInt32] = [:]

  init(catalog: Catalog) { self.catalog = catalog }

  /// Returns the number of subscriptions of the subject.
  mutating func resolve(_ events: UnsafeMutableBufferPointer<Event>) -> UInt32 {
    subscriptionByOriginal.removeAll(keepingCapacity: true)
    chargeByTransaction.removeAll(keepingCapacity: true)
    grantByReference.removeAll(keepingCapacity: true)
    var count: UInt32 = 0
    for position in events.indices {
      let event = events[position]
      if event.kind.isCharge { chargeByTransaction[event.transaction] = UInt32(position) }
      if event.kind == .grant { grantByReference[event.grantReference] = UInt32(position) }
    }
    for position in events.indices {
      var event = events[position]
      // By scope (`EventKind.facts`); kinds of no scope here (pending, balance, usage) refer to nothing.
      if event.kind.scope.contains(.subscription) {
        event.slot = subscriptionNumber(event.originalTransaction, &count)
      } else if event.kind.isCharge {
        // A charge that names no subscription (`purchase`): its product says what it starts.
        if catalog.kind(event.product) == .autoRenewable {
          let key = event.originalTransaction.isSome ? event.originalTransaction : event.transaction
          event.slot = subscriptionNumber(key, &count)
        } else {
          event.slot = UInt32(position)
        }
      } else if event.kind == .grant {
        event.slot = UInt32(position)
      } else if event.kind == .grantRevoked {
        // The grant it names, before or after it in effective order; none: it changes nothing.
        event.slot = grantByReference[event.grantReference] ?? UInt32.max
      } else if event.kind.namesCharge {
        if let target = chargeByTransaction[event.transaction] {
          let charge = events[Int(target)]
          event.targetProduct = charge.product
          // A refund effective before its purchase refers to nothing at that point.
          event.slot = charge.slot
          if Int(target) > position { event.targetProduct = .none }
        }
      }
      events[position] = event
    }
    return count
  }

  /// Whether `e`'s slot is one `resolve` leaves at `position` of its subject (what restore, which
  /// does not resolve again, checks): a subscription's events and a charge of an auto-renewable
  /// product name a subscription; another charge and a grant, their own position.
  @inline(__always)
  static func isResolved(_ e: Event, position: Int, catalog: Catalog) -> Bool {
    if e.kind.scope.contains(.subscription) { return e.slot != UInt32.max }
    if e.kind.isCharge {
      return catalog.kind(e.product) == .autoRenewable ? e.slot != UInt32.max : Int(e.slot) == position
    }
    return e.kind != .grant || Int(e.slot) == position
  }

  private mutating func subscriptionNumber(_ key: Symbol, _ count: inout UInt32) -> UInt32 {
    if let existing = subscriptionByOriginal[key] { return existing }
    subscriptionByOriginal[key] = count
    count += 1
    return count - 1
  }
}
