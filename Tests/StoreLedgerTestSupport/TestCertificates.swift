import Foundation

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// DER written by hand (tests): minimal lengths, elements in the order the caller gives, so a
/// test can build exactly the malformed structure it means.
package enum DERBuild {
  /// Tag, minimal length, content.
  package static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    guard content.count >= 0x80 else { return [tag, UInt8(content.count)] + content }
    var length: [UInt8] = []
    var rest = content.count
    while rest > 0 {
      length.insert(UInt8(rest & 0xff), at: 0)
      rest >>= 8
    }
    return [tag, 0x80 | UInt8(length.count)] + length + content
  }

  /// A SEQUENCE of `parts`.
  package static func sequence(_ parts: [UInt8]...) -> [UInt8] { element(DERTag.sequence, parts.flatMap { $0 }) }

  /// A SET of `parts`, in the order given (DER needs ascending order: see `sortedSet`).
  package static func set(_ parts: [UInt8]...) -> [UInt8] { element(DERTag.set, parts.flatMap { $0 }) }

  /// A SET OF `parts` in ascending order of their encodings, as DER writes it.
  package static func sortedSet(_ parts: [UInt8]...) -> [UInt8] {
    element(DERTag.set, parts.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
  }

  /// An OBJECT IDENTIFIER.
  package static func oid(_ dotted: String) -> [UInt8] { element(DERTag.objectIdentifier, DERObjectID(dotted).encoded) }

  /// A character string of `type` holding `text` (UCS-2 for BMPString, UCS-4 for
  /// UniversalString, UTF-8 bytes otherwise).
  package static func string(_ type: DERStringType, _ text: String) -> [UInt8] {
    switch type {
    case .bmpString: return element(type.rawValue, text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })
    case .universalString:
      return element(type.rawValue, text.unicodeScalars.flatMap { scalar in
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: scalar.value >> $0) }
      })
    default: return element(type.rawValue, Array(text.utf8))
    }
  }

  /// An AttributeTypeAndValue.
  package static func attribute(_ type: String, _ value: [UInt8]) -> [UInt8] { sequence(oid(type), value) }

  /// A Name of the relative distinguished names `rdns`.
  package static func name(_ rdns: [UInt8]...) -> [UInt8] { element(DERTag.sequence, rdns.flatMap { $0 }) }
}

/// A private key of the test CA (Tests/TestCA/keys, PKCS #8 PEM) that signs with ECDSA. Tests
/// only: the library verifies and never signs. The nonce derives from the key and the digest,
/// so signatures are reproducible; the verifier, checked by every Wycheproof vector, checks
/// what this makes.
package struct TestSigningKey {
  package let curve: EllipticCurve
  package let scalar: U384

  /// The key in the PEM file at `relative` (to the package root).
  package init(pem relative: String) throws {
    var outer = DERReader(try pemBody(relative))
    var info = try outer.readConstructed(DERTag.sequence)
    _ = try info.readSmallInteger()
    var algorithm = try info.readConstructed(DERTag.sequence)
    _ = try algorithm.readObjectIdentifier()
    curve = try algorithm.readObjectIdentifier() == X509Certificate.OID.secp384r1 ? .p384 : .p256
    var wrapped = DERReader(slice: try info.read(DERTag.octetString).content)
    var privateKey = try wrapped.readConstructed(DERTag.sequence)
    _ = try privateKey.readSmallInteger()
    scalar = U384(bigEndian: try privateKey.read(DERTag.octetString).content)!
  }

  /// (r, s) of `digest` (FIPS 186-5 §6.4.1).
  package func sign(digest: [UInt8]) -> (r: U384, s: U384) {
    let order = curve.order
    let e = order.reduce(U384(bigEndian: digest.prefix(curve.byteCount))!)
    var counter: UInt8 = 0
    while true {
      counter += 1
      let seed = SHA384.hash(scalar.bigEndianBytes(count: 48) + digest + [counter])
      let k = order.reduce(U384(bigEndian: seed.prefix(curve.byteCount))!)
      guard !k.isZero else { continue }
      let r = order.reduce(curve.affineX(curve.linearCombination(k, U384(), curve.generator)))
      // Montgomery products: plain × Montgomery form = plain.
      let kInverse = order.inverse(order.toMontgomery(k))
      let s = order.multiply(order.add(e, order.multiply(r, order.toMontgomery(scalar))), kInverse)
      if !r.isZero && !s.isZero { return (r, s) }
    }
  }

  /// The signature as X.509 carries it: `SEQUENCE { INTEGER r, INTEGER s }`.
  package func derSignature(digest: [UInt8]) -> [UInt8] {
    func integer(_ value: U384) -> [UInt8] {
      var bytes = Array(value.bigEndianBytes(count: 48).drop { $0 == 0 })
      if bytes.first.map({ $0 >= 0x80 }) ?? true { bytes.insert(0, at: 0) }
      return DERBuild.element(DERTag.integer, bytes)
    }
    let (r, s) = sign(digest: digest)
    return DERBuild.sequence(integer(r), integer(s))
  }

  /// The signature as JWS carries it: r ‖ s, each the curve's size.
  package func rawSignature(digest: [UInt8]) -> [UInt8] {
    let (r, s) = sign(digest: digest)
    return r.bigEndianBytes(count: curve.byteCount) + s.bigEndianBytes(count: curve.byteCount)
  }
}

