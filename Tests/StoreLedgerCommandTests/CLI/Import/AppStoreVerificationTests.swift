import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("App Store signatures: tampered and foreign payloads are refused with 65 and nothing appended")
struct AppStoreVerificationTests {
  static let valid = TestCA.cases["valid"]!

  static let tampered: [(String, String, String)] = [
    ("payload edited", Tamper.payload(valid) { $0["notificationType"] = "REFUND" }, "signature"),
    ("signature bit flipped", Tamper.signature(valid) { var s = $0; s[40] ^= 0x01; return s }, "signature"),
    ("DER signature instead of raw", Tamper.signature(valid, Tamper.der), "signature"),
    ("alg none", Tamper.header(valid) { $0["alg"] = "none" }, "alg"),
    ("alg ES384", Tamper.header(valid) { $0["alg"] = "ES384" }, "alg"),
    ("alg absent", Tamper.header(valid) { $0["alg"] = nil }, "alg"),
    ("no x5c", Tamper.header(valid) { $0["x5c"] = nil }, "x5c"),
    ("two certificates", Tamper.header(valid) { $0["x5c"] = Array(($0["x5c"] as! [String]).prefix(2)) }, "x5c"),
    (
      "leaf and intermediate swapped",
      Tamper.header(valid) { let c = $0["x5c"] as! [String]; $0["x5c"] = [c[1], c[0], c[2]] }, "signature"
    ),
    ("header re-encoded with padding", Tamper.parts(valid)[0] + "=." + Tamper.parts(valid)[1] + "." + Tamper.parts(valid)[2], "signature"),
    ("a foreign intermediate, its own root in x5c[2]", TestCA.cases["foreignIntermediate"]!, "chain"),
    ("a foreign intermediate, our root in x5c[2]", TestCA.cases["foreignIntermediateWithOurRoot"]!, "chain"),
    ("a leaf expired at signedDate", TestCA.cases["expiredLeaf"]!, "validity"),
    ("a leaf without Apple's extension", TestCA.cases["leafWithoutMarker"]!, "oid"),
    ("an intermediate without Apple's extension", TestCA.cases["intermediateWithoutMarker"]!, "oid"),
    ("a signature by another key", TestCA.cases["otherKey"]!, "signature"),
    ("an unknown critical extension", TestCA.cases["unknownCriticalExtension"]!, "critical-extension"),
    ("a leaf that says it is a CA", TestCA.cases["leafIsCA"]!, "constraints"),
    ("an intermediate that is not a CA", TestCA.cases["intermediateNotCA"]!, "constraints"),
  ]

  @Test("a tampered or foreign JWS fails its check, naming file, line and check; the log is unchanged", arguments: tampered)
  func tamperedRefused(name: String, jws: String, check: String) throws {
    let space = try Workspace(log: "")
    let first = runCLI([
      "import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", TestCA.catalog,
      "--append", space.log, "--root", TestCA.root,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let before = try space.read()
    #expect(!before.isEmpty)
    let input = TestCA.line(Self.valid) + "\n" + TestCA.line(jws) + "\n"
    let run = runCLI(
      ["import", "appstore", "-", "--catalog", TestCA.catalog, "--append", space.log, "--root", TestCA.root],
      stdin: input)
    #expect(run.status == 65, "\(name): \(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("<stdin>:2: error: field 'signedPayload': signature check '\(check)' failed"), "\(name): \(run.stderr)")
    #expect(!run.stderr.contains("<stdin>:1: error"), "the valid line passes")
    #expect(try space.read() == before, "\(name): the log changed")
  }

  @Test("the untouched JWS imports: the tampering alone makes each case fail")
  func validAccepted() throws {
    let space = try Workspace(log: "")
    let run = runCLI(
      ["import", "appstore", "-", "--catalog", TestCA.catalog, "--append", space.log, "--root", TestCA.root],
      stdin: TestCA.line(Self.valid) + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("verified 1 payload (3 signatures) up to root \(TestCA.root)"))
  }

  @Test("a nested signedTransactionInfo is verified on its own")
  func nestedVerified() throws {
    let decoded = Tamper.json(Tamper.parts(Self.valid)[1])
    let nested = try #require((decoded["data"] as? [String: Any])?["signedTransactionInfo"] as? String)
    func statusResponse(_ jws: String) -> String {
      #"{"environment":"Production","bundleId":"com.example.storeledger","data":[{"subscriptionGroupIdentifier":"pro","lastTransactions":[{"status":1,"originalTransactionId":"1","signedTransactionInfo":""#
        + jws + #""}]}]}"#
    }
    let good = runCLI(["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", TestCA.root], stdin: statusResponse(nested))
    #expect(good.status == 0, "\(good.stderr)")
    let flipped = Tamper.signature(nested) { var s = $0; s[0] ^= 0x80; return s }
    let bad = runCLI(["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", TestCA.root], stdin: statusResponse(flipped))
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("<stdin>:1: error: field 'data[0].lastTransactions[0].signedTransactionInfo': signature check 'signature' failed"), "\(bad.stderr)")
  }

  @Test("the test CA's chain, with Apple's extensions, is refused under Apple's root and accepted under its own",
        .enabled(if: SharedVectors.present, SharedVectors.absentMessage))
  func ownChainUnderAppleRoot() throws {
    let apple = SharedVectors.folder.appendingPathComponent("apple/AppleRootCA-G3.cer").path
    let underApple = runCLI(["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", apple], stdin: TestCA.line(Self.valid))
    #expect(underApple.status == 65)
    #expect(underApple.stderr.contains("signature check 'chain' failed: the intermediate certificate x5c[1] was not issued by the configured root"))
    #expect(!underApple.stderr.contains("is not Apple Root CA - G3"), "Apple's root draws no warning")
    let both = runCLI(
      ["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", apple, "--root", TestCA.root],
      stdin: TestCA.line(Self.valid))
    #expect(both.status == 0, "\(both.stderr)")
    #expect(both.stderr.contains("imported"))
    #expect(both.stderr.contains("up to root \(TestCA.root)\n"))
  }
}

@Suite("App Store signatures: the command line's roots, refusals and --no-verify")
struct AppStoreVerificationCLITests {
  @Test("signed input without a root exits 64 and says how to get Apple Root CA - G3 and its fingerprint")
  func noRoot() {
    let run = runCLI(["import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", TestCA.catalog])
    #expect(run.status == 64)
    #expect(run.stderr.contains("https://www.apple.com/certificateauthority/"))
    #expect(run.stderr.contains("63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"))
    #expect(run.stderr.components(separatedBy: "no root certificate is configured").count == 2, "said once")
  }

