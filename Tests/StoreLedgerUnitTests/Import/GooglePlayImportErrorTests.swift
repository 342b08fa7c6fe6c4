import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Bad input: every error names the file, the line, the field and what was expected.
@Suite("Google Play import: errors")
struct GooglePlayImportErrorTests {
  typealias G = GP

  @Test(
    "bad input is an error naming the line and field",
    arguments: [
      (
        #"{"message":{"data":"not base64!","messageId":"1"}}"#,
        "input.jsonl:2: error: field 'message.data': not valid base64"
      ),
      (G.push("{nope"), "input.jsonl:2: error: field 'message.data': the decoded data is not JSON"),
      (#"{"message":{"messageId":"1"}}"#, "input.jsonl:2: error: field 'message.data' is missing"),
      (
        G.subscription(expiry: "2026-02-01T10:00:00Z", product: "gold"),
        "input.jsonl:2: error: field 'subscriptionPurchaseV2.lineItems[0].productId': unknown product: the catalog has neither 'gold:monthly' nor 'gold'"
      ),
      (
        G.subscription(expiry: "soon"),
        "input.jsonl:2: error: field 'subscriptionPurchaseV2.lineItems[0].expiryTime': expected an RFC 3339 time"
      ),
      (
        G.notification(4, at: "2026-01-01T00:00:00Z").replacingAll(
          "\"eventTimeMillis\":\"", with: "\"eventTimeMillis\":\"x"),
        "input.jsonl:2: error: field 'eventTimeMillis': expected milliseconds since 1970"
      ),
      (
        #"{"lineItems":[],"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE"}"#,
        "input.jsonl:2: error: this is a SubscriptionPurchaseV2 without its purchase token"
      ),
      (
        G.subscription(expiry: "2026-02-01T10:00:00Z", product: "lifetime", plan: nil),
        "input.jsonl:2: error: field 'subscriptionPurchaseV2.lineItems[0].productId': Google sells 'lifetime' as a subscription, but the catalog has 'lifetime' as non_consumable"
      ),
      (
        G.product(productID: "plus"),
        "input.jsonl:2: error: field 'productId': Google sells 'plus' as a one-time product"
      ),
      (
        G.product(productID: "gems"),
        "input.jsonl:2: error: field 'productId': unknown product: the catalog has neither 'gems'"
      ),
      (
        #"{"error":{"code":410,"message":"The subscription purchase is no longer available for query because it has been expired for too long."}}"#,
        "input.jsonl:2: error: this is a Google Play Developer API error response"
      ),
      (
        #"{"hello":1}"#,
        "input.jsonl:2: error: this document is not a payload the Google Play importer knows (keys: hello)"
      ),
    ])
  func badInput(line: String, expected: String) {
    let errors = G.importErrors([
      G.product(productID: "lifetime", order: "GPA.0000-0000-0000-00009"), line,
    ])
    #expect(errors.count == 1, "\(errors)")
    #expect(errors.first?.hasPrefix(expected) == true, "\(errors)")
  }

  @Test("Pub/Sub data up to the limit is decoded; one byte more is an error")
  func dataLimit() {
    // A valid base64 run of exactly the limit decodes to bytes that are not JSON.
    let atLimit = String(repeating: "e30g", count: Limits.importEncodedBytesMax / 4)
    let errors = G.importErrors([#"{"message":{"data":"\#(atLimit)"}}"#])
    #expect(errors.first?.contains("the decoded data is not JSON") == true, "\(errors.first ?? "")")
    let over = G.importErrors([#"{"message":{"data":"\#(atLimit)A"}}"#])
    #expect(over.first?.contains("more than the limit of \(Limits.importEncodedBytesMax)") == true)
  }

  @Test("malformed JSON names the line and column")
  func malformedJSON() {
    let errors = G.importErrors([G.product(), #"{"message": {"data": }"#])
    #expect(errors == ["input.jsonl:2:22: error: invalid JSON: expected a value"])
  }

  @Test("purchase tokens that link in a cycle are an error")
  func cycle() {
    let errors = G.importErrors([
      G.subscription(G.tokenA, expiry: "2026-02-01T10:00:00Z", linked: G.tokenB),
      G.subscription(G.tokenB, order: G.orderB, expiry: "2026-02-01T10:00:00Z", linked: G.tokenA),
    ])
    #expect(errors.count == 2)
    #expect(errors.allSatisfy { $0.contains("link in a cycle") })
  }

  @Test("every error is reported at once and nothing is returned")
  func allErrors() {
    let errors = G.importErrors([
      G.subscription(expiry: "2026-02-01T10:00:00Z", product: "gold"), #"{"x":1}"#,
      G.product(productID: "gems"),
    ])
    #expect(
      errors.map { $0.prefix(15) } == ["input.jsonl:1: ", "input.jsonl:2: ", "input.jsonl:3: "])
  }
}