/// The DER in a PEM file of the repository.
package func pemBody(_ relative: String) throws -> [UInt8] {
  let text = try String(contentsOfFile: repoPath(relative), encoding: .utf8)
  let base64 = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
  guard let data = Data(base64Encoded: base64) else { throw DERError.unsupported("\(relative) is not PEM") }
  return Array(data)
}

/// A certificate taken apart into the elements of its tbsCertificate, so a test can replace
/// one (a Name) and sign it again with ecdsa-with-SHA384, as the test CA signs.
package struct TestCertificate {
  /// Where the issuer and the subject are among the elements (after version, serial number
  /// and signature algorithm; validity between them).
  package static let issuerIndex = 3
  package static let subjectIndex = 5

  /// The tbsCertificate's elements, each as encoded.
  package var fields: [[UInt8]]
  /// The outer signatureAlgorithm, as encoded.
  package let algorithm: [UInt8]

  /// The certificate in the PEM file at `relative`.
  package init(pem relative: String) throws {
    var outer = DERReader(try pemBody(relative))
    var certificate = try outer.readConstructed(DERTag.sequence)
    var tbs = try certificate.readConstructed(DERTag.sequence)
    algorithm = Array(try certificate.read(DERTag.sequence).encoded)
    fields = []
    while !tbs.isAtEnd { fields.append(Array(try tbs.readAny().encoded)) }
  }

  /// The certificate with its tbsCertificate signed by `key`.
  package func signed(by key: TestSigningKey) -> [UInt8] {
    let tbs = DERBuild.element(DERTag.sequence, fields.flatMap { $0 })
    let signature = DERBuild.element(DERTag.bitString, [0] + key.derSignature(digest: SHA384.hash(tbs)))
    return DERBuild.sequence(tbs, algorithm, signature)
  }

  /// Adds `extensionDER` (one `Extension`) at the end of the extensions.
  package mutating func appendExtension(_ extensionDER: [UInt8]) throws {
    var wrapper = DERReader(fields[fields.count - 1])
    var extensions = try wrapper.readConstructed(DERTag.contextConstructed(3))
    var list = try extensions.readConstructed(DERTag.sequence)
    var items: [UInt8] = []
    while !list.isAtEnd { items += try list.readAny().encoded }
    fields[fields.count - 1] = DERBuild.element(
      DERTag.contextConstructed(3), DERBuild.element(DERTag.sequence, items + extensionDER))
  }
}

/// The test CA's chain (Tests/TestCA) rebuilt with other Names and signed again with its
/// committed keys, carrying the payload of its valid sample notification: whatever the
/// verifier refuses in such a JWS, it refuses for the Names, not for a signature.
package enum RenamedChain {
  package static let leafKey = try! TestSigningKey(pem: "Tests/TestCA/keys/leaf.key.pem")
  package static let intermediateKey = try! TestSigningKey(pem: "Tests/TestCA/keys/intermediate.key.pem")
  package static let rootKey = try! TestSigningKey(pem: "Tests/TestCA/keys/root.key.pem")
  package static let leaf = try! TestCertificate(pem: "Tests/TestCA/leaf.pem")
  package static let intermediate = try! TestCertificate(pem: "Tests/TestCA/intermediate.pem")
  package static let root = try! pemBody("Tests/TestCA/root.pem")

  /// A JWS whose leaf has `name` as its subject (`field` "subject"), or whose intermediate has
  /// it as its subject and the leaf as its issuer (`field` "issuer"), so the chain still links.
  package static func jws(name: [UInt8], as field: String) -> String {
    var newLeaf = leaf
    var newIntermediate = intermediate
    if field == "subject" {
      newLeaf.fields[TestCertificate.subjectIndex] = name
    } else {
      newLeaf.fields[TestCertificate.issuerIndex] = name
      newIntermediate.fields[TestCertificate.subjectIndex] = name
    }
    return jws(leaf: newLeaf, intermediate: newIntermediate)
  }

  /// A JWS with `leaf` and `intermediate`, each signed by the key above it, and the test root.
  package static func jws(leaf: TestCertificate, intermediate: TestCertificate) -> String {
    let chain = [leaf.signed(by: intermediateKey), intermediate.signed(by: rootKey), root]
    let header = Tamper.encode(["alg": "ES256", "x5c": chain.map { Data($0).base64EncodedString() }])
    let input = header + "." + Tamper.parts(TestCA.cases["valid"]!)[1]
    let signature = leafKey.rawSignature(digest: SHA256.hash(Array(input.utf8)).bytes)
    return input + "." + JWS.base64URLEncode(signature)
  }

  /// A verifier that trusts the test CA's root only.
  package static func verifier() throws -> AppStoreSignatureVerifier {
    AppStoreSignatureVerifier(trust: AppStoreTrust(roots: [try TestCA.rootCertificate()]))
  }
}
