import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// Names for the tables below.
private enum Names {
  static let commonName = "2.5.4.3"
  static let country = "2.5.4.6"
  static let organization = "2.5.4.10"
  static let unit = "2.5.4.11"
  static let email = "1.2.840.113549.1.9.1"
  static let unknown = "1.3.6.1.4.1.99999.7"

  static func utf8(_ type: String, _ text: String) -> [UInt8] { DERBuild.attribute(type, DERBuild.string(.utf8String, text)) }
  static func printable(_ type: String, _ text: String) -> [UInt8] {
    DERBuild.attribute(type, DERBuild.string(.printableString, text))
  }
  static func raw(_ type: String, _ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    DERBuild.attribute(type, DERBuild.element(tag, content))
  }
  static let cn = utf8(commonName, "StoreLedger Test Signing Leaf")
  /// A Name of one RDN holding `attribute`.
  static func one(_ attribute: [UInt8]) -> [UInt8] { DERBuild.name(DERBuild.set(attribute)) }
}

@Suite("X.509 Names are read to the DER rules")
struct X509NameTests {
  private typealias N = Names

  /// Malformed Names, each with the rule its reading breaks.
  static let malformed: [(String, [UInt8], DERError)] = [
    ("a Name that is a SET", DERBuild.element(DERTag.set, DERBuild.set(N.cn)), .unexpectedTag(expected: 0x30, found: 0x31)),
    ("a Name that is an OCTET STRING", DERBuild.element(0x04, DERBuild.set(N.cn)), .unexpectedTag(expected: 0x30, found: 0x04)),
    ("a Name with a long-form length for a short one", [0x30, 0x81] + Array(N.one(N.cn).dropFirst()), .badLength),
    ("an RDN that is a SEQUENCE", DERBuild.name(DERBuild.sequence(N.cn)), .unexpectedTag(expected: 0x31, found: 0x30)),
    ("an empty RDN", DERBuild.name(DERBuild.set(), DERBuild.set(N.cn)), .emptySet),
    ("an RDN out of ascending order", DERBuild.name(DERBuild.set(N.utf8(N.organization, "x"), N.utf8(N.commonName, "x"))), .unsortedSet),
    ("an RDN with one attribute twice", DERBuild.name(DERBuild.set(N.cn, N.cn)), .unsortedSet),
    ("a stray byte after the last RDN", DERBuild.element(DERTag.sequence, DERBuild.set(N.cn) + [0x00]), .unexpectedTag(expected: 0x31, found: 0x00)),
    ("an attribute that is a SET", N.one(DERBuild.element(DERTag.set, Array(N.cn.dropFirst(2)))), .unexpectedTag(expected: 0x30, found: 0x31)),
    ("an attribute type with a 0x80 padding octet", N.one(DERBuild.sequence([0x06, 0x04, 0x55, 0x04, 0x80, 0x03], DERBuild.string(.utf8String, "x"))), .badObjectIdentifier),
    ("an attribute type ending inside a sub-identifier", N.one(DERBuild.sequence([0x06, 0x03, 0x55, 0x04, 0x83], DERBuild.string(.utf8String, "x"))), .badObjectIdentifier),
    ("an empty attribute type", N.one(DERBuild.sequence([0x06, 0x00], DERBuild.string(.utf8String, "x"))), .badObjectIdentifier),
    ("an attribute type that is a string", N.one(DERBuild.sequence(DERBuild.string(.utf8String, "CN"), DERBuild.string(.utf8String, "x"))), .unexpectedTag(expected: 0x06, found: 0x0c)),
    ("an attribute without a value", N.one(DERBuild.sequence(DERBuild.oid(N.commonName))), .truncated),
    ("an attribute with bytes after its value", N.one(DERBuild.sequence(DERBuild.oid(N.commonName), DERBuild.string(.utf8String, "x"), [0x05, 0x00])), .trailingData),
    ("a value with a long-form length for a short one", N.one(DERBuild.sequence(DERBuild.oid(N.commonName), [0x0c, 0x81, 0x01, 0x78])), .badLength),
    ("a PrintableString with '@'", N.one(N.printable(N.commonName, "leaf@example.com")), .badContent(tag: 0x13)),
    ("a PrintableString with '*'", N.one(N.printable(N.organization, "*.example")), .badContent(tag: 0x13)),
    ("a PrintableString with a line feed", N.one(N.printable(N.unit, "a\nb")), .badContent(tag: 0x13)),
    ("a country of 3 characters", N.one(N.printable(N.country, "USA")), .badAttribute(type: DERObjectID(N.country))),
    ("a country of 1 character", N.one(N.printable(N.country, "U")), .badAttribute(type: DERObjectID(N.country))),
    ("a country as UTF8String", N.one(N.utf8(N.country, "US")), .badAttribute(type: DERObjectID(N.country))),
    ("an empty commonName", N.one(N.utf8(N.commonName, "")), .badAttribute(type: DERObjectID(N.commonName))),
    ("a commonName as IA5String", N.one(DERBuild.attribute(N.commonName, DERBuild.string(.ia5String, "x"))), .badAttribute(type: DERObjectID(N.commonName))),
    ("a commonName as OCTET STRING", N.one(N.raw(N.commonName, 0x04, [0x78])), .badAttribute(type: DERObjectID(N.commonName))),
    ("a commonName as a constructed UTF8String", N.one(N.raw(N.commonName, 0x2c, [0x0c, 0x01, 0x78])), .badAttribute(type: DERObjectID(N.commonName))),
    ("an emailAddress as UTF8String", N.one(N.utf8(N.email, "a@example.com")), .badAttribute(type: DERObjectID(N.email))),
    ("an emailAddress with a byte above 7F", N.one(N.raw(N.email, 0x16, [0x61, 0xe9])), .badContent(tag: 0x16)),
    ("a serialNumber with '_'", N.one(N.printable("2.5.4.5", "a_1")), .badContent(tag: 0x13)),
    ("a UTF8String with an overlong encoding", N.one(N.raw(N.commonName, 0x0c, [0xc0, 0xaf])), .badContent(tag: 0x0c)),
    ("a UTF8String with a surrogate", N.one(N.raw(N.commonName, 0x0c, [0xed, 0xa0, 0x80])), .badContent(tag: 0x0c)),
    ("a UTF8String cut inside a character", N.one(N.raw(N.commonName, 0x0c, [0x61, 0xe2, 0x82])), .badContent(tag: 0x0c)),
    ("a BMPString of odd length", N.one(N.raw(N.commonName, 0x1e, [0x00, 0x41, 0x00])), .badContent(tag: 0x1e)),
    ("a BMPString with a surrogate", N.one(N.raw(N.commonName, 0x1e, [0xd8, 0x3d, 0xdc, 0x00])), .badContent(tag: 0x1e)),
    ("a UniversalString above U+10FFFF", N.one(N.raw(N.commonName, 0x1c, [0x00, 0x11, 0x00, 0x00])), .badContent(tag: 0x1c)),
    ("an unknown type's padded INTEGER", N.one(N.raw(N.unknown, 0x02, [0x00, 0x05])), .badInteger),
    ("an unknown type's constructed OCTET STRING", N.one(N.raw(N.unknown, 0x24, [0x04, 0x01, 0x00])), .badForm(tag: 0x24)),
    ("an unknown type's primitive SEQUENCE", N.one(N.raw(N.unknown, 0x10, [])), .badForm(tag: 0x10)),
    ("an unknown type's end-of-contents octets", N.one(N.raw(N.unknown, 0x00, [])), .badForm(tag: 0x00)),
    ("an unknown type's NULL with content", N.one(N.raw(N.unknown, 0x05, [0x00])), .badContent(tag: 0x05)),
    ("an unknown type's PrintableString with '@' inside a SEQUENCE", N.one(DERBuild.attribute(N.unknown, DERBuild.sequence(DERBuild.string(.printableString, "a@b")))), .badContent(tag: 0x13)),
    ("an unknown type's SEQUENCE ending inside an element", N.one(N.raw(N.unknown, 0x30, [0x02, 0x05])), .truncated),
  ]

