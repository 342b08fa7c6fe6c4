/// HMAC-SHA256 (RFC 2104): a keyed digest, so a value can be recognised again by whoever holds
/// the key, and by nobody else.
package enum HMACSHA256 {
  /// The SHA-256 block size in bytes.
  static let blockBytes = 64

  /// The keyed digest of `message` under `key`.
  /// - Complexity: O(n) in the size of the message.
  package static func mac(key: [UInt8], message: some Collection<UInt8>) -> SHA256Digest {
    var block = key.count > blockBytes ? SHA256.hash(key).bytes : key
    block += [UInt8](repeating: 0, count: blockBytes - block.count)
    var inner = SHA256()
    inner.update(block.map { $0 ^ 0x36 })
    inner.update(message)
    var outer = SHA256()
    outer.update(block.map { $0 ^ 0x5c })
    outer.update(inner.finalize().bytes)
    return outer.finalize()
  }
}
