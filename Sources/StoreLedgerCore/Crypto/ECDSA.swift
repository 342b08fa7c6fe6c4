/// An ECDSA public key: a point on P-256 or P-384, checked on the curve when created.
package struct ECDSAPublicKey: Sendable {
  /// The key's curve.
  package let curve: EllipticCurve
  /// The point Q.
  let point: JacobianPoint

  /// The key of an uncompressed SEC 1 point (`04 ‖ X ‖ Y`); nil when the encoding has the
  /// wrong length or form, or the point is not on `curve`.
  package init?(curve: EllipticCurve, uncompressedPoint bytes: [UInt8]) {
    let size = curve.byteCount
    guard bytes.count == 1 + 2 * size, bytes[0] == 0x04,
      let x = U384(bigEndian: bytes[1...size]), let y = U384(bigEndian: bytes[(1 + size)...]),
      let point = curve.point(x: x, y: y)
    else { return nil }
    self.curve = curve
    self.point = point
  }

  /// Whether (`r`, `s`) is a valid signature of `digest` (the message's hash) under this key.
  ///
  /// FIPS 186-5 §6.4.2: r and s in [1, n−1]; e is the leftmost bits of the digest (as many as
  /// n has: a SHA-384 digest under a P-256 key is cut to 256 bits); the check is
  /// x(u1·G + u2·Q) mod n = r. High-S signatures are valid (no normalisation is required).
  /// - Complexity: O(bits of n) point operations.
  package func isValidSignature(r: U384, s: U384, digest: [UInt8]) -> Bool {
    let order = curve.order
    guard !r.isZero, !s.isZero, r.compare(order.modulus) < 0, s.compare(order.modulus) < 0 else {
      return false
    }
    let used = digest.prefix(curve.byteCount)
    guard let rawE = U384(bigEndian: used) else { return false }
    let e = order.reduce(rawE)
    let sInverse = order.inverse(order.toMontgomery(s))
    // Montgomery product of a plain value and a Montgomery value is the plain product.
    let u1 = order.multiply(e, sInverse)
    let u2 = order.multiply(r, sInverse)
    let sum = curve.linearCombination(u1, u2, point)
    guard !sum.isInfinity else { return false }
    return order.reduce(curve.affineX(sum)) == r
  }

  /// Verifies a signature in IEEE P1363 form (`r ‖ s`, each exactly the curve's size), as JWS
  /// ES256 and ES384 carry it.
  package func isValidRawSignature(_ signature: [UInt8], digest: [UInt8]) -> Bool {
    let size = curve.byteCount
    guard signature.count == 2 * size, let r = U384(bigEndian: signature[..<size]),
      let s = U384(bigEndian: signature[size...])
    else { return false }
    return isValidSignature(r: r, s: s, digest: digest)
  }

  /// Verifies a signature in DER form (`SEQUENCE { INTEGER r, INTEGER s }`, strictly
  /// encoded), as X.509 certificates carry it.
  package func isValidDERSignature(_ signature: [UInt8], digest: [UInt8]) -> Bool {
    guard let (r, s) = ECDSAPublicKey.parseDERSignature(signature) else { return false }
    return isValidSignature(r: r, s: s, digest: digest)
  }

  /// r and s of a strict-DER ECDSA signature; nil for any other encoding (BER lengths,
  /// negative or padded integers, trailing bytes, numbers wider than 384 bits).
  static func parseDERSignature(_ bytes: [UInt8]) -> (U384, U384)? {
    do {
      var outer = DERReader(bytes)
      var sequence = try outer.readConstructed(DERTag.sequence)
      try outer.expectEnd()
      let r = try sequence.readUnsignedInteger()
      let s = try sequence.readUnsignedInteger()
      try sequence.expectEnd()
      guard let rValue = U384(bigEndian: r), let sValue = U384(bigEndian: s) else { return nil }
      return (rValue, sValue)
    } catch {
      return nil
    }
  }
}
