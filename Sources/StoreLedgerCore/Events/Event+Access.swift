/// The values of the v1.3 access kinds (`grant`, `grant_revoked`, `block`, `unblock`; contract
/// section 10), kept in fields those kinds have no other use for, so `Event` stays 64 bytes and
/// snapshots, the index and partition merges carry them as they carry any reference:
/// the grant reference and the service are interned like transactions (in `transaction`), the
/// free-text `reason` too (in `originalTransaction`), and the entitlements as a bit mask over
/// the catalog's entitlement ids (in `quantity`).
extension Event {
  /// Whether the kind is one of the access kinds (its scope in the kind table, not a list here).
  package var isAccess: Bool { kind.scope.contains(.access) }

  /// A `grant`'s own id, or the `grant` a `grant_revoked` names (both interned as references, so
  /// equal symbols mean the same grant); `.none` for other kinds.
  @inlinable
  package var grantReference: Symbol { kind == .grant || kind == .grantRevoked ? transaction : .none }

  /// A `block`'s or `unblock`'s `service`; `.none` for other kinds.
  @inlinable
  package var service: Symbol { kind == .block || kind == .unblock ? transaction : .none }

  /// The free-text `reason` of an access kind, or `.none`.
  @inlinable
  package var accessReason: Symbol { isAccess ? originalTransaction : .none }

  /// The entitlements a `grant` gives or a `block` denies: bit `i` for the catalog's entitlement
  /// id `i` (a block without `entitlements`: every bit); 0 for other kinds.
  @inlinable
  package var entitlementMask: UInt64 {
    get { kind == .grant || kind == .block ? UInt64(bitPattern: quantity) : 0 }
    set {
      precondition(kind == .grant || kind == .block, "entitlements on a \(kind.name)")
      quantity = Int64(bitPattern: newValue)
    }
  }

  /// The most entitlement ids a catalog may have when grants or blocks name them (one bit each).
  package static let maskableEntitlementsMax = 64
}
