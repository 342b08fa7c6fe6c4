// XXH64 as specified by its author (github.com/Cyan4973/xxHash, doc/xxhash_spec.md), written
// here because the package takes no dependencies. It is a checksum, not a cryptographic digest:
// snapshots use it to tell that the bytes they cover are still the ones they were made from,
// at several gigabytes a second per core (Docs/decisions.md, "Snapshot format 6"). Nothing
// keyed or adversarial rests on it.

/// A streaming XXH64 hasher with seed 0; feed bytes with `update` and end with `finalize`.
package struct XXH64: Sendable {
  static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The four lanes of the 32-byte stripes.
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
  /// Bytes of an incomplete stripe carried between `update` calls, inline rather than on the heap.
  private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  /// How many leading bytes of `pending` are in use, always below 32.
  private var pendingCount = 0
  /// Total input length in bytes (modulo 2^64, as specified).
  private var length: UInt64 = 0

  /// Creates a hasher for empty input.
  package init() {}

  /// The checksum of `bytes` in one call.
  /// - Complexity: O(n).
  package static func hash(_ bytes: UnsafeRawBufferPointer) -> Checksum64 {
    var hasher = XXH64()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// The checksum of an array slice in one call.
  /// - Complexity: O(n).
  package static func hash(_ bytes: ArraySlice<UInt8>) -> Checksum64 {
    bytes.withUnsafeBytes { hash($0) }
  }

  /// Appends raw bytes to the input.
  /// - Complexity: O(n) in `bytes.count`.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard var source = bytes.baseAddress, bytes.count > 0 else { return }
    var remaining = bytes.count
    length &+= UInt64(truncatingIfNeeded: remaining)
    if pendingCount > 0 {
      let taken = Swift.min(32 - pendingCount, remaining)
      let offset = pendingCount
      withUnsafeMutableBytes(of: &pending) { stripe in
        (stripe.baseAddress! + offset).copyMemory(from: source, byteCount: taken)
      }
      pendingCount += taken
      source += taken
      remaining -= taken
      guard pendingCount == 32 else { return }
      withUnsafeBytes(of: pending) { stripe in consumeStripes(stripe.baseAddress!, count: 1) }
      pendingCount = 0
    }
    let stripes = remaining / 32
    if stripes > 0 { consumeStripes(source, count: stripes) }
    source += stripes * 32
    remaining -= stripes * 32
    if remaining > 0 {
      withUnsafeMutableBytes(of: &pending) { stripe in stripe.baseAddress!.copyMemory(from: source, byteCount: remaining) }
      pendingCount = remaining
    }
  }

  /// Runs `count` 32-byte stripes from `source` through the four lanes, kept in registers.
  @inline(__always)
  private mutating func consumeStripes(_ source: UnsafeRawPointer, count: Int) {
    var (v1, v2, v3, v4) = lanes
    var at = source
    for _ in 0..<count {
      v1 = Self.round(v1, at.loadUnaligned(as: UInt64.self).littleEndian)
      v2 = Self.round(v2, at.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian)
      v3 = Self.round(v3, at.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian)
      v4 = Self.round(v4, at.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian)
      at += 32
    }
    lanes = (v1, v2, v3, v4)
  }

  @inline(__always)
  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    (accumulator &+ input &* prime2).rotatedLeft(31) &* prime1
  }

  @inline(__always)
  private static func merge(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
    (accumulator ^ round(0, lane)) &* prime1 &+ prime4
  }

  /// The checksum of everything fed so far.
  package func finalize() -> Checksum64 {
    var h: UInt64
    if length >= 32 {
      let (v1, v2, v3, v4) = lanes
      h = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
      h = Self.merge(Self.merge(Self.merge(Self.merge(h, v1), v2), v3), v4)
    } else {
      h = Self.prime5
    }
    h &+= length
    withUnsafeBytes(of: pending) { stripe in
      var at = 0
      while at + 8 <= pendingCount {
        h ^= Self.round(0, stripe.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian)
        h = h.rotatedLeft(27) &* Self.prime1 &+ Self.prime4
        at += 8
      }
      if at + 4 <= pendingCount {
        h ^= UInt64(stripe.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) &* Self.prime1
        h = h.rotatedLeft(23) &* Self.prime2 &+ Self.prime3
        at += 4
      }
      while at < pendingCount {
        h ^= UInt64(stripe[at]) &* Self.prime5
        h = h.rotatedLeft(11) &* Self.prime1
        at += 1
      }
    }
    h ^= h >> 33
    h &*= Self.prime2
    h ^= h >> 29
    h &*= Self.prime3
    h ^= h >> 32
    return Checksum64(value: h)
  }
}

/// A 64-bit checksum (`XXH64`), written as 16 lowercase hex digits, most significant first: the
/// form `xxhsum -H64` prints.
package struct Checksum64: Hashable, Sendable, CustomStringConvertible {
  /// The checksum's value.
  package let value: UInt64

  /// Wraps a value produced by the hasher or read back from storage.
  package init(value: UInt64) {
    self.value = value
  }

  /// Parses 16 hexadecimal digits in either case; nil for anything else.
  package init?(hex: String) {
    let digits = Array(hex.utf8)
    guard digits.count == 16 else { return nil }
    var value: UInt64 = 0
    for digit in digits {
      let nibble: UInt8
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit &- UInt8(ascii: "A") &+ 10
      default: return nil
      }
      value = value << 4 | UInt64(nibble)
    }
    self.value = value
  }

  /// The 8 bytes most significant first (xxHash's canonical form), as a tree's leaves are combined.
  package var canonicalBytes: [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
  }

  /// The checksum as 16 lowercase hexadecimal digits.
  package var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Same as `hex`.
  package var description: String { hex }
}

extension UInt64 {
  /// The value rotated left by `count` bits (0 < count < 64).
  @inline(__always)
  fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
    (self << count) | (self >> (64 &- count))
  }
}
