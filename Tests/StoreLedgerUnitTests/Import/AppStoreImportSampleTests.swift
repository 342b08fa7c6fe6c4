import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// What importing one of Apple's sample files must give.
struct SampleCase: Sendable, CustomTestStringConvertible {
  /// What is expected.
  enum Outcome: Sendable {
    /// These exact lines, skipped counts and number of warnings.
    case lines([String], skipped: [String: Int] = [:], warnings: Int = 0)
    /// An error whose printed form contains each string, in this order.
    case errors([String])
  }

  /// `folder/name` under the samples folder.
  var path: String
  /// Whether sandbox data is allowed.
  var allowsSandbox = true
  /// Whether Xcode data is allowed (`--allow-xcode`).
  var allowsXcode = false
  /// Placeholder strings in the sample replaced by the JWS of another sample, the way Apple's
  /// own tests sign the models at run time.
  var signing: [String: String] = [:]
  /// What must happen.
  var outcome: Outcome

  var testDescription: String {
    path + (signing.isEmpty ? "" : " (placeholders signed)")
      + (allowsSandbox ? "" : " without sandbox data") + (allowsXcode ? " with Xcode data" : "")
  }

  /// The input: the sample with its placeholders replaced.
  var input: String {
    var text = AppleSamples.text(path)
    for (placeholder, sample) in signing.sorted(by: { $0.key < $1.key }) {
      let jws = ImportFixtures.jws(SampleCase.signable(sample))
      text = text.replacingAll("\"\(placeholder)\"", with: "\"\(jws)\"")
    }
    return text
  }

  /// A sample's text, itself signed-placeholder-free (notifications nest signed samples).
  static func signable(_ path: String) -> String {
    let nested = [
      "signed_transaction_info_value": "models/signedTransaction.json",
      "signed_renewal_info_value": "models/signedRenewalInfo.json",
    ]
    var text = AppleSamples.text(path)
    for (placeholder, sample) in nested.sorted(by: { $0.key < $1.key }) {
      let jws = ImportFixtures.jws(AppleSamples.text(sample))
      text = text.replacingAll("\"\(placeholder)\"", with: "\"\(jws)\"")
    }
    return text
  }
}

