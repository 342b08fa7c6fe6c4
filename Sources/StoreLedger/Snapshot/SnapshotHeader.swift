import StoreLedgerCore

/// Where a snapshot stands in its log, and what it was folded with.
package struct SnapshotHeader: Sendable, Equatable {
  /// The format tag written in every snapshot.
  package static let format = "storeledger-snapshot/4"
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

  static func pack(_ e: Event, hasPrice: Bool) -> Int64 {
    var flags = Int64(e.kind.rawValue)
    flags |= Int64(e.ownership.rawValue) << ownershipShift
    flags |= Int64(e.offer.rawValue) << offerShift
    flags |= Int64(e.reasonRaw == 255 ? 0 : Int64(e.reasonRaw) + 1) << reasonShift
    if e.autoRenew { flags |= 1 << flagsShift }
    if e.hasExpires { flags |= 1 << (flagsShift + 1) }
    if hasPrice { flags |= 1 << (flagsShift + 2) }
    if e.hasRecorded { flags |= 1 << (flagsShift + 3) }
    if e.hasOwnership { flags |= 1 << (flagsShift + 4) }
    if e.hasOffer { flags |= 1 << (flagsShift + 5) }
    return flags
  }

  static func unpack(_ flags: Int64, into e: inout Event, hasPrice: inout Bool) -> Bool {
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
    hasPrice = flags & (1 << (flagsShift + 2)) != 0
    e.hasRecorded = flags & (1 << (flagsShift + 3)) != 0
    e.hasOwnership = flags & (1 << (flagsShift + 4)) != 0
    e.hasOffer = flags & (1 << (flagsShift + 5)) != 0
    return flags >> (flagsShift + 6) == 0
  }
}

/// The snapshot's digest of everything restoring reads, so a damaged or edited snapshot is refused
/// before anything it says is trusted.
///
/// The digest is the SHA-256 of the readable header (the file's first `headerBytes` bytes: catalog,
/// format, log), then the binary restore section, then the trailer up to its own 64 hex digits
/// (`SnapshotTrailer`). The readable timeline between header and section is not covered:
/// restoring never reads it (Docs/snapshots.md).
enum SnapshotSeal {
  /// Hex digits of the digest.
  static let hexDigits = 64

  /// The digest of `file` as laid out by `trailer`; `release` is told of section ranges hashed.
  /// - Complexity: O(header + section bytes).
  static func digest(
    _ file: UnsafeRawBufferPointer, trailer: SnapshotTrailer, release: ((Range<Int>) -> Void)? = nil
  ) -> SHA256Digest {
    precondition(trailer.isInside(fileBytes: file.count), "snapshot trailer outside the file")
    var hasher = SHA256()
    hasher.update(UnsafeRawBufferPointer(rebasing: file[0..<trailer.headerBytes]))
    var from = trailer.sectionAt
    let end = trailer.sectionAt + trailer.sectionBytes
    while from < end {
      let to = min(end, from + SnapshotTrailer.digestStepBytes)
      hasher.update(UnsafeRawBufferPointer(rebasing: file[from..<to]))
      release?(from..<to)
      from = to
    }
    hasher.update(UnsafeRawBufferPointer(rebasing: file[end..<(end + SnapshotTrailer.digestOffset)]))
    return hasher.finalize()
  }

  /// Writes the digest of the whole snapshot `bytes` into its trailer (the writer's last step, and
  /// tests that damage a snapshot on purpose and seal it again).
  static func seal(_ bytes: inout [UInt8]) {
    guard let trailer = bytes.withUnsafeBytes({ SnapshotTrailer.parse($0) }) else {
      preconditionFailure("sealing bytes without a snapshot trailer")
    }
    let hex = bytes.withUnsafeBytes { digest($0, trailer: trailer).hex }
    let at = trailer.sectionAt + trailer.sectionBytes + SnapshotTrailer.digestOffset
    for (k, byte) in hex.utf8.enumerated() { bytes[at + k] = byte }
  }
}
