// SHA-256 as specified in FIPS 180-4, written here because the toolchain ships no crypto on
// Linux and the package takes no dependencies. Snapshot restore digests a log prefix of
// hundreds of megabytes, so the compression loop works straight from the caller's pointer:
// no allocation per block, no bounds checks, and the eight working variables stay in
// registers by renaming them across unrolled rounds instead of shuffling them.
// Where the CPU has SHA-256 instructions (SHA-NI on x86_64, the ARMv8 SHA2 extension on arm64),
// whole blocks go through them instead, via the small C target CStoreLedgerSHA; the Swift rounds
// remain the fallback, and the tests run every vector through both.

internal import CStoreLedgerSHA

/// A streaming SHA-256 hasher (FIPS 180-4); feed bytes with `update` and end with `finalize`.
package struct SHA256: Sendable {
  private typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

  /// The initial hash value H(0): the first 32 bits of the fractional parts of the square roots
  /// of the first eight primes (FIPS 180-4 section 5.3.3).
  private var state: Words = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  /// Bytes of an incomplete block carried between `update` calls; a tuple so it lives inline
  /// in the struct rather than on the heap.
  private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)
  /// How many leading bytes of `pending` are in use, always below 64.
  private var pendingCount = 0
  /// Total message length in bytes; the padding encodes it in bits modulo 2^64, as specified.
  private var length: UInt64 = 0
  /// The compression function this hasher runs, fixed at creation.
  let engine: Engine

  /// Creates a hasher for an empty message.
  package init() {
    engine = Self.defaultEngine
  }

  /// Creates a hasher that runs the given compression function; tests use it to pin each one.
  /// - Precondition: `engine` is `.software`, or the CPU has the SHA instructions.
  init(engine: Engine) {
    precondition(
      engine == .software || Self.hardwareAvailable,
      "this CPU has no SHA-256 instructions")
    self.engine = engine
  }

  /// Appends raw bytes to the message.
  /// - Complexity: O(n) in `bytes.count`.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard var source = bytes.baseAddress, bytes.count > 0 else { return }
    var remaining = bytes.count
    length &+= UInt64(truncatingIfNeeded: remaining)

    if pendingCount > 0 {
      let taken = Swift.min(64 - pendingCount, remaining)
      let offset = pendingCount
      withUnsafeMutableBytes(of: &pending) { block in
        (block.baseAddress! + offset).copyMemory(from: source, byteCount: taken)
      }
      pendingCount += taken
      source += taken
      remaining -= taken
      guard pendingCount == 64 else { return }
      let block = pending
      withUnsafeBytes(of: block) { compress($0.baseAddress!, blocks: 1) }
      pendingCount = 0
    }

    let blocks = remaining / 64
    if blocks > 0 {
      compress(source, blocks: blocks)
      source += blocks * 64
      remaining -= blocks * 64
    }

    if remaining > 0 {
      withUnsafeMutableBytes(of: &pending) { block in
        block.baseAddress!.copyMemory(from: source, byteCount: remaining)
      }
      pendingCount = remaining
    }
  }

  /// Appends a collection of bytes to the message, without copying when it is contiguous.
  /// - Complexity: O(n) in the number of bytes.
  package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
    let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      update(UnsafeRawBufferPointer(buffer))
    }
    guard handled == nil else { return }
    // Non-contiguous collections (lazy views, ranges of chunks) are staged through a stack
    // block so the fast pointer path still does the hashing.
    var staging: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0)
    var iterator = bytes.makeIterator()
    var exhausted = false
    while !exhausted {
      let filled = withUnsafeMutableBytes(of: &staging) { block -> Int in
        var count = 0
        while count < 64, let byte = iterator.next() {
          block[count] = byte
          count += 1
        }
        return count
      }
      exhausted = filled < 64
      withUnsafeBytes(of: staging) { update(UnsafeRawBufferPointer(rebasing: $0[..<filled])) }
    }
  }

  /// Pads the message and returns its digest; the hasher is consumed and cannot be updated again.
  package consuming func finalize() -> SHA256Digest {
    let bitLength = length &* 8
    // Padding is 0x80, zeros up to 56 mod 64, then the 64-bit big-endian bit length; it spans
    // one block, or two when fewer than nine bytes are left in the current one.
    var tail: (
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let used = pendingCount
    let tailLength = used < 56 ? 64 : 128
    let block = pending
    withUnsafeMutableBytes(of: &tail) { tail in
      withUnsafeBytes(of: block) { pending in
        tail.baseAddress!.copyMemory(from: pending.baseAddress!, byteCount: used)
      }
      tail[used] = 0x80
      tail.storeBytes(of: bitLength.bigEndian, toByteOffset: tailLength - 8, as: UInt64.self)
    }
    withUnsafeBytes(of: tail) { compress($0.baseAddress!, blocks: tailLength / 64) }

    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    var bytes = [UInt8]()
    bytes.reserveCapacity(32)
    for word in words {
      bytes.append(UInt8(truncatingIfNeeded: word &>> 24))
      bytes.append(UInt8(truncatingIfNeeded: word &>> 16))
      bytes.append(UInt8(truncatingIfNeeded: word &>> 8))
      bytes.append(UInt8(truncatingIfNeeded: word))
    }
    return SHA256Digest(bytes: bytes)
  }

  /// Returns the digest of a whole message in one call.
  /// - Complexity: O(n) in the number of bytes.
  package static func hash(_ bytes: some Collection<UInt8>) -> SHA256Digest {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  // MARK: - Compression

  /// The two implementations of the compression function.
  enum Engine: Sendable, CaseIterable, CustomStringConvertible {
    /// The portable Swift rounds below; runs everywhere.
    case software
    /// The CPU's SHA instructions through CStoreLedgerSHA; only where `hardwareAvailable`.
    case hardware

    var description: String {
      switch self {
      case .software: "software"
      case .hardware: "hardware"
      }
    }
  }

  /// Whether this CPU has SHA-256 instructions that CStoreLedgerSHA can use; asked once.
  static let hardwareAvailable = storeledger_sha256_hw_available() != 0

  /// The engine `init()` picks: the instructions when present, the Swift rounds otherwise.
  static let defaultEngine: Engine = hardwareAvailable ? .hardware : .software

  /// The engines this machine can run, for tests that check them against each other.
  static var availableEngines: [Engine] {
    hardwareAvailable ? [.software, .hardware] : [.software]
  }

  /// Runs this hasher's compression function over `blocks` consecutive 64-byte blocks.
  private mutating func compress(_ source: UnsafeRawPointer, blocks: Int) {
    switch engine {
    case .software:
      Self.compress(&state, source, blocks: blocks)
    case .hardware:
      // A tuple of eight UInt32 is laid out as the uint32_t[8] the C side takes.
      withUnsafeMutablePointer(to: &state) { words in
        words.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
          storeledger_sha256_hw_blocks(
            words, source.assumingMemoryBound(to: UInt8.self), blocks)
        }
      }
    }
  }

  /// The round constants K: the first 32 bits of the fractional parts of the cube roots of the
  /// first 64 primes (FIPS 180-4 section 4.2.2).
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// Runs the Swift compression function over `blocks` consecutive 64-byte blocks at `source`.
  private static func compress(_ state: inout Words, _ source: UnsafeRawPointer, blocks: Int) {
    roundConstants.withUnsafeBufferPointer { constants in
      let k = constants.baseAddress!
      // One schedule buffer per call, reused by every block, keeps the loop allocation-free.
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
        let w = schedule.baseAddress!
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        var block = source
        for _ in 0..<blocks {
          for t in 0..<16 {
            w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
          }
          for t in 16..<64 {
            let x = w[t &- 15]
            let y = w[t &- 2]
            let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
            let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
            w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
          }

          var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
          // Eight rounds per iteration with the variable roles rotated in the call arguments,
          // so the "h = g, g = f, ..." shuffle of the specification costs no moves.
          // Each round's a ^ b is the next round's b ^ c; carrying it saves a Maj operation.
          var bc = b ^ c
          var t = 0
          while t < 64 {
            sha256Round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t], &bc)
            sha256Round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1], &bc)
            sha256Round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2], &bc)
            sha256Round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3], &bc)
            sha256Round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4], &bc)
            sha256Round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5], &bc)
            sha256Round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6], &bc)
            sha256Round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7], &bc)
            t &+= 8
          }

          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
          block += 64
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
      }
    }
  }
}

