/// Packs an event's small fields into one integer for the snapshot's event records.
///
/// The layout, low bits first: kind (`kindBits`), ownership, offer, reason + 1 (0: none), then
/// six flags. Each enum must fit its bits; `Tests/StoreLedgerUnitTests/Snapshot` asserts that for
/// every case of `EventKind`, `Ownership`, `Offer` and both reasons, so a new case that does not
/// fit fails loudly instead of being packed as another.
package enum EventFlags {
  /// Bits of the kind: kinds 0–14 as themselves; `extendedKind` (15) for every later kind, whose
  /// raw value the record then carries as an extra (`RecordCoding`), so records of the first 15
  /// kinds keep their bytes.
  package static let kindBits = 4
  /// The kind field of a kind whose raw value does not fit `kindBits` below this value.
  package static let extendedKind: UInt8 = 15
  /// Bits of the ownership.
  package static let ownershipBits = 2
  /// Bits of the offer.
  package static let offerBits = 3
  /// Bits of the reason's raw value plus one (0 means none).
  package static let reasonBits = 3
  private static let ownershipShift = kindBits
  private static let offerShift = ownershipShift + ownershipBits
  private static let reasonShift = offerShift + offerBits
  private static let flagsShift = reasonShift + reasonBits

  /// The flags word of `e` (with whether it has a price).
  package static func pack(_ e: Event, hasPrice: Bool) -> Int64 {
    var flags = Int64(min(e.kind.storageCode, extendedKind))
    flags |= Int64(e.ownership.storageCode) << ownershipShift
    flags |= Int64(e.offer.storageCode) << offerShift
    flags |= Int64(e.reasonRaw == 255 ? 0 : Int64(e.reasonRaw) + 1) << reasonShift
    if e.autoRenew { flags |= 1 << flagsShift }
    if e.hasExpires { flags |= 1 << (flagsShift + 1) }
    if hasPrice { flags |= 1 << (flagsShift + 2) }
    if e.hasRecorded { flags |= 1 << (flagsShift + 3) }
    if e.hasOwnership { flags |= 1 << (flagsShift + 4) }
    if e.hasOffer { flags |= 1 << (flagsShift + 5) }
    return flags
  }

  /// Sets `e`'s small fields (and `hasPrice`) from `flags`; false when a field is not a valid value.
  package static func unpack(_ flags: Int64, into e: inout Event, hasPrice: inout Bool) -> Bool {
    // An extended kind (15) reads as the first such kind; the record's extra says which.
    guard let kind = EventKind(storageCode: UInt8(flags & (1 << kindBits - 1))),
      let ownership = Ownership(storageCode: UInt8(flags >> ownershipShift & (1 << ownershipBits - 1))),
      let offer = Offer(storageCode: UInt8(flags >> offerShift & (1 << offerBits - 1)))
    else { return false }
    e.kind = kind
    e.ownership = ownership
    e.offer = offer
    let reason = flags >> reasonShift & (1 << reasonBits - 1)
    e.reasonRaw = reason == 0 ? 255 : UInt8(reason - 1)
    e.autoRenew = flags & (1 << flagsShift) != 0
    e.hasExpires = flags & (1 << (flagsShift + 1)) != 0
    hasPrice = flags & (1 << (flagsShift + 2)) != 0
    e.hasRecorded = flags & (1 << (flagsShift + 3)) != 0
    e.hasOwnership = flags & (1 << (flagsShift + 4)) != 0
    e.hasOffer = flags & (1 << (flagsShift + 5)) != 0
    return flags >> (flagsShift + 6) == 0
  }
}
