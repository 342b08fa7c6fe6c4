import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// The lines of a repository file.
private func sampleLines(_ path: String) throws -> [String] {
  try String(contentsOfFile: repoPath(path), encoding: .utf8).split(separator: "\n").map(String.init)
}

@Suite("serve's store webhooks: App Store notifications verified by the test CA, Pub/Sub pushes with their token")
struct ServerStoreImportTests {
  /// A server over an empty log, verifying App Store signatures up to the repository's test CA.
  private func appStoreServer() throws -> ServerFixture {
    let root = Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Tests/TestCA/root.pem"))))
    return try ServerFixture(log: nil, catalog: "Events/appstore/catalog.json") {
      $0.importOptions = StoreImportOptions(appStoreVerification: .verify(rootCertificates: [root]))
    }
  }

  @Test("each signed notification POSTed is verified and appended: the log holds what import appstore --append writes")
  func appStoreNotifications() throws {
    let fixture = try appStoreServer()
    let connection = try fixture.connect()
    defer { connection.close() }
    var changed = Set<String>()
    for line in try sampleLines("Events/appstore/notifications.jsonl") {
      let answer = try connection.request("POST", "/v1/appstore/notifications", body: line)
      #expect(answer.status == 200, "\(answer.body)")
      changed.formUnion(answer.json["access_changed"] as? [String] ?? [])
    }
    #expect(!changed.isEmpty)
    let cliLog = fixture.directory.appendingPathComponent("cli.jsonl").path
    let imported = runCLI([
      "import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--root", repoPath("Tests/TestCA/root.pem"),
      "--catalog", fixture.catalog, "--append", cliLog,
    ])
    #expect(imported.status == 0, "\(imported.stderr)")
    let cliLines = try String(contentsOfFile: cliLog, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(try fixture.logLines().sorted() == cliLines.sorted())
    // Delivered again (the store retries): 200, nothing new.
    let again = try connection.request("POST", "/v1/appstore/notifications", body: try sampleLines("Events/appstore/notifications.jsonl")[0])
    #expect(again.status == 200 && again.json["appended"] as? Int == 0)
    #expect(try fixture.logLines().count == cliLines.count)
  }

  @Test("a notification whose signature does not verify is 403, an unsigned one 401, and neither writes")
  func appStoreRefused() throws {
    let fixture = try appStoreServer()
    let line = try sampleLines("Events/appstore/notifications.jsonl")[0]
    let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
    let jws = try #require(object["signedPayload"])
    // Another signature: flip a character of its last part.
    var signature = Array(jws.split(separator: ".")[2])
    signature[10] = signature[10] == "A" ? "B" : "A"
    let tampered = jws.split(separator: ".")[0...1].joined(separator: ".") + "." + String(signature)
    let forged = try fixture.request("POST", "/v1/appstore/notifications", body: #"{"signedPayload":"\#(tampered)"}"#)
    #expect(forged.status == 403 && forged.json["code"] as? String == "signature_rejected", "\(forged.body)")
    // The decoded payload, unsigned.
    let payload = try #require(Data(base64Encoded: base64(jws.split(separator: ".")[1])))
    let unsigned = try fixture.request("POST", "/v1/appstore/notifications", body: String(decoding: payload, as: UTF8.self))
    #expect(unsigned.status == 401 && unsigned.json["code"] as? String == "unsigned_payload", "\(unsigned.body)")
    #expect(try String(contentsOfFile: fixture.log, encoding: .utf8).isEmpty)
  }

  @Test("a Pub/Sub push needs the token: absent 401, wrong 403, right 200 and imported as import googleplay --append")
  func pubSub() throws {
    let clock = LedgerClock.fixed(ts("2026-01-06T00:00:00Z"))
    let fixture = try ServerFixture(log: nil, catalog: "Events/googleplay/catalog.json", clock: clock) { $0.pubSubToken = "s3cret-token" }
    let pushes = try sampleLines("Events/googleplay/export.jsonl")
    let missing = try fixture.request("POST", "/v1/googleplay/pubsub", body: pushes[0])
    #expect(missing.status == 401 && missing.json["code"] as? String == "token_missing")
    let wrong = try fixture.request("POST", "/v1/googleplay/pubsub?token=s3cret-tokem", body: pushes[0])
    #expect(wrong.status == 403 && wrong.json["code"] as? String == "token_rejected")
    #expect(try String(contentsOfFile: fixture.log, encoding: .utf8).isEmpty)
    let connection = try fixture.connect()
    defer { connection.close() }
    // All pushes in one request, as the CLI reads the file: the same lines.
    let all = try connection.request(
      "POST", "/v1/googleplay/pubsub", body: pushes.joined(separator: "\n") + "\n", headers: ["Authorization: Bearer s3cret-token"])
    #expect(all.status == 200, "\(all.body)")
    let cliLog = fixture.directory.appendingPathComponent("cli.jsonl").path
    let imported = runCLI([
      "import", "googleplay", repoPath("Events/googleplay/export.jsonl"), "--catalog", fixture.catalog, "--append", cliLog,
      "--recorded-at", "2026-01-06T00:00:00Z",
    ])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try fixture.logLines() == String(contentsOfFile: cliLog, encoding: .utf8).split(separator: "\n").map(String.init))
    // Each push delivered again, one per request as Pub/Sub sends them: all 200, nothing new.
    for push in pushes {
      let again = try connection.request("POST", "/v1/googleplay/pubsub?token=s3cret-token", body: push)
      #expect(again.status == 200 && again.json["appended"] as? Int == 0, "\(again.body)")
    }
  }
}

/// base64url text as base64 with padding.
private func base64(_ text: Substring) -> String {
  var value = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
  while value.count % 4 != 0 { value += "=" }
  return value
}
