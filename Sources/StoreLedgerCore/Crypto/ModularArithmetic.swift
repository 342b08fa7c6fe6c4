/// A non-negative number below 2^384 as six little-endian 64-bit limbs (lanes 6 and 7 stay
/// zero): wide enough for the P-256 and P-384 fields and group orders, and kept inline.
package struct U384: Sendable, Equatable {
  /// The limbs, least significant first.
  var limbs = SIMD8<UInt64>()

  /// Zero.
  init() {}

  /// The number a big-endian byte string denotes; nil when it has more than 48 significant bytes.
  /// - Complexity: O(n) in the number of bytes.
  package init?(bigEndian bytes: some Collection<UInt8>) {
    let significant = bytes.drop(while: { $0 == 0 })
    guard significant.count <= 48 else { return nil }
    var limb = 0
    var shift: UInt64 = 0
    for byte in significant.reversed() {
      limbs[limb] |= UInt64(byte) << shift
      shift += 8
      if shift == 64 {
        shift = 0
        limb += 1
      }
    }
  }

  /// A constant written in hexadecimal (curve parameters).
  init(hex: String) {
    var bytes: [UInt8] = []
    let digits = Array(hex.utf8)
    precondition(digits.count % 2 == 0 && digits.count <= 96, "bad constant")
    for index in stride(from: 0, to: digits.count, by: 2) {
      bytes.append(U384.nibble(digits[index]) << 4 | U384.nibble(digits[index + 1]))
    }
    self.init(bigEndian: bytes)!
  }

  private static func nibble(_ digit: UInt8) -> UInt8 {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
    default: preconditionFailure("bad hex digit in a constant")
    }
  }

  /// The number as exactly `count` big-endian bytes.
  /// - Precondition: the number fits in `count` bytes.
  package func bigEndianBytes(count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    for index in 0..<min(count, 48) {
      out[count - 1 - index] = UInt8(truncatingIfNeeded: limbs[index / 8] >> UInt64(index % 8 * 8))
    }
    precondition(count >= 48 || (U384(bigEndian: out) ?? U384()) == self, "number wider than \(count) bytes")
    return out
  }

  /// Whether the number is zero.
  var isZero: Bool { self == U384() }

  /// Bit `index` (0 is the least significant).
  func bit(_ index: Int) -> Bool { limbs[index / 64] >> UInt64(index % 64) & 1 == 1 }

  /// The number of significant bits.
  var bitWidth: Int {
    for limb in (0..<6).reversed() where limbs[limb] != 0 {
      return limb * 64 + 64 - limbs[limb].leadingZeroBitCount
    }
    return 0
  }

  /// -1, 0 or 1 as `self` is below, equal to or above `other`.
  func compare(_ other: U384) -> Int {
    withUnsafeBytes(of: limbs) { aBytes in
      withUnsafeBytes(of: other.limbs) { bBytes in
        let a = aBytes.assumingMemoryBound(to: UInt64.self)
        let b = bBytes.assumingMemoryBound(to: UInt64.self)
        for limb in (0..<6).reversed() where a[limb] != b[limb] {
          return a[limb] < b[limb] ? -1 : 1
        }
        return 0
      }
    }
  }

  /// `self - other` modulo 2^384, and whether it borrowed (`other` was larger).
  func subtracting(_ other: U384) -> (U384, borrowed: Bool) {
    var result = U384()
    var borrow: UInt64 = 0
    withUnsafeBytes(of: limbs) { aBytes in
      withUnsafeBytes(of: other.limbs) { bBytes in
        withUnsafeMutableBytes(of: &result.limbs) { rBytes in
          let a = aBytes.assumingMemoryBound(to: UInt64.self)
          let b = bBytes.assumingMemoryBound(to: UInt64.self)
          let r = rBytes.assumingMemoryBound(to: UInt64.self)
          for limb in 0..<6 {
            let (d1, b1) = a[limb].subtractingReportingOverflow(b[limb])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            r[limb] = d2
            borrow = carryBit(b1) &+ carryBit(b2)
          }
        }
      }
    }
    return (result, borrow != 0)
  }

  /// `self + other` modulo 2^384, and whether it carried out of 384 bits.
  func adding(_ other: U384) -> (U384, carried: Bool) {
    var result = U384()
    var carry: UInt64 = 0
    withUnsafeBytes(of: limbs) { aBytes in
      withUnsafeBytes(of: other.limbs) { bBytes in
        withUnsafeMutableBytes(of: &result.limbs) { rBytes in
          let a = aBytes.assumingMemoryBound(to: UInt64.self)
          let b = bBytes.assumingMemoryBound(to: UInt64.self)
          let r = rBytes.assumingMemoryBound(to: UInt64.self)
          for limb in 0..<6 {
            let (s1, c1) = a[limb].addingReportingOverflow(b[limb])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            r[limb] = s2
            carry = carryBit(c1) &+ carryBit(c2)
          }
        }
      }
    }
    return (result, carry != 0)
  }
}

