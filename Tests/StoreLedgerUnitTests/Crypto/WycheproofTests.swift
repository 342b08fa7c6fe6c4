import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Every Wycheproof ECDSA vector for P-256/SHA-256 and P-384/SHA-384, in DER and P1363
/// (raw r‖s) form, gives its expected result.
@Suite("ECDSA verification against Wycheproof", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
struct WycheproofTests {
  @Test(
    "each vector verifies or is refused as Wycheproof expects",
    arguments: [
      ("ecdsa_secp256r1_sha256_test.json", false), ("ecdsa_secp256r1_sha256_p1363_test.json", true),
      ("ecdsa_secp384r1_sha384_test.json", false), ("ecdsa_secp384r1_sha384_p1363_test.json", true),
    ])
  func vectors(file: String, isRaw: Bool) throws {
    let document = try #require(try SharedVectors.json("wycheproof/" + file) as? [String: Any])
    let groups = try #require(document["testGroups"] as? [[String: Any]])
    var counts = (valid: 0, invalid: 0)
    for group in groups {
      let key = try #require(group["publicKey"] as? [String: Any])
      let curve: EllipticCurve = (key["curve"] as? String) == "secp256r1" ? .p256 : .p384
      let publicKey = ECDSAPublicKey(curve: curve, uncompressedPoint: hexBytes(key["uncompressed"] as! String))
      let sha = group["sha"] as? String
      for test in try #require(group["tests"] as? [[String: Any]]) {
        let message = hexBytes(test["msg"] as! String)
        let signature = hexBytes(test["sig"] as! String)
        let digest = sha == "SHA-256" ? SHA256.hash(message).bytes : SHA384.hash(message)
        let verified =
          publicKey.map {
            isRaw ? $0.isValidRawSignature(signature, digest: digest) : $0.isValidDERSignature(signature, digest: digest)
          } ?? false
        let expected = test["result"] as? String
        #expect(expected == "valid" || expected == "invalid", "tcId \(test["tcId"]!) has result \(expected ?? "none")")
        #expect(verified == (expected == "valid"), "\(file) tcId \(test["tcId"]!): \(test["comment"] ?? "")")
        if expected == "valid" { counts.valid += 1 } else { counts.invalid += 1 }
      }
    }
    // The files' own totals: every vector was read.
    #expect(counts.valid + counts.invalid == document["numberOfTests"] as? Int)
    #expect(counts.valid > 0 && counts.invalid > 0)
  }
}