  /// Well-formed Names of the shapes the reader must keep accepting.
  static let wellFormed: [(String, [UInt8])] = [
    ("the test CA's own leaf subject", RenamedChain.leaf.fields[TestCertificate.subjectIndex]),
    ("Apple's shape: C, O, OU, CN", DERBuild.name(
      DERBuild.set(N.printable(N.country, "US")), DERBuild.set(N.utf8(N.organization, "Apple Inc.")),
      DERBuild.set(N.utf8(N.unit, "Apple Worldwide Developer Relations")), DERBuild.set(N.cn))),
    ("a multi-valued RDN in ascending order", DERBuild.name(DERBuild.sortedSet(N.cn, N.utf8(N.organization, "StoreLedger")))),
    ("one type twice in an RDN, with two values", DERBuild.name(DERBuild.sortedSet(N.utf8(N.unit, "A"), N.utf8(N.unit, "B")))),
    ("each DirectoryString type", DERBuild.name(
      DERBuild.set(DERBuild.attribute(N.commonName, DERBuild.string(.teletexString, "T61"))),
      DERBuild.set(DERBuild.attribute(N.commonName, DERBuild.string(.bmpString, "Büro"))),
      DERBuild.set(DERBuild.attribute(N.commonName, DERBuild.string(.universalString, "Ledger 🧾"))),
      DERBuild.set(N.utf8(N.commonName, "Ledger 🧾")),
      DERBuild.set(N.printable(N.organization, "Aa0 '()+,-./:=?")))),
    ("emailAddress, domainComponent, serialNumber and an empty dnQualifier", DERBuild.name(
      DERBuild.set(DERBuild.attribute(N.email, DERBuild.string(.ia5String, "ledger@example.com"))),
      DERBuild.set(DERBuild.attribute("0.9.2342.19200300.100.1.25", DERBuild.string(.ia5String, "example"))),
      DERBuild.set(N.printable("2.5.4.5", "A-123")), DERBuild.set(N.printable("2.5.4.46", "")))),
    ("an unknown type with a structured value", N.one(DERBuild.attribute(N.unknown, DERBuild.sequence(
      [0x02, 0x01, 0x05], DERBuild.oid("1.2.3"), [0x01, 0x01, 0xff], [0x05, 0x00], [0x04, 0x02, 0xff, 0x00],
      DERBuild.string(.printableString, "ok"), [0xa0, 0x03, 0x02, 0x01, 0x01])))),
  ]

