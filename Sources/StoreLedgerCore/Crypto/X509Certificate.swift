/// The fields of an X.509 v3 certificate (RFC 5280) that a chain check needs, read strictly
/// from DER. Only ECDSA certificates with P-256 or P-384 keys are supported: every certificate
/// of App Store signed data is one.
package struct X509Certificate: Sendable {
  /// A signature algorithm of a certificate.
  package enum SignatureAlgorithm: Sendable, Equatable {
    /// ecdsa-with-SHA256 (1.2.840.10045.4.3.2).
    case ecdsaWithSHA256
    /// ecdsa-with-SHA384 (1.2.840.10045.4.3.3).
    case ecdsaWithSHA384
  }

  /// One extension: its identifier, whether it is critical, and its value's DER bytes.
  package struct Extension: Sendable {
    /// The extension's OBJECT IDENTIFIER.
    package let id: DERObjectID
    /// Whether a verifier that does not understand it must refuse the certificate.
    package let isCritical: Bool
    /// The content of the extnValue OCTET STRING.
    package let value: ArraySlice<UInt8>
  }

  /// The whole certificate as encoded.
  package let encoded: [UInt8]
  /// The exact DER bytes of tbsCertificate, which the issuer's signature covers.
  package let signedBytes: ArraySlice<UInt8>
  /// The algorithm of the issuer's signature (the outer and the signed copy agree).
  package let signatureAlgorithm: SignatureAlgorithm
  /// The issuer's signature, a DER `SEQUENCE { r, s }`.
  package let signature: [UInt8]
  /// The serial number's DER content bytes.
  package let serialNumber: ArraySlice<UInt8>
  /// The issuer Name, as encoded (checked by `X509Name`; chaining compares these bytes).
  package let issuer: ArraySlice<UInt8>
  /// The subject Name, as encoded (checked by `X509Name`; chaining compares these bytes).
  package let subject: ArraySlice<UInt8>
  /// The first instant of validity, Unix milliseconds (inclusive).
  package let notBeforeMs: Int64
  /// The last instant of validity, Unix milliseconds (inclusive, RFC 5280 §4.1.2.5).
  package let notAfterMs: Int64
  /// The subject's public key.
  package let publicKey: ECDSAPublicKey
  /// The extensions, in order; no identifier appears twice.
  package let extensions: [Extension]

  /// Well-known identifiers.
  package enum OID {
    static let ecPublicKey = DERObjectID("1.2.840.10045.2.1")
    static let prime256v1 = DERObjectID("1.2.840.10045.3.1.7")
    static let secp384r1 = DERObjectID("1.3.132.0.34")
    static let ecdsaWithSHA256 = DERObjectID("1.2.840.10045.4.3.2")
    static let ecdsaWithSHA384 = DERObjectID("1.2.840.10045.4.3.3")
    /// basicConstraints (RFC 5280 §4.2.1.9).
    package static let basicConstraints = DERObjectID("2.5.29.19")
    /// keyUsage (RFC 5280 §4.2.1.3).
    package static let keyUsage = DERObjectID("2.5.29.15")
    /// subjectAltName (RFC 5280 §4.2.1.6).
    package static let subjectAltName = DERObjectID("2.5.29.17")
  }

  /// Reads a DER certificate.
  /// - Throws: `DERError` for anything but a strict DER X.509 v3 ECDSA certificate.
  /// - Complexity: O(n) in the certificate's size.
  package init(der: [UInt8]) throws(DERError) {
    encoded = der
    var outer = DERReader(der)
    var certificate = try outer.readConstructed(DERTag.sequence)
    try outer.expectEnd()
    let tbsElement = try certificate.read(DERTag.sequence)
    signedBytes = tbsElement.encoded
    let outerAlgorithm = try X509Certificate.readSignatureAlgorithm(&certificate)
    signature = try certificate.readByteAlignedBitString()
    try certificate.expectEnd()

    var tbs = DERReader(contentOf: tbsElement)
    var version = try tbs.readConstructed(DERTag.contextConstructed(0))
    guard try version.readSmallInteger() == 2 else { throw .unsupported("a certificate that is not X.509 v3") }
    try version.expectEnd()
    serialNumber = try tbs.readInteger()
    signatureAlgorithm = try X509Certificate.readSignatureAlgorithm(&tbs)
    guard signatureAlgorithm == outerAlgorithm else {
      throw .unsupported("two different signature algorithms in one certificate")
    }
    let issuerName = try X509Certificate.readName(&tbs, field: "issuer")
    // RFC 5280 §4.1.2.4: the issuer is never empty.
    guard !issuerName.isEmpty else { throw .badName(field: "issuer", problem: .emptyName) }
    issuer = issuerName.encoded
    var validity = try tbs.readConstructed(DERTag.sequence)
    notBeforeMs = try validity.readTime()
    notAfterMs = try validity.readTime()
    try validity.expectEnd()
    let subjectName = try X509Certificate.readName(&tbs, field: "subject")
    subject = subjectName.encoded
    publicKey = try X509Certificate.readPublicKey(&tbs)
    // issuerUniqueID [1] and subjectUniqueID [2] are allowed and ignored.
    for number: UInt8 in [1, 2] where tbs.nextTag == DERTag.contextPrimitive(number) {
      _ = try tbs.readAny()
    }
    extensions = tbs.isAtEnd ? [] : try X509Certificate.readExtensions(&tbs)
    try tbs.expectEnd()
    // RFC 5280 §4.1.2.6: an empty subject only beside a critical subjectAltName naming it.
    if subjectName.isEmpty, self.extension(OID.subjectAltName)?.isCritical != true {
      throw .badName(field: "subject", problem: .emptyName)
    }
  }

  /// The next element as a Name read to the DER rules; any error is `badName(field:…)`.
  private static func readName(_ reader: inout DERReader, field: String) throws(DERError)
    -> X509Name
  {
    do throws(DERError) {
      return try X509Name(try reader.readAny())
    } catch {
      throw .badName(field: field, problem: error)
    }
  }

  private static func readSignatureAlgorithm(_ reader: inout DERReader) throws(DERError) -> SignatureAlgorithm {
    var sequence = try reader.readConstructed(DERTag.sequence)
    let id = try sequence.readObjectIdentifier()
    // RFC 5758 §3.2: the parameters of ecdsa-with-SHA* are absent.
    try sequence.expectEnd()
    switch id {
    case OID.ecdsaWithSHA256: return .ecdsaWithSHA256
    case OID.ecdsaWithSHA384: return .ecdsaWithSHA384
    default: throw .unsupported("signature algorithm \(id) (only ecdsa-with-SHA256 and -SHA384 are)")
    }
  }

  private static func readPublicKey(_ reader: inout DERReader) throws(DERError) -> ECDSAPublicKey {
    var info = try reader.readConstructed(DERTag.sequence)
    var algorithm = try info.readConstructed(DERTag.sequence)
    let kind = try algorithm.readObjectIdentifier()
    guard kind == OID.ecPublicKey else { throw .unsupported("public key algorithm \(kind) (only EC keys are)") }
    let curveID = try algorithm.readObjectIdentifier()
    try algorithm.expectEnd()
    let point = try info.readByteAlignedBitString()
    try info.expectEnd()
    let curve: EllipticCurve
    switch curveID {
    case OID.prime256v1: curve = .p256
    case OID.secp384r1: curve = .p384
    default: throw .unsupported("curve \(curveID) (only P-256 and P-384 are)")
    }
    guard let key = ECDSAPublicKey(curve: curve, uncompressedPoint: point) else {
      throw .unsupported("a public key that is not an uncompressed point on \(curve.name)")
    }
    return key
  }

  private static func readExtensions(_ reader: inout DERReader) throws(DERError) -> [Extension] {
    var wrapper = try reader.readConstructed(DERTag.contextConstructed(3))
    var list = try wrapper.readConstructed(DERTag.sequence)
    try wrapper.expectEnd()
    var extensions: [Extension] = []
    var seen: Set<DERObjectID> = []
    while !list.isAtEnd {
      var item = try list.readConstructed(DERTag.sequence)
      let id = try item.readObjectIdentifier()
      var isCritical = false
      if item.nextTag == DERTag.boolean {
        isCritical = try item.readBoolean()
        // DER leaves out a DEFAULT value: an explicit FALSE is not DER.
        guard isCritical else { throw .badBoolean }
      }
      let value = try item.read(DERTag.octetString).content
      try item.expectEnd()
      guard seen.insert(id).inserted else { throw .unsupported("extension \(id) twice") }
      extensions.append(Extension(id: id, isCritical: isCritical, value: value))
    }
    guard !extensions.isEmpty else { throw .unsupported("an empty extensions list") }
    return extensions
  }

  /// The extension with identifier `id`, if present.
  package func `extension`(_ id: DERObjectID) -> Extension? { extensions.first { $0.id == id } }

  /// basicConstraints: whether the subject is a CA and its path length limit; nil when absent.
  /// - Throws: `DERError` when the extension's value is malformed.
  package func basicConstraints() throws(DERError) -> (isCA: Bool, pathLength: Int?)? {
    guard let found = self.extension(OID.basicConstraints) else { return nil }
    var outer = DERReader(slice: found.value)
    var sequence = try outer.readConstructed(DERTag.sequence)
    try outer.expectEnd()
    var isCA = false
    if sequence.nextTag == DERTag.boolean {
      isCA = try sequence.readBoolean()
      guard isCA else { throw .badBoolean }
    }
    let pathLength = sequence.isAtEnd ? nil : try sequence.readSmallInteger()
    try sequence.expectEnd()
    return (isCA, pathLength)
  }

  /// keyUsage bits (bit 0, digitalSignature, is the first byte's top bit); nil when absent.
  /// - Throws: `DERError` when the extension's value is malformed.
  package func keyUsage() throws(DERError) -> KeyUsage? {
    guard let found = self.extension(OID.keyUsage) else { return nil }
    var outer = DERReader(slice: found.value)
    let (bits, _) = try outer.readBitString()
    try outer.expectEnd()
    var value: UInt16 = 0
    for (index, byte) in bits.prefix(2).enumerated() { value |= UInt16(byte) << UInt16(8 - 8 * index) }
    return KeyUsage(bits: value)
  }

  /// Key usage bits in the order of RFC 5280 §4.2.1.3, bit 0 at the top of a 16-bit word.
  package struct KeyUsage: Sendable, Equatable {
    /// The bits, digitalSignature as 0x8000.
    package let bits: UInt16
    /// digitalSignature (bit 0).
    package var digitalSignature: Bool { bits & 0x8000 != 0 }
    /// keyCertSign (bit 5).
    package var keyCertSign: Bool { bits & 0x0400 != 0 }
  }

  /// Whether the issuer key `key` made this certificate's signature.
  /// - Complexity: one hash of the signed bytes and one ECDSA verification.
  package func isSigned(by key: ECDSAPublicKey) -> Bool {
    let digest: [UInt8]
    switch signatureAlgorithm {
    case .ecdsaWithSHA256: digest = SHA256.hash(signedBytes).bytes
    case .ecdsaWithSHA384: digest = SHA384.hash(signedBytes)
    }
    return key.isValidDERSignature(signature, digest: digest)
  }
}
