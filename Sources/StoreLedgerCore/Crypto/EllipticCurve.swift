/// A short-Weierstrass curve y² = x³ − 3x + b over a prime field: NIST P-256 and P-384, the
/// curves of App Store signatures. Points are in Jacobian coordinates (X/Z², Y/Z³) in
/// Montgomery form; Z = 0 is the point at infinity.
package struct EllipticCurve: Sendable {
  /// The curve's name as certificates and errors call it ("P-256").
  package let name: String
  /// Arithmetic modulo the field prime p.
  let field: MontgomeryModulus
  /// Arithmetic modulo the group order n.
  let order: MontgomeryModulus
  /// The size of a field element and of a scalar in bytes (32 or 48).
  package let byteCount: Int
  /// The constant b, in Montgomery form.
  let b: U384
  /// The base point G.
  let generator: JacobianPoint

  /// NIST P-256 (secp256r1, prime256v1).
  package static let p256 = EllipticCurve(
    name: "P-256", byteCount: 32,
    p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
    b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
    gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
    gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")

  /// NIST P-384 (secp384r1).
  package static let p384 = EllipticCurve(
    name: "P-384", byteCount: 48,
    p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
    n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
    b: "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
    gx: "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
    gy: "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f")

  private init(name: String, byteCount: Int, p: String, n: String, b: String, gx: String, gy: String) {
    self.name = name
    self.byteCount = byteCount
    field = MontgomeryModulus(U384(hex: p))
    order = MontgomeryModulus(U384(hex: n))
    self.b = field.toMontgomery(U384(hex: b))
    generator = JacobianPoint(
      x: field.toMontgomery(U384(hex: gx)), y: field.toMontgomery(U384(hex: gy)), z: field.one)
  }

  /// The point with affine coordinates (`x`, `y`), or nil when a coordinate is not below p or
  /// the point is not on the curve.
  func point(x: U384, y: U384) -> JacobianPoint? {
    guard x.compare(field.modulus) < 0, y.compare(field.modulus) < 0 else { return nil }
    let mx = field.toMontgomery(x)
    let my = field.toMontgomery(y)
    // y² = x³ − 3x + b
    let x3 = field.multiply(field.square(mx), mx)
    let threeX = field.add(field.add(mx, mx), mx)
    let right = field.add(field.subtract(x3, threeX), b)
    guard field.square(my) == right else { return nil }
    return JacobianPoint(x: mx, y: my, z: field.one)
  }

  /// 2P ("dbl-2001-b", a = −3); infinity stays infinity and a point with y = 0 doubles to it.
  func double(_ p: JacobianPoint) -> JacobianPoint {
    let f = field
    let delta = f.square(p.z)
    let gamma = f.square(p.y)
    let beta = f.multiply(p.x, gamma)
    let difference = f.subtract(p.x, delta)
    let sum = f.add(p.x, delta)
    let product = f.multiply(difference, sum)
    let alpha = f.add(f.add(product, product), product)
    let fourBeta = f.add(f.add(beta, beta), f.add(beta, beta))
    let eightBeta = f.add(fourBeta, fourBeta)
    let x3 = f.subtract(f.square(alpha), eightBeta)
    let yz = f.add(p.y, p.z)
    let z3 = f.subtract(f.subtract(f.square(yz), gamma), delta)
    let gamma2 = f.square(gamma)
    let fourGamma2 = f.add(f.add(gamma2, gamma2), f.add(gamma2, gamma2))
    let y3 = f.subtract(f.multiply(alpha, f.subtract(fourBeta, x3)), f.add(fourGamma2, fourGamma2))
    return JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// P + Q ("add-2007-bl"), handling infinity, P = Q (doubling) and P = −Q.
  func add(_ p: JacobianPoint, _ q: JacobianPoint) -> JacobianPoint {
    if p.isInfinity { return q }
    if q.isInfinity { return p }
    let f = field
    let z1z1 = f.square(p.z)
    let z2z2 = f.square(q.z)
    let u1 = f.multiply(p.x, z2z2)
    let u2 = f.multiply(q.x, z1z1)
    let s1 = f.multiply(f.multiply(p.y, q.z), z2z2)
    let s2 = f.multiply(f.multiply(q.y, p.z), z1z1)
    let h = f.subtract(u2, u1)
    let sDifference = f.subtract(s2, s1)
    if h.isZero {
      return sDifference.isZero ? double(p) : JacobianPoint.infinity
    }
    let twoH = f.add(h, h)
    let i = f.square(twoH)
    let j = f.multiply(h, i)
    let r = f.add(sDifference, sDifference)
    let v = f.multiply(u1, i)
    let x3 = f.subtract(f.subtract(f.square(r), j), f.add(v, v))
    let s1j = f.multiply(s1, j)
    let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.add(s1j, s1j))
    let zSum = f.add(p.z, q.z)
    let z3 = f.multiply(f.subtract(f.subtract(f.square(zSum), z1z1), z2z2), h)
    return JacobianPoint(x: x3, y: y3, z: z3)
  }

  /// u1·G + u2·Q by Shamir's trick (one pass of doublings over both scalars).
  /// - Complexity: O(bits of n) point operations.
  func linearCombination(_ u1: U384, _ u2: U384, _ q: JacobianPoint) -> JacobianPoint {
    let both = add(generator, q)
    var result = JacobianPoint.infinity
    for index in stride(from: max(u1.bitWidth, u2.bitWidth) - 1, through: 0, by: -1) {
      result = double(result)
      switch (u1.bit(index), u2.bit(index)) {
      case (true, true): result = add(result, both)
      case (true, false): result = add(result, generator)
      case (false, true): result = add(result, q)
      case (false, false): break
      }
    }
    return result
  }

  /// The affine x coordinate (plain, not Montgomery) of a finite point.
  func affineX(_ p: JacobianPoint) -> U384 {
    let zInverse = field.inverse(p.z)
    return field.fromMontgomery(field.multiply(p.x, field.square(zInverse)))
  }
}

/// A point in Jacobian coordinates, in the Montgomery form of its curve's field.
struct JacobianPoint: Sendable {
  var x: U384
  var y: U384
  var z: U384

  /// The point at infinity (Z = 0).
  static let infinity = JacobianPoint(x: U384(), y: U384(), z: U384())

  /// Whether this is the point at infinity.
  var isInfinity: Bool { z.isZero }
}
