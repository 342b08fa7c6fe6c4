import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// Every file under `../shared/fixtures/` (store payloads written by others: Apple's server
/// libraries' test resources, RTDN data captured by open-source Play packages, Google's
/// documentation examples), imported with the command line as a user would: each either
/// imports or is refused with exit 65 naming the file, the line and what is wrong, and a
/// refused import appends nothing (issue 35, "Done when"). Read at test time, never copied in.
@Suite("Importers: the store payloads of ../shared/fixtures")
struct StoreFixturesTests: SharedStoreFixtures {
  /// What importing one file must do.
  enum Outcome: Sendable {
    /// Exit 0, appending this many events.
    case imports(events: Int)
    /// Exit 65 with `file:line:` and this text on stderr; nothing appended.
    case refused(line: Int, saying: String)
    /// Not a store payload (a licence, a certificate): not imported.
    case notPayload
  }

  /// One file and what it must do.
  struct Row: Sendable, CustomTestStringConvertible {
    var path: String
    var outcome: Outcome
    var testDescription: String { path }
    /// The importer the file is for.
    var store: String { path.hasPrefix("apple-") ? "appstore" : "googleplay" }
  }

  static let notJWS = "not a JWS (expected header.payload.signature in base64url)"
  static let apiError = "this is an App Store Server API error response"
  static let docs = "google-developer-docs/"

