import StoreLedgerCore

/// Where a snapshot stands in its log, and what it was folded with.
package struct SnapshotHeader: Sendable, Equatable {
  /// The format tag written in every snapshot.
  package static let format = "storeledger-snapshot/3"
  /// Complete lines covered (empty and duplicate lines included).
  package var lines: Int
  /// Bytes of the log covered: the prefix up to and including the last covered `\n`.
  package var bytes: Int64
  /// SHA-256 of those bytes.
  package var logDigest: SHA256Digest
  /// SHA-256 of the catalog file the state was folded with.
  package var catalogDigest: SHA256Digest
  /// Distinct events.
  package var events: Int
  /// Redeliveries skipped.
  package var duplicatesSkipped: Int

  /// Creates a header.
  package init(
    lines: Int, bytes: Int64, logDigest: SHA256Digest, catalogDigest: SHA256Digest, events: Int,
    duplicatesSkipped: Int
  ) {
    self.lines = lines
    self.bytes = bytes
    self.logDigest = logDigest
    self.catalogDigest = catalogDigest
    self.events = events
    self.duplicatesSkipped = duplicatesSkipped
  }
}

/// Packs an event's small fields into one integer for the snapshot's event records.
///
/// The layout, low bits first: kind (`kindBits`), ownership, offer, reason + 1 (0: none), then
/// six flags. Each enum must fit its bits; `Tests/StoreLedgerTests/Snapshot` asserts that for
/// every case of `EventKind`, `Ownership`, `Offer` and both reasons, so a new case that does not
/// fit fails loudly instead of being packed as another.
enum EventFlags {
  /// Bits of the kind: at most 16 kinds.
  static let kindBits = 4
  /// Bits of the ownership.
  static let ownershipBits = 2
  /// Bits of the offer.
  static let offerBits = 3
  /// Bits of the reason's raw value plus one (0 means none).
  static let reasonBits = 3
  private static let ownershipShift = kindBits
  private static let offerShift = ownershipShift + ownershipBits
  private static let reasonShift = offerShift + offerBits
  private static let flagsShift = reasonShift + reasonBits

  static func pack(_ e: Event) -> Int64 {
    var flags = Int64(e.kind.rawValue)
    flags |= Int64(e.ownership.rawValue) << ownershipShift
    flags |= Int64(e.offer.rawValue) << offerShift
    flags |= Int64(e.reasonRaw == 255 ? 0 : Int64(e.reasonRaw) + 1) << reasonShift
    if e.autoRenew { flags |= 1 << flagsShift }
    if e.hasExpires { flags |= 1 << (flagsShift + 1) }
    if e.hasPrice { flags |= 1 << (flagsShift + 2) }
    if e.hasRecorded { flags |= 1 << (flagsShift + 3) }
    if e.hasOwnership { flags |= 1 << (flagsShift + 4) }
    if e.hasOffer { flags |= 1 << (flagsShift + 5) }
    return flags
  }

  static func unpack(_ flags: Int64, into e: inout Event) -> Bool {
    guard let kind = EventKind(rawValue: UInt8(flags & (1 << kindBits - 1))),
      let ownership = Ownership(rawValue: UInt8(flags >> ownershipShift & (1 << ownershipBits - 1))),
      let offer = Offer(rawValue: UInt8(flags >> offerShift & (1 << offerBits - 1)))
    else { return false }
    e.kind = kind
    e.ownership = ownership
    e.offer = offer
    let reason = flags >> reasonShift & (1 << reasonBits - 1)
    e.reasonRaw = reason == 0 ? 255 : UInt8(reason - 1)
    e.autoRenew = flags & (1 << flagsShift) != 0
    e.hasExpires = flags & (1 << (flagsShift + 1)) != 0
    e.hasPrice = flags & (1 << (flagsShift + 2)) != 0
    e.hasRecorded = flags & (1 << (flagsShift + 3)) != 0
    e.hasOwnership = flags & (1 << (flagsShift + 4)) != 0
    e.hasOffer = flags & (1 << (flagsShift + 5)) != 0
    return flags >> (flagsShift + 6) == 0
  }
}

/// The snapshot's digest of its own restore prefix, so a damaged or edited snapshot is refused
/// before anything it says is trusted.
///
/// `restore_sha256` is the SHA-256 of the first `restore_bytes` bytes of the file with the 64 hex
/// digits of `restore_sha256` itself left out. The readable timeline after the prefix is not
/// covered: restoring never reads it (Docs/snapshots.md).
enum SnapshotSeal {
  /// Hex digits of the digest.
  static let hexDigits = 64

  /// The digest of `prefix` without the `hexDigits` bytes at `digestAt`.
  /// - Complexity: O(prefix.count).
  static func digest(_ prefix: UnsafeRawBufferPointer, digestAt: Int) -> SHA256Digest {
    precondition(digestAt >= 0 && digestAt + hexDigits <= prefix.count, "digest outside the prefix")
    var hasher = SHA256()
    hasher.update(UnsafeRawBufferPointer(rebasing: prefix[0..<digestAt]))
    hasher.update(UnsafeRawBufferPointer(rebasing: prefix[(digestAt + hexDigits)...]))
    return hasher.finalize()
  }

  /// Fills in the digest of `bytes[0..<restoreBytes]` at `digestAt` (the writer's last step).
  static func seal(_ bytes: inout [UInt8], restoreBytes: Int, digestAt: Int) {
    let hex = bytes.withUnsafeBytes { raw in
      digest(UnsafeRawBufferPointer(rebasing: raw[0..<restoreBytes]), digestAt: digestAt).hex
    }
    for (k, byte) in hex.utf8.enumerated() { bytes[digestAt + k] = byte }
  }
}