  @Test("a malformed Name is refused by the Name reader, with the rule it breaks", arguments: malformed)
  func nameRefused(title: String, name: [UInt8], problem: DERError) {
    #expect(throws: problem, "\(title)") { try X509Name(der: name) }
  }

  @Test("a chain with a malformed Name as the leaf's subject, or its issuer, signed again by the test CA, is refused as an unreadable leaf",
        arguments: malformed, ["subject", "issuer"])
  func chainRefused(malformedCase: (String, [UInt8], DERError), field: String) throws {
    let (title, name, problem) = malformedCase
    let result = try RenamedChain.verifier().verify(RenamedChain.jws(name: name, as: field))
    let reason = DERError.badName(field: field, problem: problem).reason
    #expect(result.failure == .unreadableCertificate(index: 0, reason: reason), "\(title) as \(field): \(result)")
  }

  @Test("a chain with a well-formed Name as the leaf's subject, or its issuer, signed again by the test CA, verifies",
        arguments: wellFormed, ["subject", "issuer"])
  func chainAccepted(wellFormedCase: (String, [UInt8]), field: String) throws {
    let (title, name) = wellFormedCase
    #expect(throws: Never.self, "\(title)") { try X509Name(der: name) }
    let result = try RenamedChain.verifier().verify(RenamedChain.jws(name: name, as: field))
    #expect(result.failure == nil, "\(title) as \(field): \(result)")
  }
}

@Suite("X.509 Names: empty Names, SET OF order, string types and the command line")
struct X509NameRuleTests {
  @Test("an empty issuer is refused, and an empty subject unless a critical subjectAltName names the subject")
  func emptyNames() throws {
    let empty = DERBuild.name()
    for field in ["subject", "issuer"] {
      let result = try RenamedChain.verifier().verify(RenamedChain.jws(name: empty, as: field))
      let reason = DERError.badName(field: field, problem: .emptyName).reason
      #expect(result.failure == .unreadableCertificate(index: 0, reason: reason), "\(field): \(result)")
    }
    var leaf = RenamedChain.leaf
    leaf.fields[TestCertificate.subjectIndex] = empty
    let dnsName = DERBuild.element(DERTag.contextPrimitive(2), Array("ledger.example".utf8))
    try leaf.appendExtension(DERBuild.sequence(
      DERBuild.oid("2.5.29.17"), [0x01, 0x01, 0xff], DERBuild.element(DERTag.octetString, DERBuild.sequence(dnsName))))
    let certificate = try X509Certificate(der: leaf.signed(by: RenamedChain.intermediateKey))
    #expect(certificate.subject.elementsEqual(empty))
    // The verifier does not take subjectAltName: such a leaf is refused, by that check.
    let result = try RenamedChain.verifier().verify(RenamedChain.jws(leaf: leaf, intermediate: RenamedChain.intermediate))
    #expect(result.failure == .unknownCriticalExtension(certificate: "leaf", oid: "2.5.29.17"), "\(result)")
  }

  @Test("SET OF order compares encodings as octet strings, the shorter padded with zero octets; equal is not ascending",
        arguments: [
          ([0x01], [0x02], true), ([0x02], [0x01], false), ([0x01], [0x01], false),
          ([0x01], [0x01, 0x00], false), ([0x01, 0x00], [0x01], false),
          ([0x01], [0x01, 0x01], true), ([0x01, 0x01], [0x01], false), ([0x30, 0x09], [0x31, 0x00], true),
        ] as [([UInt8], [UInt8], Bool)])
  func setOrder(first: [UInt8], second: [UInt8], ascending: Bool) {
    #expect(DERReader.isAscending(first[...], second[...]) == ascending)
  }

