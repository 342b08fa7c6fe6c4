import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Strict DER and X.509 reading")
struct DERReaderTests {
  @Test("encodings that BER allows but DER does not are refused", arguments: [
    ([0x02, 0x81, 0x01, 0x05], DERError.badLength),  // long form for a short length
    ([0x02, 0x80, 0x00, 0x00], .badLength),  // indefinite length
    ([0x02, 0x82, 0x00, 0x01, 0x05], .badLength),  // a leading zero length byte
    ([0x02, 0x02, 0x00, 0x05], .badInteger),  // a padded positive INTEGER
    ([0x02, 0x02, 0xff, 0x85], .badInteger),  // a padded negative INTEGER
    ([0x02, 0x00], .badInteger),  // an empty INTEGER
    ([0x02, 0x01, 0x85], .badInteger),  // negative where only positive is allowed
    ([0x02, 0x03, 0x01], .truncated),  // content shorter than its length
  ] as [([UInt8], DERError)])
  func refused(bytes: [UInt8], error: DERError) {
    var reader = DERReader(bytes)
    #expect(throws: error) { _ = try reader.readUnsignedInteger() }
  }

  @Test("a high tag number is refused")
  func highTag() {
    var reader = DERReader([0x1f, 0x01, 0x00])
    #expect(throws: DERError.highTagNumber) { _ = try reader.readAny() }
  }

  @Test("a BOOLEAN is 00 or FF, nothing else; trailing bytes are refused")
  func booleans() throws {
    var yes = DERReader([0x01, 0x01, 0xff])
    #expect(try yes.readBoolean() == true)
    var odd = DERReader([0x01, 0x01, 0x01])
    #expect(throws: DERError.badBoolean) { try odd.readBoolean() }
    var trailing = DERReader([0x05, 0x00, 0x00])
    _ = try trailing.read(DERTag.null)
    #expect(throws: DERError.trailingData) { try trailing.expectEnd() }
  }

  @Test("UTCTime and GeneralizedTime read as Unix milliseconds, 50–99 as 19xx", arguments: [
    ("491231235959Z", DERTag.utcTime, Int64(2_524_607_999_000)),
    ("500101000000Z", DERTag.utcTime, Int64(-631_152_000_000)),
    ("20391231235959Z", DERTag.generalizedTime, Int64(2_208_988_799_000)),
    ("20240229120000Z", DERTag.generalizedTime, Int64(1_709_208_000_000)),
  ])
  func times(text: String, tag: UInt8, milliseconds: Int64) throws {
    var reader = DERReader([tag, UInt8(text.utf8.count)] + Array(text.utf8))
    #expect(try reader.readTime() == milliseconds)
  }

  @Test("times with fractions, offsets or impossible dates are refused", arguments: [
    "20230229120000Z", "2024022912000Z", "20240229120000+0100", "20241301000000Z", "20240101000060Z",
  ])
  func badTimes(text: String) {
    var reader = DERReader([DERTag.generalizedTime, UInt8(text.utf8.count)] + Array(text.utf8))
    #expect(throws: DERError.self) { try reader.readTime() }
  }

  @Test("object identifiers encode and print in dotted form")
  func objectIdentifiers() {
    let marker = DERObjectID("1.2.840.113635.100.6.11.1")
    #expect(marker.encoded == [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x0b, 0x01])
    #expect(marker.description == "1.2.840.113635.100.6.11.1")
    #expect(DERObjectID("1.3.132.0.34").description == "1.3.132.0.34")
  }

  @Test("Apple Root CA - G3 reads with its validity, curve, constraints and signature", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
  func appleRoot() throws {
    let bytes = try SharedVectors.bytes("apple/AppleRootCA-G3.cer")
    let root = try X509Certificate(der: bytes)
    #expect(root.notBeforeMs == 1_398_881_946_000)  // 2014-04-30T18:19:06Z
    #expect(root.notAfterMs == 2_187_800_346_000)  // 2039-04-30T18:19:06Z
    #expect(root.publicKey.curve.name == "P-384")
    #expect(root.signatureAlgorithm == .ecdsaWithSHA384)
    #expect(try root.basicConstraints()?.isCA == true)
    #expect(try root.keyUsage()?.keyCertSign == true)
    #expect(root.issuer.elementsEqual(root.subject))
    #expect(root.isSigned(by: root.publicKey), "self-signed")
    // One byte changed inside the signed part breaks the signature, not the reading.
    var changed = bytes
    changed[root.serialNumber.startIndex + 1] ^= 0x01
    let altered = try X509Certificate(der: changed)
    #expect(!altered.isSigned(by: root.publicKey))
    // A trailing byte after the certificate is not DER.
    #expect(throws: DERError.trailingData) { try X509Certificate(der: bytes + [0]) }
    // So is a truncated one.
    #expect(throws: DERError.self) { try X509Certificate(der: Array(bytes.dropLast())) }
  }
}
