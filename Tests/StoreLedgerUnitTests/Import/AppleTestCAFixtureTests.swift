import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("App Store signatures: Apple's own test-CA fixtures", .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
struct AppleTestCAFixtureTests {
  static func verifier(at instant: Int64? = nil, bundleId: String? = nil) throws -> AppStoreSignatureVerifier {
    let root = try AppStoreTrust.certificate(fromFile: SharedVectors.bytes("apple/test-ca/swift/testCA.der")).get()
    var trust = AppStoreTrust(roots: [root], bundleId: bundleId)
    trust.validationTimeOverrideMs = instant
    return AppStoreSignatureVerifier(trust: trust)
  }

  @Test("Apple's test notification, transaction and renewal info verify under Apple's test root (P-256 keys, SHA-384 certificate signatures)",
        arguments: ["testNotification", "transactionInfo", "renewalInfo"])
  func verifies(file: String) throws {
    let text = try SharedVectors.text("apple/test-ca/swift/" + file)
    #expect(throws: Never.self) { try Self.verifier().verify(text).get() }
  }

  @Test("a payload without x5c, and another app's payload, are refused")
  func refused() throws {
    let missing = try Self.verifier().verify(SharedVectors.text("apple/test-ca/swift/missingX5CHeaderClaim"))
    #expect(missing.failure?.name == "x5c")
    // wrongBundleId has no signedDate: validated at a pinned instant inside the chain's validity.
    let wrong = try Self.verifier(at: 1_681_314_324_000, bundleId: "com.example")
      .verify(SharedVectors.text("apple/test-ca/swift/wrongBundleId"))
    #expect(wrong.failure == .bundleId(expected: "com.example", found: "\"com.example.wrong\""))
    let undated = try Self.verifier().verify(SharedVectors.text("apple/test-ca/swift/wrongBundleId"))
    #expect(undated.failure == .signedDate)
  }

  @Test("Apple's real payloads are refused under Apple's test root, and the test notification under Apple's real root")
  func rootsDoNotMix() throws {
    let real = try Self.verifier().verify(SharedVectors.text("apple/real/02-sandbox-transaction-consumable-leaf2023.jws"))
    #expect(real.failure?.name == "chain")
    let appleRoot = try AppStoreTrust.certificate(fromFile: SharedVectors.bytes("apple/AppleRootCA-G3.cer")).get()
    let test = AppStoreSignatureVerifier(trust: AppStoreTrust(roots: [appleRoot]))
      .verify(try SharedVectors.text("apple/test-ca/swift/testNotification"))
    #expect(test.failure?.name == "chain")
  }
}

extension Result {
  /// The failure, if any (tests).
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