/// Rotates right; the `&>>`/`&<<` pair compiles to a single rotate instruction.
@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
  (x &>> n) | (x &<< (32 &- n))
}

/// One SHA-256 round: `d` takes the new `e`, `h` the new `a`; `kw` is K[t] + W[t] and `bc` is
/// `b ^ c` on entry and this round's `a ^ b` on exit.
@inline(__always)
private func sha256Round(
  _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
  _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
) {
  let sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
  // Ch and Maj in reduced forms (Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c))): fewer operations than
  // the textbook ones, and this loop is bound by instruction count.
  let choose = g ^ (e & (f ^ g))
  let t1 = h &+ sigma1 &+ choose &+ kw
  let sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
  let ab = a ^ b
  let majority = b ^ (ab & bc)
  bc = ab
  d &+= t1
  h = t1 &+ sigma0 &+ majority
}

/// A 32-byte SHA-256 digest, printed and parsed as 64 lowercase hexadecimal digits.
package struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
  /// The 32 digest bytes in the order FIPS 180-4 outputs them.
  package let bytes: [UInt8]

  /// Wraps 32 bytes produced by the hasher or read back from storage.
  package init(bytes: [UInt8]) {
    precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes")
    self.bytes = bytes
  }

  /// Parses 64 hexadecimal digits in either case; returns nil for anything else.
  package init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count == 64 else { return nil }
    var bytes = [UInt8]()
    bytes.reserveCapacity(32)
    var index = 0
    while index < 64 {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    self.bytes = bytes
  }

  /// The digest as 64 lowercase hexadecimal digits.
  package var hex: String {
    let alphabet: StaticString = "0123456789abcdef"
    var digits = [UInt8]()
    digits.reserveCapacity(64)
    alphabet.withUTF8Buffer { alphabet in
      for byte in bytes {
        digits.append(alphabet[Int(byte >> 4)])
        digits.append(alphabet[Int(byte & 0x0f)])
      }
    }
    return String(decoding: digits, as: UTF8.self)
  }

  /// The digest as 64 lowercase hexadecimal digits.
  package var description: String { hex }

  /// The value of one ASCII hexadecimal digit, or nil when the byte is not one.
  private static func nibble(_ ascii: UInt8) -> UInt8? {
    switch ascii {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): ascii &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): ascii &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): ascii &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }
}
