/// SHA-384 (FIPS 180-4), in Swift: the digest of Apple's certificate signatures
/// (ecdsa-with-SHA384). Verification hashes a few kilobytes per payload, so the plain rounds suffice.
package struct SHA384: Sendable {
  /// The eight 64-bit working words (SHA-512's rounds with SHA-384's initial values).
  private var state: [UInt64] = [
    0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
    0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4,
  ]
  /// Bytes not yet compressed (fewer than one 128-byte block).
  private var pending: [UInt8] = []
  /// Bytes hashed so far.
  private var byteCount: UInt64 = 0

  /// A hasher with nothing hashed yet.
  package init() { pending.reserveCapacity(128) }

  /// Hashes `bytes` after what was hashed before.
  /// - Complexity: O(n).
  package mutating func update(_ bytes: some Collection<UInt8>) {
    for byte in bytes {
      pending.append(byte)
      if pending.count == 128 {
        compress(pending)
        pending.removeAll(keepingCapacity: true)
      }
    }
    byteCount &+= UInt64(bytes.count)
  }

  /// The 48-byte digest of everything hashed.
  package consuming func finalize() -> [UInt8] {
    let bitCount = byteCount &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % 128 != 112 { tail.append(0) }
    // The length is a 128-bit big-endian number; its high 64 bits are zero here.
    tail += [UInt8](repeating: 0, count: 8)
    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift))) }
    for start in stride(from: 0, to: tail.count, by: 128) { compress(tail[start..<start + 128]) }
    var digest: [UInt8] = []
    digest.reserveCapacity(48)
    for word in state.prefix(6) {
      for shift in stride(from: 56, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    return digest
  }

  /// The digest of `bytes`.
  /// - Complexity: O(n).
  package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var hasher = SHA384()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Compresses one 128-byte block into `state`.
  private mutating func compress(_ block: some Collection<UInt8>) {
    var w = [UInt64](repeating: 0, count: 80)
    var index = block.startIndex
    for t in 0..<16 {
      var word: UInt64 = 0
      for _ in 0..<8 {
        word = word << 8 | UInt64(block[index])
        index = block.index(after: index)
      }
      w[t] = word
    }
    for t in 16..<80 {
      let s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7)
      let s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6)
      w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
    }
    var (a, b, c, d) = (state[0], state[1], state[2], state[3])
    var (e, f, g, h) = (state[4], state[5], state[6], state[7])
    for t in 0..<80 {
      let s1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)
      let choice = (e & f) ^ (~e & g)
      let t1 = h &+ s1 &+ choice &+ SHA384.roundConstants[t] &+ w[t]
      let s0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let t2 = s0 &+ majority
      (h, g, f, e) = (g, f, e, d &+ t1)
      (d, c, b, a) = (c, b, a, t1 &+ t2)
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }

  /// SHA-512's 80 round constants (FIPS 180-4 §4.2.3).
  private static let roundConstants: [UInt64] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
  ]
}

/// Rotates a 64-bit word right by `count` bits.
@inline(__always)
private func rotr(_ value: UInt64, _ count: UInt64) -> UInt64 { value >> count | value << (64 - count) }
