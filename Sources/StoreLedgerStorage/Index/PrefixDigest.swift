import StoreLedgerCore

/// The digests that tie an index to the bytes it covers.
///
/// The chained digest runs over whole blocks: `chain(0) = 32 zero bytes`,
/// `chain(k) = SHA-256(chain(k-1) || block k)`. Extending it past an append reads only from the
/// last whole block on; checking it reads the whole covered prefix (`storeledger check`). The
/// first-block and last-block digests cover the first and the last `blockBytes` covered bytes and
/// are checked on every open.
enum PrefixDigest {
  /// Bytes in a block of the chain and of the last-block digest.
  static let blockBytes: Int64 = 64 * 1024
  /// The chain of an empty prefix.
  static let emptyChain = SHA256Digest(bytes: [UInt8](repeating: 0, count: 32))

  /// SHA-256 of the first `blockBytes` bytes of `[0, covered)` (all of them when fewer).
  static func firstBlock(of log: borrowing PlatformFile, covered: Int64) throws(Diagnostic) -> SHA256Digest? {
    let count = Int(min(covered, blockBytes))
    let bytes = try log.readBytes(count: count, at: 0)
    guard bytes.count == count else { return nil }
    return SHA256.hash(bytes)
  }

  /// SHA-256 of the `blockBytes` bytes before `covered` (all of them when fewer).
  static func lastBlock(of log: borrowing PlatformFile, covered: Int64) throws(Diagnostic) -> SHA256Digest? {
    let start = max(0, covered - blockBytes)
    let bytes = try log.readBytes(count: Int(covered - start), at: start)
    guard bytes.count == Int(covered - start) else { return nil }
    return SHA256.hash(bytes)
  }

  /// The chain extended from `(chainBytes, chain)` over every whole block before `covered`.
  /// Returns nil when the log is shorter.
  /// - Complexity: O(covered - chainBytes) bytes read and hashed, in blocks.
  static func extend(
    _ chain: SHA256Digest, from chainBytes: Int64, to covered: Int64, of log: borrowing PlatformFile,
    progress: ((Int64) -> Void)? = nil
  ) throws(Diagnostic) -> (bytes: Int64, chain: SHA256Digest)? {
    var value = chain
    var at = chainBytes
    let end = covered / blockBytes * blockBytes
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(blockBytes), alignment: 64)
    defer { buffer.deallocate() }
    while at < end {
      let n = try log.read(into: buffer, at: at)
      guard n == Int(blockBytes) else { return nil }
      var hasher = SHA256()
      value.bytes.withUnsafeBytes { hasher.update($0) }
      hasher.update(UnsafeRawBufferPointer(buffer))
      value = hasher.finalize()
      at += blockBytes
      if let progress, at % (64 << 20) == 0 { progress(at) }
    }
    return (at, value)
  }
}