/// Arithmetic modulo an odd number below 2^384, in Montgomery form with R = 2^(64·limbs), the
/// fewest 64-bit limbs that hold the modulus (4 for P-256, 6 for P-384).
///
/// Values passed to and returned by `multiply`, `add`, `subtract` are reduced (below the
/// modulus); `toMontgomery` and `fromMontgomery` convert. Not constant time: verification
/// handles public data only.
package struct MontgomeryModulus: Sendable {
  /// The modulus.
  package let modulus: U384
  /// How many 64-bit limbs the modulus needs; R = 2^(64·limbCount).
  let limbCount: Int
  /// -modulus⁻¹ mod 2^64.
  private let inverseNegated: UInt64
  /// R² mod modulus, to enter Montgomery form.
  private let rSquared: U384
  /// R mod modulus: one in Montgomery form.
  let one: U384

  /// Arithmetic modulo `modulus`.
  /// - Precondition: `modulus` is odd and above 1.
  init(_ modulus: U384) {
    precondition(modulus.limbs[0] & 1 == 1 && modulus.bitWidth > 1, "Montgomery needs an odd modulus")
    self.modulus = modulus
    limbCount = (modulus.bitWidth + 63) / 64
    // Newton's iteration doubles the correct low bits each step: 1 → 64 in six steps.
    var inverse: UInt64 = 1
    for _ in 0..<6 { inverse = inverse &* (2 &- modulus.limbs[0] &* inverse) }
    inverseNegated = 0 &- inverse
    // R mod m and R² mod m by doubling 1 modulo m.
    var value = U384()
    value.limbs[0] = 1
    var rModulus = U384()
    for power in 1...(128 * limbCount) {
      value = MontgomeryModulus.addReduced(value, value, modulus)
      if power == 64 * limbCount { rModulus = value }
    }
    one = rModulus
    rSquared = value
  }

  /// `a + b` mod m for reduced `a`, `b`.
  private static func addReduced(_ a: U384, _ b: U384, _ m: U384) -> U384 {
    let (sum, carried) = a.adding(b)
    if carried || sum.compare(m) >= 0 { return sum.subtracting(m).0 }
    return sum
  }

  /// The reduced residue of any number below 2^384 (by repeated subtraction: callers pass
  /// numbers below 2m or so).
  /// - Complexity: O(value / modulus).
  package func reduce(_ value: U384) -> U384 {
    var result = value
    while result.compare(modulus) >= 0 { result = result.subtracting(modulus).0 }
    return result
  }

  /// `a + b` mod m.
  func add(_ a: U384, _ b: U384) -> U384 { MontgomeryModulus.addReduced(a, b, modulus) }

  /// `a - b` mod m.
  func subtract(_ a: U384, _ b: U384) -> U384 {
    let (difference, borrowed) = a.subtracting(b)
    return borrowed ? difference.adding(modulus).0 : difference
  }

  /// `a · b · R⁻¹` mod m (CIOS Montgomery multiplication over `limbCount` limbs).
  func multiply(_ a: U384, _ b: U384) -> U384 {
    let n = limbCount
    let factor = inverseNegated
    var t = SIMD16<UInt64>()  // n + 2 limbs used
    withUnsafeBytes(of: a.limbs) { aBytes in
      withUnsafeBytes(of: b.limbs) { bBytes in
        withUnsafeBytes(of: modulus.limbs) { mBytes in
          withUnsafeMutableBytes(of: &t) { tBytes in
            let a = aBytes.assumingMemoryBound(to: UInt64.self)
            let b = bBytes.assumingMemoryBound(to: UInt64.self)
            let m = mBytes.assumingMemoryBound(to: UInt64.self)
            let t = tBytes.assumingMemoryBound(to: UInt64.self)
            for i in 0..<n {
              let bi = b[i]
              var carry: UInt64 = 0
              for j in 0..<n {
                let (high, low) = a[j].multipliedFullWidth(by: bi)
                let (s1, c1) = low.addingReportingOverflow(t[j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                t[j] = s2
                carry = high &+ carryBit(c1) &+ carryBit(c2)
              }
              let (top, topCarry) = t[n].addingReportingOverflow(carry)
              t[n] = top
              t[n + 1] = carryBit(topCarry)
              let reducer = t[0] &* factor
              let (high0, low0) = reducer.multipliedFullWidth(by: m[0])
              let (_, c0) = low0.addingReportingOverflow(t[0])
              carry = high0 &+ carryBit(c0)
              for j in 1..<n {
                let (high, low) = reducer.multipliedFullWidth(by: m[j])
                let (s1, c1) = low.addingReportingOverflow(t[j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                t[j - 1] = s2
                carry = high &+ carryBit(c1) &+ carryBit(c2)
              }
              let (last, lastCarry) = t[n].addingReportingOverflow(carry)
              t[n - 1] = last
              t[n] = t[n + 1] &+ carryBit(lastCarry)
              t[n + 1] = 0
            }
          }
        }
      }
    }
    // t < 2m: at most one subtraction. Below 6 limbs the carry limb t[n] fits in the result;
    // at 6 it is dropped and the subtraction wraps modulo 2^384 to the right value.
    var result = U384()
    let kept = min(n + 1, 6)
    withUnsafeBytes(of: t) { tBytes in
      withUnsafeMutableBytes(of: &result.limbs) { rBytes in
        rBytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: tBytes[..<(kept * 8)]))
      }
    }
    if t[n] != 0 || result.compare(modulus) >= 0 { result = result.subtracting(modulus).0 }
    return result
  }

  /// `a²` in Montgomery form.
  func square(_ a: U384) -> U384 { multiply(a, a) }

  /// The Montgomery form of a reduced value.
  func toMontgomery(_ a: U384) -> U384 { multiply(a, rSquared) }

  /// The plain value of a Montgomery form.
  func fromMontgomery(_ a: U384) -> U384 {
    var unit = U384()
    unit.limbs[0] = 1
    return multiply(a, unit)
  }

  /// `base^exponent` with both `base` and the result in Montgomery form.
  /// - Complexity: O(bits of `exponent`) multiplications.
  func power(_ base: U384, _ exponent: U384) -> U384 {
    var result = one
    for index in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
      result = square(result)
      if exponent.bit(index) { result = multiply(result, base) }
    }
    return result
  }

  /// The inverse of a nonzero Montgomery-form value, by Fermat (the modulus must be prime).
  /// - Complexity: O(bits of the modulus) multiplications.
  func inverse(_ a: U384) -> U384 {
    var two = U384()
    two.limbs[0] = 2
    return power(a, modulus.subtracting(two).0)
  }
}

/// 1 for true, 0 for false, without a branch (a Bool is stored as the byte 0 or 1): carries
/// of random numbers are unpredictable, and a mispredicted branch per limb costs more than the
/// multiplication.
@inline(__always)
private func carryBit(_ flag: Bool) -> UInt64 { UInt64(unsafeBitCast(flag, to: UInt8.self)) }
