import StoreLedgerCore
import Dispatch

/// The checksum a snapshot keeps of the log prefix it covers: a two-level tree, so restore checks
/// the prefix on every core instead of one stream.
///
/// The prefix is cut into plain byte blocks of `blockBytes` (the last one shorter, or none for an
/// empty prefix); each block's XXH64 is a leaf, and the checksum is the XXH64 of the leaves back
/// to back (8 bytes each, most significant first). The block size is in the snapshot's readable
/// header, so a checksum is reproducible with `split -b` and `xxhsum -H64` alone. A changed,
/// inserted, removed or reordered byte changes its block's leaf and so the checksum (XXH64 is a
/// checksum, not a cryptographic digest: Docs/decisions.md, "Snapshot format 6").
package enum PrefixTreeDigest {
  /// Block size a snapshot is written with: a few blocks per core on a 100 MB log, few enough
  /// leaves (128 per GiB) that combining them costs nothing.
  package static let defaultBlockBytes = 8 << 20
  /// The smallest block size a snapshot may name (tests use small blocks to cut small logs).
  package static let blockBytesMin = 64
  /// The largest block size a snapshot may name.
  package static let blockBytesMax = 1 << 30
  /// The most blocks a prefix may have: bounds the leaves restore keeps.
  package static let blocksMax = 1 << 22

  /// Whether a header's block size and prefix length make a tree restore can check.
  package static func isValid(blockBytes: Int, prefixBytes: Int64) -> Bool {
    blockBytes >= blockBytesMin && blockBytes <= blockBytesMax && prefixBytes >= 0
      && (prefixBytes + Int64(blockBytes) - 1) / Int64(blockBytes) <= Int64(blocksMax)
  }

  /// The digest of the leaves `leaves`, in block order.
  /// - Complexity: O(leaves).
  package static func combine(_ leaves: [Checksum64]) -> Checksum64 {
    var hasher = XXH64()
    for leaf in leaves { leaf.canonicalBytes.withUnsafeBytes { hasher.update($0) } }
    return hasher.finalize()
  }

  /// The tree digest of the first `bytes` bytes of the file at `path`, its blocks hashed on every
  /// core; nil when the file is shorter.
  /// - Complexity: O(bytes) work, O(bytes / cores) wall.
  package static func digest(of path: String, bytes: Int64, blockBytes: Int) throws(Diagnostic) -> Checksum64? {
    let pending = try Pending(path: path, bytes: bytes, blockBytes: blockBytes)
    return try pending.wait()
  }

  /// A tree digest being computed: every block is a task on the global queue, so the caller can
  /// do other work (decode a snapshot) while the cores hash, then `wait`.
  package final class Pending: @unchecked Sendable {
    private let file: PlatformFile
    private let group = DispatchGroup()
    private let blockBytes: Int
    private let bytes: Int64
    /// Per block: its leaf, nil when the file ended early; written by that block's task only.
    private let leaves: UnsafeMutableBufferPointer<Result<Checksum64?, Diagnostic>>

    /// Opens the file and starts hashing the blocks of its first `bytes` bytes.
    package init(path: String, bytes: Int64, blockBytes: Int) throws(Diagnostic) {
      precondition(isValid(blockBytes: blockBytes, prefixBytes: bytes), "prefix tree of \(bytes) bytes in blocks of \(blockBytes)")
      file = try PlatformFile(path: path, mode: .read)
      self.blockBytes = blockBytes
      self.bytes = bytes
      let count = Int((bytes + Int64(blockBytes) - 1) / Int64(blockBytes))
      leaves = .allocate(capacity: count)
      leaves.initialize(repeating: .success(nil))
      for block in 0..<count {
        DispatchQueue.global().async(group: group) { [self] in leaves[block] = Result { () throws(Diagnostic) in try hash(block) } }
      }
    }

    deinit {
      group.wait()
      leaves.deinitialize()
      leaves.deallocate()
    }

    /// Bytes read at a time inside a block: the buffer stays in the core's cache between the
    /// copy from the page cache and the hash, and a small buffer costs few page faults.
    static let readBytes = 256 << 10

    /// The leaf of block `block`; nil when the file ends inside it.
    private func hash(_ block: Int) throws(Diagnostic) -> Checksum64? {
      let start = Int64(block) * Int64(blockBytes)
      let end = min(start + Int64(blockBytes), bytes)
      // Read through a buffer, not mapped: a mapped prefix would count as resident memory.
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(Self.readBytes, Int(end - start)), alignment: 64)
      defer { buffer.deallocate() }
      var hasher = XXH64()
      var at = start
      while at < end {
        let want = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), end - at))])
        guard try file.read(into: want, at: at) == want.count else { return nil }
        hasher.update(UnsafeRawBufferPointer(want))
        at += Int64(want.count)
      }
      return hasher.finalize()
    }

    /// Waits for every block; the digest, or nil when the file is shorter than the prefix.
    /// - Complexity: O(blocks) once the blocks are hashed.
    package func wait() throws(Diagnostic) -> Checksum64? {
      group.wait()
      var all: [Checksum64] = []
      all.reserveCapacity(leaves.count)
      for leaf in leaves {
        guard let digest = try leaf.get() else { return nil }
        all.append(digest)
      }
      return combine(all)
    }
  }
}
