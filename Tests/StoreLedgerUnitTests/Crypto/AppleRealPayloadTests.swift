import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The five real Apple-signed Sandbox payloads of the shared vectors, under Apple Root CA - G3.
@Suite("Real App Store payloads verify under Apple's root", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
struct AppleRealPayloadTests {
  static let files = [
    "01-sandbox-renewalInfo-leaf2021.jws", "02-sandbox-transaction-consumable-leaf2023.jws",
    "03-sandbox-notification-TEST-leaf2023.jws", "04-sandbox-notification-DID_RENEW-leaf2025.jws",
    "05-sandbox-notification-REFUND-leaf2025.jws",
  ]

  static func appleRoot() throws -> X509Certificate {
    try AppStoreTrust.certificate(fromFile: SharedVectors.bytes("apple/AppleRootCA-G3.cer")).get()
  }

  @Test("the fingerprint the CLI prints is the SHA-256 of the shared Apple Root CA - G3")
  func fingerprint() throws {
    #expect(AppStoreTrust.fingerprint(try Self.appleRoot()) == AppStoreTrust.appleRootCAG3SHA256)
  }

  @Test("each payload verifies at its signedDate, with the signedDate and kind of the manifest", arguments: files)
  func verifiesAtSignedDate(file: String) throws {
    let manifest = try #require(try SharedVectors.json("apple/real/manifest.json") as? [[String: Any]])
    let entry = try #require(manifest.first { $0["file"] as? String == "real/" + file })
    let verifier = AppStoreSignatureVerifier(trust: AppStoreTrust(roots: [try Self.appleRoot()]))
    let payload = try verifier.verify(SharedVectors.appleRealPayload(file)).get()
    #expect(payload["signedDate"] == .integer(Int64(entry["signedDate_ms"] as! Int)))
    #expect(entry["expected"].flatMap { ($0 as? [String: Any])?["overall_valid_at_signedDate"] as? Bool } == true)
    // Nested JWS verify on their own.
    let nested = (entry["nested_jws"] as? [String: Any]) ?? [:]
    for key in nested.keys.sorted() {
      let text = try #require(payload["data"]?[key]?.stringValue, "\(file) lacks data.\(key)")
      #expect(throws: Never.self) { try verifier.verify(text).get() }
    }
    #expect(verifier.verifiedSignatures == 1 + nested.count)
  }

  @Test("the leaf's validity includes both its notBefore and notAfter instants, and nothing outside", arguments: [
    (1_694_548_313_000 - 1, false), (1_694_548_313_000, true),  // notBefore 2023-09-12T19:51:53Z
    (1_760_212_312_000, true), (1_760_212_312_000 + 1, false),  // notAfter 2025-10-11T19:51:52Z
  ] as [(Int64, Bool)])
  func validityEdges(instant: Int64, valid: Bool) throws {
    var trust = AppStoreTrust(roots: [try Self.appleRoot()])
    trust.validationTimeOverrideMs = instant
    let result = AppStoreSignatureVerifier(trust: trust).verify(try SharedVectors.appleRealPayload("02-sandbox-transaction-consumable-leaf2023.jws"))
    #expect(valid ? result.failure == nil : result.failure?.name == "validity", "\(result)")
  }

  @Test("payloads 01, 02 and 03 fail once their leaf has expired (validated on 2025-10-12)", arguments: files)
  func expiredLeaf(file: String) throws {
    var trust = AppStoreTrust(roots: [try Self.appleRoot()])
    trust.validationTimeOverrideMs = 1_760_227_200_000  // 2025-10-12T00:00:00Z, after 2025-10-11T19:51:52Z
    let result = AppStoreSignatureVerifier(trust: trust).verify(try SharedVectors.appleRealPayload(file))
    if file.hasPrefix("04") || file.hasPrefix("05") {
      #expect(throws: Never.self) { try result.get() }
    } else {
      guard case .failure(.validity(let certificate, _, _, let notAfterMs)) = result else {
        Issue.record("\(file): expected the leaf's validity to fail, got \(result)")
        return
      }
      #expect(certificate == "leaf")
      #expect(notAfterMs < 1_760_227_200_000)
    }
  }
}

@Suite("Real App Store payloads: tampered copies are refused", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
struct AppleRealTamperTests {
  static let edits: [(String, @Sendable (String) -> String, String)] = [
    ("payload edited", { Tamper.payload($0) { $0["signedDate"] = ($0["signedDate"] as! Int) + 1 } }, "signature"),
    ("signature bit flipped", { Tamper.signature($0) { var s = $0; s[63] ^= 0x01; return s } }, "signature"),
    ("DER signature instead of raw", { Tamper.signature($0, Tamper.der) }, "signature"),
    ("alg none", { Tamper.header($0) { $0["alg"] = "none" } }, "alg"),
    ("x5c[2] dropped", { Tamper.header($0) { $0["x5c"] = Array(($0["x5c"] as! [String]).prefix(2)) } }, "x5c"),
  ]

  @Test("each edit of each real payload fails its check under Apple's root", arguments: AppleRealPayloadTests.files)
  func tampered(file: String) throws {
    let original = try SharedVectors.appleRealPayload(file)
    for (name, edit, check) in Self.edits {
      let verifier = AppStoreSignatureVerifier(trust: AppStoreTrust(roots: [try AppleRealPayloadTests.appleRoot()]))
      let result = verifier.verify(edit(original))
      #expect(result.failure?.name == check, "\(file), \(name): \(result)")
    }
  }
}
