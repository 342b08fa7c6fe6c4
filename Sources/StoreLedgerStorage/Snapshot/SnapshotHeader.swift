import StoreLedgerCore
import Dispatch

/// Where a snapshot stands in its log, and what it was folded with.
package struct SnapshotHeader: Sendable, Equatable {
  /// The format tag written in every snapshot.
  package static let format = "storeledger-snapshot/7"
  /// Complete lines covered (empty and duplicate lines included).
  package var lines: Int
  /// Bytes of the log covered: the prefix up to and including the last covered `\n`.
  package var bytes: Int64
  /// `PrefixTreeDigest` of those bytes, in blocks of `logBlockBytes`.
  package var logDigest: Checksum64
  /// Block size of `logDigest`'s tree.
  package var logBlockBytes: Int
  /// SHA-256 of the catalog file the state was folded with.
  package var catalogDigest: SHA256Digest
  /// Distinct events.
  package var events: Int
  /// Redeliveries skipped.
  package var duplicatesSkipped: Int

  /// Creates a header.
  package init(
    lines: Int, bytes: Int64, logDigest: Checksum64, logBlockBytes: Int, catalogDigest: SHA256Digest, events: Int,
    duplicatesSkipped: Int
  ) {
    self.logBlockBytes = logBlockBytes
    self.lines = lines
    self.bytes = bytes
    self.logDigest = logDigest
    self.catalogDigest = catalogDigest
    self.events = events
    self.duplicatesSkipped = duplicatesSkipped
  }
}

/// The snapshot's digest of everything restoring reads, so a damaged or edited snapshot is refused
/// before anything it says is trusted.
///
/// The digest is the XXH64 (a checksum: Docs/decisions.md, "Snapshot format 6") of the readable
/// header (the file's first `headerBytes` bytes: catalog, format, log), then the XXH64 of each
/// `blockBytes` block of the binary restore section (the last one shorter) in its canonical 8
/// bytes, then the trailer up to its own 16 hex digits (`SnapshotTrailer`). The
/// section's blocks are hashed on every core. The readable timeline between header and section is
/// not covered: restoring never reads it (Docs/snapshots.md).
enum SnapshotSeal {
  /// Hex digits of the digest.
  static let hexDigits = 16
  /// Bytes of the section hashed as one block.
  static let blockBytes = 8 << 20

  /// The digest of `file` as laid out by `trailer`.
  /// - Complexity: O(header + section bytes) work, the section's divided by the cores.
  static func digest(_ file: UnsafeRawBufferPointer, trailer: SnapshotTrailer) -> Checksum64 {
    Pending(file, trailer: trailer).wait()
  }

  /// A seal being computed: the section's blocks are tasks on the global queue, so the caller can
  /// decode the section meanwhile and `wait` before trusting what it decoded.
  final class Pending: @unchecked Sendable {
    private let group = DispatchGroup()
    private let file: UnsafeRawBufferPointer
    private let trailer: SnapshotTrailer
    /// Per block of the section, its XXH64; written by that block's task only.
    private let leaves: UnsafeMutableBufferPointer<Checksum64>

    /// Starts hashing the section's blocks of `file` (which must outlive `wait`).
    init(_ file: UnsafeRawBufferPointer, trailer: SnapshotTrailer) {
      precondition(trailer.isInside(fileBytes: file.count), "snapshot trailer outside the file")
      self.file = file
      self.trailer = trailer
      let count = (trailer.sectionBytes + SnapshotSeal.blockBytes - 1) / SnapshotSeal.blockBytes
      leaves = .allocate(capacity: count)
      leaves.initialize(repeating: Checksum64(value: 0))
      for block in 0..<count {
        DispatchQueue.global().async(group: group) { [self] in
          let file = self.file
          let from = trailer.sectionAt + block * SnapshotSeal.blockBytes
          let to = min(trailer.sectionAt + trailer.sectionBytes, from + SnapshotSeal.blockBytes)
          leaves[block] = XXH64.hash(UnsafeRawBufferPointer(rebasing: file[from..<to]))
        }
      }
    }

    deinit {
      group.wait()
      leaves.deinitialize()
      leaves.deallocate()
    }

    /// Waits for the section's blocks; the digest.
    func wait() -> Checksum64 {
      group.wait()
      let end = trailer.sectionAt + trailer.sectionBytes
      return combine(
        header: UnsafeRawBufferPointer(rebasing: file[0..<trailer.headerBytes]), leaves: leaves,
        trailerPrefix: UnsafeRawBufferPointer(rebasing: file[end..<(end + SnapshotTrailer.digestOffset)]))
    }
  }

  /// The XXH64s of `section`'s blocks, hashed on every core (the writer's side).
  /// - Complexity: O(section bytes) work, divided by the cores.
  static func leaves(of section: UnsafeRawBufferPointer) -> [Checksum64] {
    let count = (section.count + blockBytes - 1) / blockBytes
    var leaves = [Checksum64](repeating: Checksum64(value: 0), count: count)
    leaves.withUnsafeMutableBufferPointer { out in
      // Each task writes only its own leaf.
      nonisolated(unsafe) let (out, section) = (out, section)
      DispatchQueue.concurrentPerform(iterations: count) { block in
        out[block] = XXH64.hash(UnsafeRawBufferPointer(rebasing: section[(block * blockBytes)..<min(section.count, (block + 1) * blockBytes)]))
      }
    }
    return leaves
  }

  /// The digest of a readable header, the section's block digests and the trailer's first bytes.
  static func combine(
    header: UnsafeRawBufferPointer, leaves: some Sequence<Checksum64>, trailerPrefix: UnsafeRawBufferPointer
  ) -> Checksum64 {
    var hasher = XXH64()
    hasher.update(header)
    for leaf in leaves { leaf.canonicalBytes.withUnsafeBytes { hasher.update($0) } }
    hasher.update(trailerPrefix)
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
