import StoreLedgerCore

/// The 64-bit hash the index stores: fingerprints of subjects, event ids and transactions, and
/// the checksum of every page of a segment.
///
/// Part of the on-disk format (Docs/index.md), so it is defined here once and never shared with
/// in-memory tables whose hash may change. Not cryptographic: a fingerprint only narrows a search
/// (every match is confirmed against the log), and a checksum catches damage, not an attacker
/// (whoever can write the index can write the log).
enum IndexHash {
  /// The hash of `bytes`, seeded (a page's checksum is seeded with its number).
  /// Changing one 8-byte word of the input always changes the result: each step is a bijection.
  /// - Complexity: O(bytes.count).
  static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    var h: UInt64 = 0x6a09_e667_f3bc_c908 ^ seed ^ (UInt64(bytes.count) &* 0x9e37_79b9_7f4a_7c15)
    guard let raw = bytes.baseAddress else { return finish(h) }
    let n = bytes.count
    var i = 0
    while i + 8 <= n {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      h = (h ^ word) &* 0x0000_0100_0000_01b3
      h ^= h >> 29
      i += 8
    }
    if i < n {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while i < n {
        tail |= UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) << shift
        shift += 8
        i += 1
      }
      h = (h ^ tail) &* 0x0000_0100_0000_01b3
    }
    return finish(h)
  }

  /// The key under which the charges table files the subjects joined to a subject by a
  /// `transfer` (contract v1.3, section 9): a bijection of the subject's fingerprint, so a
  /// reader closes a group over fingerprints alone (Docs/index.md, "Transfers").
  static func groupKey(ofSubject fingerprint: UInt64) -> UInt64 {
    (fingerprint ^ 0x7472_616e_7366_6572) &* 0x9e37_79b9_7f4a_7c15
  }

  /// The fingerprint of a string's bytes (subject, event id, transaction id).
  static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    of(UnsafeRawBufferPointer(bytes))
  }

  /// The fingerprint of a string.
  static func fingerprint(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { fingerprint($0) }
  }

  /// Spreads every bit over the result (splitmix64's finaliser).
  private static func finish(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
