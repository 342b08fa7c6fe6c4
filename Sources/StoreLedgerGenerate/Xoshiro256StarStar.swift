import StoreLedger

/// SplitMix64 (Steele, Lea and Flood): expands one 64-bit seed into well-mixed words.
///
/// Used only to seed `Xoshiro256StarStar`, as its authors recommend, and as a
/// bijective mixer (`SplitMix64.mix`) for identifiers that must never collide.
struct SplitMix64 {
  /// The Weyl sequence position; advances by the golden-ratio increment.
  var state: UInt64

  /// The next word of the sequence.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return SplitMix64.mix(state)
  }

  /// The SplitMix64 finalizer: a bijection of `UInt64`, so distinct inputs give distinct outputs.
  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// xoshiro256** (Blackman and Vigna): the generator's only source of randomness.
///
/// Written out here rather than using the standard library's generators because
/// the output must be byte-identical on every platform and toolchain: nothing in
/// it depends on the system, and every draw uses integer arithmetic only (no
/// floating point, no `random(in:)`, whose algorithm is not specified).
struct Xoshiro256StarStar {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Seeds the four words from SplitMix64, which never yields the all-zero state in practice.
  init(seed: UInt64) {
    var seeder = SplitMix64(state: seed)
    s0 = seeder.next()
    s1 = seeder.next()
    s2 = seeder.next()
    s3 = seeder.next()
  }

  /// Starts from an explicit state (for the reference test vector).
  init(state: (UInt64, UInt64, UInt64, UInt64)) {
    (s0, s1, s2, s3) = state
  }

  /// The next 64 random bits.
  @inline(__always)
  mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, 45)
    return result
  }

  /// A value in `0..<bound` (0 when `bound` is 0), by Lemire's multiply-high.
  ///
  /// The bias without rejection is below 2⁻³² for the small bounds used here,
  /// and skipping rejection keeps the number of draws fixed per call.
  @inline(__always)
  mutating func below(_ bound: UInt64) -> UInt64 {
    next().multipliedFullWidth(by: bound).high
  }

  /// A value in `lower..<upper`, or `lower` when the range is empty.
  @inline(__always)
  mutating func between(_ lower: Int64, _ upper: Int64) -> Int64 {
    upper > lower ? lower + Int64(below(UInt64(upper - lower))) : lower
  }

  /// True with probability `partsPerMillion` / 1,000,000.
  @inline(__always)
  mutating func chance(_ partsPerMillion: UInt64) -> Bool {
    below(1_000_000) < partsPerMillion
  }

  @inline(__always)
  private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
  }
}