extension String {
  /// Replaces every occurrence of `target` (no Foundation in the library's tests).
  func replacingAll(_ target: String, with replacement: String) -> String {
    var result = ""
    var rest = Substring(self)
    while let range = rest.range(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

extension Substring {
  /// The first range of `target`, found by a plain scan.
  fileprivate func range(of target: String) -> Range<Index>? {
    guard !target.isEmpty else { return nil }
    var index = startIndex
    while index < endIndex {
      if self[index...].hasPrefix(target) {
        return index..<self.index(index, offsetBy: target.count)
      }
      index = self.index(after: index)
    }
    return nil
  }
}

/// Every sample of Apple's library that carries a transaction or a notification, imported with
/// its expected events; the other samples with what the importer says about them.
@Suite("App Store import: Apple's sample payloads")
struct AppStoreImportSampleTests {
  static let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
  /// signedTransaction.json's purchase (its signedDate equals purchaseDate: no `recorded`).
  static let samplePurchase =
    #"{"at":"2023-10-24T12:01:40Z","country":"US","currency":"USD","expires":"2023-10-24T12:03:20Z","id":"appstore:23456:purchase","meta":{"billingPeriodNumber":3,"billingPlanType":"MONTHLY","environment":"LocalTesting","offerIdentifier":"abc.123","offerPeriod":"P1Y","source":"appstore","totalBillingPeriods":12},"offer":"intro","original_transaction":"12345","ownership":"purchased","price":10990,"product":"com.example.product","store":"appstore","subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","transaction":"23456","type":"purchase"}"#
  /// signedTransactionWithRevocation.json's purchase: the same transaction without the plan
  /// fields (billingPlanType, commitmentInfo) that signedTransaction.json carries.
  static let sampleRevokedPurchase = samplePurchase.replacingAll(
    #""meta":{"billingPeriodNumber":3,"billingPlanType":"MONTHLY","environment":"LocalTesting","offerIdentifier":"abc.123","offerPeriod":"P1Y","source":"appstore","totalBillingPeriods":12}"#,
    with: #""meta":{"environment":"LocalTesting","offerIdentifier":"abc.123","offerPeriod":"P1Y","source":"appstore"}"#)
  /// signedTransaction.json's revocation: revocationReason 1, no revocationType.
  static let sampleRevocation =
    #"{"at":"2023-10-24T12:02:30Z","id":"appstore:23456:revocation","meta":{"environment":"LocalTesting","revocationReason":1,"source":"appstore"},"reason":"refund","recorded":"2023-10-24T12:01:40Z","subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","transaction":"23456","type":"revocation"}"#
  /// signedTransactionWithRevocation.json's revocation: a prorated refund of 50 % of 10.99.
  static let sampleProratedRevocation =
    #"{"at":"2023-10-24T12:02:30Z","id":"appstore:23456:revocation","meta":{"environment":"LocalTesting","revocationPercentage":50000,"revocationReason":1,"revocationType":"REFUND_PRORATED","source":"appstore"},"reason":"refund","recorded":"2023-10-24T12:01:40Z","refunded":5495,"subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","transaction":"23456","type":"revocation"}"#
  /// signedConsumptionRequestNotification.json's refund request: Apple's reason, answer due 12
  /// hours after the notification.
  /// Its renewal info (Apple's sample) announces a price increase awaiting consent: the state
  /// and new price go into the meta of the notification's own event.
  static let sampleRefundRequest =
    #"{"at":"2023-10-24T12:01:40Z","id":"appstore:002e14d5-51f5-4503-b5a8-c3a1af68eb20:refund_requested","meta":{"environment":"LocalTesting","notificationType":"CONSUMPTION_REQUEST","priceIncreaseStatus":0,"renewalCurrency":"USD","renewalPrice":9990,"source":"appstore"},"reason":"unintended_purchase","respond_by":"2023-10-25T00:01:40Z","subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","transaction":"23456","type":"refund_requested"}"#
  static let notJWS = "not a JWS (expected header.payload.signature in base64url)"

  static let cases: [SampleCase] = [
    // Transactions.
    SampleCase(
      path: "models/signedTransaction.json", outcome: .lines([samplePurchase, sampleRevocation])),
    SampleCase(
      path: "models/signedTransaction.json", allowsSandbox: false,
      outcome: .errors([
        "input.jsonl:1: error: field 'environment': LocalTesting data is refused; import it with sandbox data allowed (--allow-sandbox)"
      ])),
    SampleCase(
      path: "models/signedTransactionWithRevocation.json",
      outcome: .lines([sampleRevokedPurchase, sampleProratedRevocation])),
    SampleCase(
      path: "models/transactionInfoResponse.json",
      signing: ["signed_transaction_info_value": "models/signedTransaction.json"],
      outcome: .lines([samplePurchase, sampleRevocation])),
    SampleCase(
      path: "models/transactionInfoResponse.json",
      outcome: .errors(["input.jsonl:1: error: field 'signedTransactionInfo': \(notJWS)"])),
    // Transaction and refund history: two copies of transaction 23456 that disagree on the
    // refund's details; the earliest-signed copy is kept (a tie: the smaller line) and warned.
    SampleCase(
      path: "models/transactionHistoryResponse.json",
      signing: [
        "signed_transaction_value": "models/signedTransaction.json",
        "signed_transaction_value2": "models/signedTransactionWithRevocation.json",
      ], outcome: .lines([samplePurchase, sampleProratedRevocation], warnings: 2)),
    SampleCase(
      path: "models/transactionHistoryResponse.json",
      outcome: .errors([
        "input.jsonl:1: error: field 'signedTransactions[0]': \(notJWS)",
        "input.jsonl:1: error: field 'signedTransactions[1]': \(notJWS)",
      ])),
    SampleCase(
      path: "models/getRefundHistoryResponse.json",
      signing: [
        "signed_transaction_one": "models/signedTransactionWithRevocation.json",
        "signed_transaction_two": "models/signedTransactionWithRevocation.json",
      ], outcome: .lines([sampleRevokedPurchase, sampleProratedRevocation])),
    SampleCase(
      path: "models/getRefundHistoryResponse.json",
      outcome: .errors([
        "field 'signedTransactions[0]': \(notJWS)", "field 'signedTransactions[1]': \(notJWS)",
      ])),
    // Notifications: SUBSCRIBED/INITIAL_BUY gives exactly its transaction's events.
    SampleCase(
      path: "models/signedNotification.json",
      signing: [
        "signed_transaction_info_value": "models/signedTransaction.json",
        "signed_renewal_info_value": "models/signedRenewalInfo.json",
      ], outcome: .lines([samplePurchase, sampleRevocation])),
    SampleCase(
      path: "models/signedNotification.json",
      outcome: .errors([
        "input.jsonl:1: error: field 'data.signedTransactionInfo': \(notJWS)",
        "input.jsonl:1: error: field 'data.signedRenewalInfo': \(notJWS)",
      ])),
    SampleCase(
      path: "models/signedConsumptionRequestNotification.json",
      signing: [
        "signed_transaction_info_value": "models/signedTransaction.json",
        "signed_renewal_info_value": "models/signedRenewalInfo.json",
      ],
      outcome: .lines([sampleRefundRequest, samplePurchase, sampleRevocation])),
    SampleCase(
      path: "models/signedConsumptionRequestNotification.json",
      outcome: .errors(["field 'data.signedTransactionInfo': \(notJWS)"])),
    SampleCase(
      path: "models/signedSummaryNotification.json",
      outcome: .lines([], skipped: ["RENEWAL_EXTENSION": 1])),
    SampleCase(
      path: "models/signedSummaryNotification.json", allowsSandbox: false,
      outcome: .errors(["field 'summary.environment': LocalTesting data is refused"])),
    SampleCase(
      path: "models/signedExternalPurchaseTokenNotification.json", allowsSandbox: false,
      outcome: .lines([], skipped: ["EXTERNAL_PURCHASE_TOKEN": 1])),
    SampleCase(
      path: "models/signedExternalPurchaseTokenSandboxNotification.json", allowsSandbox: false,
      outcome: .errors([
        "field 'externalPurchaseToken.externalPurchaseId': Sandbox data is refused"
      ])),
    SampleCase(
      path: "models/signedExternalPurchaseTokenSandboxNotification.json",
      outcome: .lines([], skipped: ["EXTERNAL_PURCHASE_TOKEN": 1])),
    // RESCIND_CONSENT blocks the app transaction's account; Apple's placeholder is no JWS.
    SampleCase(
      path: "models/signedRescindConsentNotification.json",
      outcome: .errors([
        "field 'appData.signedAppTransactionInfo': not a JWS (expected header.payload.signature in base64url)"
      ])),
    SampleCase(
      path: "models/signedRescindConsentNotification.json",
      signing: ["signed_app_transaction_info_value": "models/appTransaction.json"],
      outcome: .lines([
        #"{"at":"2023-10-24T12:01:40Z","id":"appstore:002e14d5-51f5-4503-b5a8-c3a1af68eb20:block","meta":{"appTransactionId":"71134","environment":"LocalTesting","notificationType":"RESCIND_CONSENT","source":"appstore"},"reason":"RESCIND_CONSENT: a parent or guardian withdrew consent","service":"consent","subject":"appstore:app-transaction:71134","type":"block"}"#
      ])),
    // Notification history: both notifications of Apple's samples, signed.
    SampleCase(
      path: "models/getNotificationHistoryResponse.json",
      signing: [
        "signed_payload_one": "models/signedNotification.json",
        "signed_payload_two": "models/signedConsumptionRequestNotification.json",
      ],
      outcome: .lines([sampleRefundRequest, samplePurchase, sampleRevocation])),
    SampleCase(
      path: "models/getNotificationHistoryResponse.json",
      outcome: .errors([
        "field 'notificationHistory[0].signedPayload': \(notJWS)",
        "field 'notificationHistory[1].signedPayload': \(notJWS)",
      ])),
    SampleCase(
      path: "models/getTestNotificationStatusResponse.json",
      outcome: .errors(["field 'signedPayload': \(notJWS)"])),
    SampleCase(
      path: "models/getTestNotificationStatusResponse.json",
      signing: ["signed_payload": "models/signedSummaryNotification.json"],
      outcome: .lines([], skipped: ["RENEWAL_EXTENSION": 1])),
    // Subscription statuses: status 1 adds the renewal preferences of its snapshot (keyed by
    // the renewal info's signedDate), 5 is the transaction's revocation, 2 an expiration at the
    // period end with the reason from expirationIntent.
    SampleCase(
      path: "models/getAllSubscriptionStatusesResponse.json",
      signing: [
        "signed_transaction_one": "models/signedTransaction.json",
        "signed_transaction_two": "models/signedTransaction.json",
        "signed_transaction_three": "models/signedTransaction.json",
        "signed_renewal_one": "models/signedRenewalInfo.json",
        "signed_renewal_two": "models/signedRenewalInfo.json",
        "signed_renewal_three": "models/signedRenewalInfo.json",
      ],
      outcome: .lines([
        #"{"at":"2023-10-24T12:00:00Z","auto_renew":true,"id":"appstore:23456:auto_renew_changed@1698148800000","meta":{"environment":"LocalTesting","source":"appstore","status":1},"original_transaction":"12345","subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","type":"auto_renew_changed"}"#,
        #"{"at":"2023-10-24T12:00:00Z","id":"appstore:23456:plan_changed@1698148800000","meta":{"environment":"LocalTesting","source":"appstore","status":1},"original_transaction":"12345","product":"com.example.product.2","subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","type":"plan_changed"}"#,
        samplePurchase,
        sampleRevocation,
        #"{"at":"2023-10-24T12:03:20Z","id":"appstore:23456:expiration","meta":{"environment":"LocalTesting","source":"appstore","status":2},"original_transaction":"12345","reason":"voluntary","recorded":"2023-10-24T12:00:00Z","subject":"7e3fb20b-4cdb-47cc-936d-99d65f608138","type":"expiration"}"#,
      ])),
    SampleCase(
      path: "models/getAllSubscriptionStatusesResponse.json",
      outcome: .errors([
        "field 'data[0].lastTransactions[0].signedTransactionInfo': \(notJWS)",
        "field 'data[0].lastTransactions[0].signedRenewalInfo': \(notJWS)",
      ])),
    // Xcode: fractional milliseconds are floored; Xcode data needs --allow-xcode (sandbox data
    // allowed is not enough) and its events say they were not verified.
    SampleCase(
      path: "xcode/xcode-signed-transaction", allowsSandbox: false, allowsXcode: true,
      outcome: .lines([
        #"{"at":"2023-10-19T01:45:36.049Z","country":"US","expires":"2023-11-19T01:45:36.049Z","id":"appstore:0:purchase","meta":{"environment":"Xcode","source":"appstore","verified":false},"offer":"intro","original_transaction":"0","ownership":"purchased","product":"pass.premium","recorded":"2023-10-19T01:45:36.056Z","store":"appstore","subject":"appstore:0","transaction":"0","type":"purchase"}"#
      ])),
    SampleCase(
      path: "xcode/xcode-signed-transaction",
      outcome: .errors(["input.jsonl:1: error: field 'environment': Xcode data is refused", "(--allow-xcode)"])),
    SampleCase(
      path: "xcode/xcode-signed-renewal-info", allowsXcode: true, outcome: .lines([], skipped: ["renewalInfo": 1])),
    SampleCase(
      path: "xcode/xcode-signed-renewal-info",
      outcome: .errors(["input.jsonl:1: error: field 'environment': Xcode data is refused"])),
    SampleCase(
      path: "xcode/xcode-signed-app-transaction", allowsXcode: true,
      outcome: .lines([], skipped: ["appTransaction": 1])),
    // Payloads that carry no purchase.
    SampleCase(
      path: "models/signedRenewalInfo.json", outcome: .lines([], skipped: ["renewalInfo": 1])),
    SampleCase(
      path: "models/appTransaction.json", outcome: .lines([], skipped: ["appTransaction": 1])),
    SampleCase(path: "models/appData.json", outcome: .lines([], skipped: ["appTransaction": 1])),
    SampleCase(
      path: "models/appTransactionInfoResponse.json", allowsSandbox: false,
      outcome: .lines([], skipped: ["appTransaction": 1])),
    SampleCase(
      path: "models/familyTransactionNotSupportedError.json",
      outcome: .errors([
        "input.jsonl:1: error: this is an App Store Server API error response (errorCode 4000185: Invalid request. Family Sharing transactions aren't supported by this endpoint.), not purchase data"
      ])),
    SampleCase(
      path: "models/transactionIdNotOriginalTransactionId.json",
      outcome: .errors(["errorCode 4000187"])),
    SampleCase(
      path: "models/extendSubscriptionRenewalDateResponse.json",
      outcome: .errors([
        "input.jsonl:1: error: this document is not a payload the App Store importer knows (keys: effectiveDate, originalTransactionId, success, webOrderLineItemId)"
      ])),
    SampleCase(
      path: "models/requestTestNotificationResponse.json",
      outcome: .errors([
        "is not a payload the App Store importer knows (keys: testNotificationToken)"
      ])),
    // Apple's mock signed data (signed by a test CA; signatures are not verified either way).
    SampleCase(
      path: "mock_signed_data/testNotification", allowsSandbox: false,
      outcome: .errors(["field 'data.environment': Sandbox data is refused"])),
    SampleCase(
      path: "mock_signed_data/testNotification", outcome: .lines([], skipped: ["TEST": 1])),
    SampleCase(
      path: "mock_signed_data/missingX5CHeaderClaim", allowsSandbox: false,
      outcome: .lines([], skipped: ["TEST": 1])),
    SampleCase(
      path: "mock_signed_data/wrongBundleId", allowsSandbox: false,
      outcome: .lines([], skipped: ["TEST": 1])),
    SampleCase(
      path: "mock_signed_data/transactionInfo",
      outcome: .errors([
        "input.jsonl:1: error: field 'transactionId' is missing; it is required in a transaction",
        "input.jsonl:1: error: field 'originalTransactionId' is missing; it is required in a transaction",
      ])),
    SampleCase(
      path: "mock_signed_data/renewalInfo",
      outcome: .errors([
        "this document is not a payload the App Store importer knows (keys: environment, signedDate)"
      ])),
    SampleCase(
      path: "mock_signed_data/legacyTransaction",
      outcome: .errors([
        "input.jsonl:1: error: expected a JSON document or a JWS (header.payload.signature) on this line"
      ])),
  ]

  @Test("each of Apple's samples imports to its expected events or errors", arguments: cases)
  func sample(_ sample: SampleCase) throws {
    switch sample.outcome {
    case .lines(let lines, let skipped, let warnings):
      let result = try #require(
        ImportFixtures.importEvents(sample.input, allowsSandbox: sample.allowsSandbox, allowsXcode: sample.allowsXcode))
      #expect(result.eventLines == lines)
      #expect(result.skipped == skipped)
      #expect(result.warnings.count == warnings, "\(result.warnings.map(\.description))")
    case .errors(let expected):
      let printed = ImportFixtures.importErrors(
        sample.input, allowsSandbox: sample.allowsSandbox, allowsXcode: sample.allowsXcode)
        .joined(separator: "\n")
      var rest = Substring(printed)
      for part in expected {
        guard let range = rest.range(of: part) else {
          Issue.record("missing, in order: \(part)\nin:\n\(printed)")
          return
        }
        rest = rest[range.upperBound...]
      }
    }
  }

  @Test(
    "the sample notification gives the same lines as the transaction it carries, in every wrapping")
  func notificationEqualsTransaction() throws {
    let transaction = AppleSamples.text("models/signedTransaction.json")
    let notification = SampleCase.signable("models/signedNotification.json")
    let compact = { (text: String) in JSONWriter.compact(try! JSONValue.parse(text)) }
    let wrappings = [
      transaction,
      ImportFixtures.jws(transaction),
      #"{"signedTransactions":["\#(ImportFixtures.jws(transaction))"],"environment":"LocalTesting"}"#,
      notification,
      #"{"signedPayload":"\#(ImportFixtures.jws(notification))"}"#,
      "[" + compact(transaction) + "," + compact(notification) + "]",
    ]
    for input in wrappings {
      let result = try #require(ImportFixtures.importEvents(input, allowsSandbox: true))
      #expect(result.eventLines == [Self.samplePurchase, Self.sampleRevocation])
    }
  }

  @Test("emitCatalog starts a catalog from Apple's samples, with marked placeholders")
  func emitCatalogFromSamples() throws {
    let input = [
      SampleCase.signable("models/signedNotification.json"),
      AppleSamples.text("xcode/xcode-signed-transaction"),
    ].map { JSONWriter.compact((try? JSONValue.parse($0)) ?? .string($0)) }.joined(separator: "\n")
    let catalog = try AppStoreImporter.emitCatalog(input, file: "input.jsonl")
    #expect(
      catalog == """
        {
          "products": {
            "com.example.product": {
              "entitlements": [
                "TODO:entitlement-for-group-55555"
              ],
              "group": "55555",
              "period": "P1M",
              "type": "auto_renewable"
            },
            "com.example.product.2": {
              "entitlements": [
                "TODO:entitlement-for-group-55555"
              ],
              "group": "55555",
              "type": "auto_renewable"
            },
            "pass.premium": {
              "entitlements": [
                "TODO:entitlement-for-group-6F3A93AB"
              ],
              "group": "6F3A93AB",
              "type": "auto_renewable"
            }
          }
        }

        """)
    // What it writes is a catalog the ledger accepts, placeholders and all.
    let parsed = try Catalog.parse(catalog, file: "catalog.json")
    #expect(
      parsed.products.map(\.id) == ["com.example.product", "com.example.product.2", "pass.premium"])
  }
}