  @Test("STORELEDGER_APPLE_ROOT names the root when --root is absent")
  func environmentRoot() {
    let run = runCLI(
      ["import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", TestCA.catalog],
      environment: ["STORELEDGER_APPLE_ROOT": TestCA.root])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("verified 7 payloads (17 signatures) up to root \(TestCA.root)"))
  }

  @Test("decoded payloads are refused (65) unless --no-verify, even when they carry JWS inside", arguments: [
    #"{"notificationType":"TEST","notificationUUID":"u-1","signedDate":1774051200000,"summary":{"environment":"Production"}}"#,
    #"{"transactionId":"9","originalTransactionId":"9","productId":"pro.lifetime","bundleId":"com.example.storeledger","purchaseDate":1771093800000,"type":"Non-Consumable","inAppOwnershipType":"PURCHASED","environment":"Production","signedDate":1771093800000}"#,
  ])
  func decodedRefused(document: String) throws {
    let refused = runCLI(["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", TestCA.root], stdin: document)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("<stdin>:1: error: this document is a decoded payload, not Apple's signed JWS"))
    let allowed = runCLI(["import", "appstore", "-", "--catalog", TestCA.catalog, "--no-verify"], stdin: document)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(allowed.stderr.contains("NOT VERIFIED: 1 payload (--no-verify"))
    #expect(allowed.stderr.contains("warning: --no-verify: 1 payload imported without verifying signatures"))
  }

  @Test("a decoded notification carrying a valid signed transaction is still unsigned")
  func decodedWithSignedInside() throws {
    let decoded = Tamper.json(Tamper.parts(TestCA.cases["valid"]!)[1])
    let text = String(decoding: try JSONSerialization.data(withJSONObject: decoded), as: UTF8.self)
    let run = runCLI(["import", "appstore", "-", "--catalog", TestCA.catalog, "--root", TestCA.root], stdin: text)
    #expect(run.status == 65)
    #expect(run.stderr.contains("this document is a decoded payload"))
  }

  @Test("--bundle-id and --app-apple-id refuse another app's payloads", arguments: [
    (["--bundle-id", "com.example.storeledger"], 0, ""),
    (["--bundle-id", "com.example.other"], 65, "signature check 'bundle-id' failed: bundleId is \"com.example.storeledger\", expected \"com.example.other\""),
    (["--app-apple-id", "1234567890"], 0, ""),
    (["--app-apple-id", "42"], 65, "signature check 'app-apple-id' failed: appAppleId is 1234567890, expected 42"),
  ])
  func appChecks(options: [String], status: Int32, message: String) {
    let run = runCLI(
      ["import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", TestCA.catalog, "--root", TestCA.root] + options)
    #expect(run.status == status, "\(run.stderr)")
    #expect(message.isEmpty || run.stderr.contains(message), "\(run.stderr)")
  }

  @Test("bad combinations and root files are refused", arguments: [
    (["--no-verify", "--root", "Tests/TestCA/root.pem"], Int32(64), "'--root' has no effect with '--no-verify'"),
    (["--root", "Tests/TestCA/keys/leaf.key.pem"], 65, "--root Tests/TestCA/keys/leaf.key.pem: not a DER or PEM certificate"),
    (["--root", "no/such/root.pem"], 66, "no/such/root.pem"),
    (["--app-apple-id", "x"], 64, "Invalid value for '--app-apple-id'"),
  ])
  func badOptions(options: [String], status: Int32, message: String) {
    let resolved = options.map { $0.hasPrefix("Tests/") ? repoPath($0) : $0 }
    let run = runCLI(["import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--catalog", TestCA.catalog] + resolved)
    #expect(run.status == status, "\(run.stderr)")
    #expect(run.stderr.contains(message.hasPrefix("--root Tests/") ? message.replacingOccurrences(of: "Tests/", with: repoPath("Tests") + "/") : message), "\(run.stderr)")
  }

  @Test("the verification options are for import appstore only", arguments: [
    ["--no-verify"], ["--root", "r.pem"], ["--bundle-id", "a.b"], ["--app-apple-id", "1"],
  ])
  func appStoreOnly(options: [String]) {
    let run = runCLI(["import", "googleplay", "-", "--catalog", TestCA.catalog] + options)
    #expect(run.status == 64)
    #expect(run.stderr.contains("'\(options[0])' is for 'import appstore' only."), "\(run.stderr)")
  }

  @Test("--emit-catalog decodes without verifying, and says so")
  func emitCatalog() {
    let run = runCLI(["import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--emit-catalog"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("pro.monthly"))
    #expect(run.stderr.contains("without verifying"))
  }
}