  @Test("PrintableString allows exactly X.680's letters, digits, space and '()+,-./:=?; IA5String exactly ASCII")
  func characterSets() {
    let printable = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?".utf8)
    for byte in UInt8.min...UInt8.max {
      #expect((DERStringType.printableString.characterCount([byte]) != nil) == printable.contains(byte), "byte \(byte)")
      #expect((DERStringType.ia5String.characterCount([byte]) != nil) == (byte < 0x80), "byte \(byte)")
    }
  }

  @Test("UTF8String, BMPString and UniversalString count characters, not bytes; a BMPString holds no character beyond U+FFFF",
        arguments: [
          (.utf8String, "Büro 🧾", 6), (.universalString, "Büro 🧾", 6), (.bmpString, "Büro", 4),
          (.bmpString, "Büro 🧾", nil), (.printableString, "US", 2), (.teletexString, "T61", 3),
        ] as [(DERStringType, String, Int?)])
  func characterCounts(type: DERStringType, text: String, count: Int?) throws {
    var reader = DERReader(DERBuild.string(type, text))
    #expect(type.characterCount(try reader.readAny().content) == count)
  }
}

@Suite("X.509 Names of Apple's chains and test CAs read", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
struct X509NameVectorTests {
  static let certificateFiles = [
    "apple/AppleRootCA-G3.cer", "apple/chain/AppleWWDRCAG6.cer",
    "apple/chain/leaf-ProdECC-ReceiptSigning-2021-08-25_to_2023-09-24.cer",
    "apple/chain/leaf-ProdECC-ReceiptSigning-2025-09-19_to_2027-10-13.cer",
    "apple/test-ca/swift/testCA.der", "apple/test-ca/swift/certs/ROOT_CA.der",
    "apple/test-ca/swift/certs/INTERMEDIATE_CA.der", "apple/test-ca/swift/certs/INTERMEDIATE_CA_INVALID_OID.der",
    "apple/test-ca/swift/certs/LEAF_CERT.der", "apple/test-ca/swift/certs/LEAF_CERT_INVALID_OID.der",
    "apple/test-ca/swift/certs/LEAF_CERT_FOR_INTERMEDIATE_CA_INVALID_OID.der",
    "apple/test-ca/java-certs/testCA.pem", "apple/test-ca/java-certs/testIntermediate.pem",
    "apple/test-ca/java-certs/testLeaf.pem", "apple/test-ca/java-certs/testInvalidOIDLeaf.pem",
    "apple/test-ca/java-certs/testInvalidOIDIntermediate.pem", "apple/test-ca/java-certs/testInvalidIntermediateLeaf.pem",
  ]

  @Test("each certificate file of the shared vectors reads, with non-empty Names", arguments: certificateFiles)
  func certificateFile(file: String) throws {
    let certificate = try AppStoreTrust.certificate(fromFile: SharedVectors.bytes(file)).get()
    #expect(try !X509Name(der: Array(certificate.issuer)).isEmpty)
    #expect(try !X509Name(der: Array(certificate.subject)).isEmpty)
  }

  @Test("each leaf and intermediate in the x5c of Apple's real payloads, Apple's test payloads and the test CA's cases reads")
  func chainsInPayloads() throws {
    var texts = try AppleRealPayloadTests.files.map { try SharedVectors.text("apple/real/" + $0) }
    texts += try ["testNotification", "transactionInfo", "renewalInfo", "wrongBundleId"].map {
      try SharedVectors.text("apple/test-ca/swift/" + $0)
    }
    texts += TestCA.cases.keys.sorted().map { TestCA.cases[$0]! }
    var read = 0
    for text in texts {
      let chain = try #require(Tamper.json(Tamper.parts(text)[0])["x5c"] as? [String])
      // x5c[2] is never read (two of Apple's test payloads carry an X.509 v1 root there).
      for entry in chain.prefix(2) {
        let der = try #require(Data(base64Encoded: entry))
        #expect(throws: Never.self) { try X509Certificate(der: Array(der)) }
        read += 1
      }
    }
    #expect(read == 2 * texts.count)
  }

  @Test("Apple Root CA - G3's subject reads as CN, OU, O and C in the order encoded, one to an RDN, with their string types")
  func appleRootSubject() throws {
    let root = try AppleRealPayloadTests.appleRoot()
    let name = try X509Name(der: Array(root.subject))
    let read = name.relativeNames.map { rdn in
      rdn.map { "\($0.type)=\(String(decoding: $0.value, as: UTF8.self)) (tag \($0.valueTag))" }
    }
    #expect(read == [
      ["2.5.4.3=Apple Root CA - G3 (tag 12)"], ["2.5.4.11=Apple Certification Authority (tag 12)"],
      ["2.5.4.10=Apple Inc. (tag 12)"], ["2.5.4.6=US (tag 19)"],
    ])
    #expect(root.issuer.elementsEqual(root.subject))
  }
}
