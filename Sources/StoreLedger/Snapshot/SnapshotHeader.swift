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
enum EventFlags {
  static func pack(_ e: Event) -> Int64 {
    var flags = Int64(e.kind.rawValue)
    flags |= Int64(e.ownership.rawValue) << 4
    flags |= Int64(e.offer.rawValue) << 6
    flags |= Int64(e.reasonRaw == 255 ? 0 : Int64(e.reasonRaw) + 1) << 9
    if e.autoRenew { flags |= 1 << 12 }
    if e.hasExpires { flags |= 1 << 13 }
    if e.hasPrice { flags |= 1 << 14 }
    if e.hasRecorded { flags |= 1 << 15 }
    if e.hasOwnership { flags |= 1 << 16 }
    if e.hasOffer { flags |= 1 << 17 }
    return flags
  }

  static func unpack(_ flags: Int64, into e: inout Event) -> Bool {
    guard let kind = EventKind(rawValue: UInt8(flags & 15)),
      let ownership = Ownership(rawValue: UInt8(flags >> 4 & 3)),
      let offer = Offer(rawValue: UInt8(flags >> 6 & 7))
    else { return false }
    e.kind = kind
    e.ownership = ownership
    e.offer = offer
    let reason = flags >> 9 & 7
    e.reasonRaw = reason == 0 ? 255 : UInt8(reason - 1)
    e.autoRenew = flags & (1 << 12) != 0
    e.hasExpires = flags & (1 << 13) != 0
    e.hasPrice = flags & (1 << 14) != 0
    e.hasRecorded = flags & (1 << 15) != 0
    e.hasOwnership = flags & (1 << 16) != 0
    e.hasOffer = flags & (1 << 17) != 0
    return flags >> 18 == 0
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