  static let rows: [Row] = [
    Row(path: "SOURCES.md", outcome: .notPayload),
    Row(path: "apple-app-store-server-library-python/LICENSE.txt", outcome: .notPayload),
    Row(
      path: "apple-app-store-server-library-python/models/transactionHistoryResponseWithMalformedAppAppleId.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactions[0]': \(notJWS)")),
    Row(path: swiftLib + "LICENSE.txt", outcome: .notPayload),
    Row(path: swiftLib + "certs/testCA.der", outcome: .notPayload),
    Row(path: swiftLib + "inline-certs/REAL_APPLE_ROOT_BASE64_ENCODED.b64", outcome: .notPayload),
    Row(
      path: swiftLib + "mock_signed_data/legacyTransaction",
      outcome: .refused(line: 1, saying: "expected a JSON document or a JWS")),
    Row(path: swiftLib + "mock_signed_data/missingX5CHeaderClaim", outcome: .imports(events: 0)),
    Row(
      path: swiftLib + "mock_signed_data/renewalInfo",
      outcome: .refused(line: 1, saying: "not a payload the App Store importer knows (keys: environment, signedDate)")),
    Row(path: swiftLib + "mock_signed_data/testNotification", outcome: .imports(events: 0)),
    Row(
      path: swiftLib + "mock_signed_data/transactionInfo",
      outcome: .refused(line: 1, saying: "field 'transactionId' is missing")),
    Row(path: swiftLib + "mock_signed_data/wrongBundleId", outcome: .imports(events: 0)),
    Row(path: swiftLib + "models/apiException.json", outcome: .refused(line: 1, saying: apiError + " (errorCode 5000000")),
    Row(
      path: swiftLib + "models/apiTooManyRequestsException.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4290000")),
    Row(path: swiftLib + "models/apiUnknownError.json", outcome: .refused(line: 1, saying: apiError + " (errorCode 9990000")),
    Row(path: swiftLib + "models/appData.json", outcome: .imports(events: 0)),
    Row(path: swiftLib + "models/appTransaction.json", outcome: .imports(events: 0)),
    Row(
      path: swiftLib + "models/appTransactionDoesNotExistError.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4040019")),
    Row(path: swiftLib + "models/appTransactionInfoResponse.json", outcome: .imports(events: 0)),
    Row(
      path: swiftLib + "models/familyTransactionNotSupportedError.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4000185")),
    Row(
      path: swiftLib + "models/getAllSubscriptionStatusesResponse.json",
      outcome: .refused(line: 1, saying: "field 'data[0].lastTransactions[0].signedTransactionInfo': \(notJWS)")),
    Row(
      path: swiftLib + "models/getNotificationHistoryResponse.json",
      outcome: .refused(line: 1, saying: "field 'notificationHistory[0].signedPayload': \(notJWS)")),
    Row(
      path: swiftLib + "models/getRefundHistoryResponse.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactions[0]': \(notJWS)")),
    Row(
      path: swiftLib + "models/getTestNotificationStatusResponse.json",
      outcome: .refused(line: 1, saying: "field 'signedPayload': \(notJWS)")),
    Row(
      path: swiftLib + "models/invalidAppAccountTokenUUIDError.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4000183")),
    Row(
      path: swiftLib + "models/invalidTransactionIdError.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4000006")),
    Row(
      path: swiftLib + "models/lookupOrderIdResponse.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactions[0]': \(notJWS)")),
    Row(
      path: swiftLib + "models/signedConsumptionRequestNotification.json",
      outcome: .refused(line: 1, saying: "field 'data.signedTransactionInfo': \(notJWS)")),
    Row(path: swiftLib + "models/signedExternalPurchaseTokenNotification.json", outcome: .imports(events: 0)),
    Row(
      path: swiftLib + "models/signedExternalPurchaseTokenSandboxNotification.json",
      outcome: .imports(events: 0)),
    Row(
      path: swiftLib + "models/signedNotification.json",
      outcome: .refused(line: 1, saying: "field 'data.signedTransactionInfo': \(notJWS)")),
    Row(path: swiftLib + "models/signedRenewalInfo.json", outcome: .imports(events: 0)),
    // Its app transaction is a placeholder, not a JWS: without it the notification names nobody.
    Row(
      path: swiftLib + "models/signedRescindConsentNotification.json",
      outcome: .refused(line: 1, saying: "field 'appData.signedAppTransactionInfo': \(notJWS)")),
    Row(path: swiftLib + "models/signedSummaryNotification.json", outcome: .imports(events: 0)),
    // A purchase and its revocation (revocationReason 1, revocationDate).
    Row(path: swiftLib + "models/signedTransaction.json", outcome: .imports(events: 2)),
    Row(path: swiftLib + "models/signedTransactionWithRevocation.json", outcome: .imports(events: 2)),
    Row(
      path: swiftLib + "models/transactionHistoryResponse.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactions[0]': \(notJWS)")),
    Row(
      path: swiftLib + "models/transactionHistoryResponseWithMalformedAppAppleId.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactions[0]': \(notJWS)")),
    Row(
      path: swiftLib + "models/transactionHistoryResponseWithMalformedEnvironment.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactions[0]': \(notJWS)")),
    Row(
      path: swiftLib + "models/transactionIdNotFoundError.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4040010")),
    Row(
      path: swiftLib + "models/transactionIdNotOriginalTransactionId.json",
      outcome: .refused(line: 1, saying: apiError + " (errorCode 4000187")),
    Row(
      path: swiftLib + "models/transactionInfoResponse.json",
      outcome: .refused(line: 1, saying: "field 'signedTransactionInfo': \(notJWS)")),
    Row(
      path: swiftLib + "xcode/xcode-app-receipt-empty",
      outcome: .refused(line: 1, saying: "expected a JSON document or a JWS")),
    Row(
      path: swiftLib + "xcode/xcode-app-receipt-with-transaction",
      outcome: .refused(line: 1, saying: "expected a JSON document or a JWS")),
    Row(path: swiftLib + "xcode/xcode-signed-app-transaction", outcome: .imports(events: 0)),
    Row(path: swiftLib + "xcode/xcode-signed-renewal-info", outcome: .imports(events: 0)),
    Row(path: swiftLib + "xcode/xcode-signed-transaction", outcome: .imports(events: 1)),
    // Google's documentation: pseudo-JSON with comments and placeholders is refused where
    // it stops being JSON; the envelope's data is a type sketch, not JSON.
    Row(
      path: docs + "lifecycle-subscriptions--01-new-purchase-freeTrial.txt",
      outcome: .refused(line: 7, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--02-renewal-basePrice.txt", outcome: .refused(line: 11, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--03-IN_GRACE_PERIOD.txt", outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--04-ON_HOLD.txt", outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--05-EXPIRED.txt", outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--06-CANCELED.txt", outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(
      path: docs + "lifecycle-subscriptions--07-installment-pendingCancellation.txt",
      outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--08-revoked-EXPIRED.txt", outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(
      path: docs + "lifecycle-subscriptions--09-upgrade-linkedPurchaseToken.txt",
      outcome: .refused(line: 3, saying: "invalid JSON")),
    Row(path: docs + "lifecycle-subscriptions--10-prepaid-plan.txt", outcome: .refused(line: 11, saying: "invalid JSON")),
    Row(
      path: docs + "rtdn-reference--01-pubsub-envelope.json",
      outcome: .refused(line: 1, saying: "field 'message.data': the decoded data is not JSON")),
    // A notification alone imports nothing (it waits for its resource, with a warning).
    Row(path: docs + "rtdn-reference--02-subscriptionNotification-PURCHASED.json", outcome: .imports(events: 0)),
    Row(path: docs + "rtdn-reference--03-oneTimeProductNotification-PURCHASED.json", outcome: .imports(events: 0)),
    Row(
      path: docs + "rtdn-reference--04-voidedPurchaseNotification-MALFORMED.json",
      outcome: .refused(line: 10, saying: "invalid JSON: expected ',' or '}'")),
    Row(path: docs + "rtdn-reference--05-testNotification.json", outcome: .imports(events: 0)),
    Row(
      path: docs + "voided-purchases--01-list-response-MALFORMED.json",
      outcome: .refused(line: 24, saying: "invalid JSON")),
    Row(path: "imdhemy-google-play-billing/LICENSE.md", outcome: .notPayload),
    // Pub/Sub message.data as captured (base64 of a DeveloperNotification).
    Row(
      path: "imdhemy-google-play-billing/rtdn-data-SUBSCRIPTION_EXPIRED-com.twigano.fashion.b64",
      outcome: .imports(events: 0)),
    Row(path: "imdhemy-laravel-in-app-purchases/LICENSE.md", outcome: .notPayload),
    Row(
      path: "imdhemy-laravel-in-app-purchases/rtdn-data-SUBSCRIPTION_EXPIRED-com.twigano.fashion.b64",
      outcome: .imports(events: 0)),
    Row(
      path: "imdhemy-laravel-in-app-purchases/rtdn-data-SUBSCRIPTION_PURCHASED-com.twigano.fashion.b64",
      outcome: .imports(events: 0)),
    Row(
      path: "imdhemy-laravel-in-app-purchases/rtdn-data-testNotification-com.twigano.fashion.b64",
      outcome: .imports(events: 0)),
    Row(
      path: "imdhemy-laravel-in-app-purchases/weird-token-from-google.json",
      outcome: .refused(line: 1, saying: "field 'message.data': the decoded data is not JSON")),
  ]

  @Test("every file of ../shared/fixtures has a row saying what importing it does")
  func everyFileHasARow() throws {
    guard Self.isPresent else { return }
    let enumerator = FileManager.default.enumerator(atPath: Self.folder.path)
    var files: Set<String> = []
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(
        atPath: Self.folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
      if !isDirectory.boolValue { files.insert(path) }
    }
    #expect(files == Set(Self.rows.map(\.path)))
  }

  @Test(
    "each store payload of ../shared/fixtures imports, or is refused with exit 65 naming file, line and what is wrong, appending nothing",
    arguments: rows)
  func importFixture(_ row: Row) throws {
    guard Self.isPresent else { return }
    if case .notPayload = row.outcome { return }
    let space = try Workspace()
    try space.write("fixtures-catalog.json", Self.catalogText)
    let file = Self.folder.appendingPathComponent(row.path).path
    let xcode = row.path.contains("/xcode/") ? ["--allow-xcode"] : []
    let flags = row.store == "appstore" ? ["--no-verify", "--allow-sandbox"] + xcode : []
    let result = runCLI(
      ["import", row.store, file, "--catalog", space.path("fixtures-catalog.json"), "--append", space.log]
        + flags)
    let log = (try? String(contentsOfFile: space.log, encoding: .utf8)) ?? ""
    let lines = log.split(separator: "\n")
    switch row.outcome {
    case .imports(let events):
      #expect(result.status == 0, "\(result.stderr)")
      #expect(lines.count == events, "\(log)")
    case .refused(let line, let saying):
      #expect(result.status == 65, "\(result.stderr)")
      #expect(result.stderr.contains("\(file):\(line):"), "\(result.stderr)")
      #expect(result.stderr.contains(saying), "\(result.stderr)")
      #expect(lines.isEmpty)
    case .notPayload:
      break
    }
  }

  /// Xcode-signed payloads of Apple's library, verified against its test root as a user would.
  static let xcodeRows = ["xcode-signed-transaction", "xcode-signed-renewal-info", "xcode-signed-app-transaction"]

  /// Imports one file of Apple's library with `flags`, into a fresh log; the run, the file's
  /// path and the log's text.
  private func importAppleFile(_ path: String, _ flags: [String]) throws -> (result: RunResult, file: String, log: String) {
    let space = try Workspace()
    try space.write("fixtures-catalog.json", Self.catalogText)
    let file = Self.folder.appendingPathComponent(Self.swiftLib + path).path
    let result = runCLI(
      ["import", "appstore", file, "--catalog", space.path("fixtures-catalog.json"), "--append", space.log] + flags)
    return (result, file, (try? String(contentsOfFile: space.log, encoding: .utf8)) ?? "")
  }

  /// The `--root` flag of Apple's library test root.
  static var testRoot: [String] {
    ["--root", folder.appendingPathComponent(swiftLib + "certs/testCA.der").path]
  }

  @Test(
    "Xcode-signed payloads are refused without --allow-xcode, even with sandbox data allowed: exit 65 naming file, line and field 'environment'",
    arguments: xcodeRows)
  func xcodeRefusedWithoutFlag(_ name: String) throws {
    guard Self.isPresent else { return }
    let (result, file, log) = try importAppleFile("xcode/" + name, Self.testRoot + ["--allow-sandbox"])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("\(file):1:"), "\(result.stderr)")
    #expect(result.stderr.contains("field 'environment': Xcode data is refused"), "\(result.stderr)")
    #expect(result.stderr.contains("--allow-xcode"), "\(result.stderr)")
    #expect(log.isEmpty)
  }

  @Test("with --allow-xcode an Xcode-signed transaction imports unverified even while verifying: meta.verified false, the summary says so")
  func xcodeImportsUnverified() throws {
    guard Self.isPresent else { return }
    let (result, _, log) = try importAppleFile("xcode/xcode-signed-transaction", Self.testRoot + ["--allow-xcode"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(log.split(separator: "\n").count == 1)
    #expect(log.contains(#""meta":{"environment":"Xcode","source":"appstore","verified":false}"#), "\(log)")
    #expect(result.stdout.contains("NOT VERIFIED: 1 Xcode payload (--allow-xcode"), "\(result.stdout)")
    #expect(!result.stdout.contains("verified 1 payload"), "\(result.stdout)")
  }

  @Test("Apple's library transaction keeps its offer and 12-month commitment in its charge's meta (offerIdentifier, offerPeriod, billingPlanType, billingPeriodNumber, totalBillingPeriods), not in its revocation's")
  func planMeta() throws {
    guard Self.isPresent else { return }
    let (result, _, log) = try importAppleFile("models/signedTransaction.json", ["--no-verify", "--allow-sandbox"])
    #expect(result.status == 0, "\(result.stderr)")
    let events = try log.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    let purchase = try #require(events.first { $0["type"] == .string("purchase") })
    #expect(purchase["meta"]?["offerIdentifier"] == .string("abc.123"))
    #expect(purchase["meta"]?["offerPeriod"] == .string("P1Y"))
    #expect(purchase["meta"]?["billingPlanType"] == .string("MONTHLY"))
    #expect(purchase["meta"]?["billingPeriodNumber"] == .integer(3))
    #expect(purchase["meta"]?["totalBillingPeriods"] == .integer(12))
    let revocation = try #require(events.first { $0["type"] == .string("revocation") })
    #expect(revocation["meta"]?["billingPlanType"] == nil)
  }
}
