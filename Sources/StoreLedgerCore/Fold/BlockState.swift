/// What one blocking service decides for a subject: its latest `block` or `unblock` applied
/// (contract v1.3, section 10).
package struct BlockState: Sendable, Equatable {
  /// The service (interned like a reference, `Event.service`).
  package var service: Symbol
  /// Whether its deciding event is a `block` (an `unblock` blocks nothing).
  package var isBlocking: Bool
  /// What it blocks: one bit per catalog entitlement id (a block without `entitlements`: all).
  package var entitlementMask: UInt64
  /// The deciding block's `at` (a second block by the service resets it).
  package var since: Timestamp
  /// The deciding block's free-text `reason`, or `.none`.
  package var reason: Symbol

  /// Whether it blocks the entitlement with catalog index `entitlement`.
  package func blocks(_ entitlement: Int) -> Bool {
    guard isBlocking else { return false }
    // A block of every entitlement also covers ids past the mask's 64 bits.
    if entitlementMask == UInt64.max { return true }
    return entitlement < 64 && entitlementMask & (1 << UInt64(entitlement)) != 0
  }
}
