import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Money as Google states it (issue 35, items 2 and 3): `Order` documents price charges,
/// charges say which store charged them and where, partial refunds revoke packs, and a refund
/// review is a refund request.
@Suite("Google Play import: orders, proceeds, partial refunds and refund reviews")
struct GooglePlayMoneyTests {
  typealias G = GP

  /// An `orders.get` response for `order`: 5.94 EUR paid, 0.95 tax, 4.24 to the developer.
  static func orderDocument(
    _ token: String = G.tokenA, order: String = G.orderA, product: String = "pro",
    country: String = "DE", fetched: String? = nil
  ) -> String {
    let fetch = fetched.map { #","fetchTime":"\#($0)""# } ?? ""
    return
      #"{"orderId":"\#(order)","purchaseToken":"\#(token)","state":"PROCESSED","createTime":"2026-01-01T10:00:00Z"\#(fetch),"lineItems":[{"productId":"\#(product)","productTitle":"Pro","total":{"currencyCode":"EUR","units":"5","nanos":940000000},"tax":{"currencyCode":"EUR","units":"0","nanos":950000000}}],"total":{"currencyCode":"EUR","units":"5","nanos":940000000},"tax":{"currencyCode":"EUR","units":"0","nanos":950000000},"developerRevenueInBuyerCurrency":{"currencyCode":"EUR","units":"4","nanos":240000000},"buyerAddress":{"buyerCountry":"\#(country)"}}"#
  }

  /// Imports `runs` one after another as `--append` does; returns the log's lines and the
  /// warnings of the last run.
  private func appendRuns(_ runs: [[String]]) throws -> (log: [String], warnings: [String]) {
    var log: [String] = []
    var store: [UInt8] = []
    var warnings: [String] = []
    for run in runs {
      let result = try GooglePlayImporter.importEvents(
        run.joined(separator: "\n"), file: "run.jsonl", catalog: G.catalog,
        options: GooglePlayImportOptions(),
        knowledge: LedgerKnowledge.read(log: Array(log.joined(separator: "\n").utf8)),
        documentStore: store)
      log += result.eventLines
      store += Array(result.documentLines.map { $0 + "\n" }.joined().utf8)
      warnings = result.warnings.map(\.description)
      #expect(ContractCheck.problems(log, catalog: G.catalog).isEmpty)
    }
    return (log, warnings)
  }

  /// The charge of `order` in `log`.
  private func charge(_ log: [String], id: String) -> JSONValue? {
    log.compactMap { try? JSONValue.parse($0) }.first { $0["id"]?.stringValue == id }
  }

  @Test(
    "an order document prices its charge with total, proceeds and buyer country, in one import, as a batchget element or kept from an earlier run; arriving after the charge it prices nothing and says so",
    arguments: [0, 1, 2, 3])
  func orderPrices(arrangement: Int) throws {
    // An offer's line item without offerPhase: recurringPrice would not price it.
    let resource = G.subscription(expiry: "2026-02-01T10:00:00Z", phase: nil, offer: "intro-3m")
    let order = Self.orderDocument()
    let runs: [[String]] = [
      [[resource, order]], [[resource, #"{"orders":[\#(order)]}"#]], [[order], [resource]],
      [[resource], [order]],
    ][arrangement]
    let (log, warnings) = try appendRuns(runs)
    let event = try #require(charge(log, id: "googleplay:\(G.orderA):purchase"))
    let isPriced = arrangement != 3
    #expect(event["price"] == (isPriced ? .integer(5940) : nil))
    #expect(event["currency"] == (isPriced ? .string("EUR") : nil))
    #expect(event["proceeds"] == (isPriced ? .integer(4240) : nil))
    #expect(event["country"] == (isPriced ? .string("DE") : nil))
    #expect(event["meta"]?["tax"] == (isPriced ? .integer(950) : nil))
    #expect(event["store"] == .string("googleplay"))
    let late = warnings.filter { $0.contains("does not price it") }
    #expect(late.count == (arrangement == 3 ? 1 : 0))
    #expect(late.allSatisfy { $0.contains("'\(G.orderA)'") })
  }

  @Test("an order document for another order or product prices nothing; proceeds above the price are left out")
  func orderMismatch() throws {
    let resource = G.subscription(expiry: "2026-02-01T10:00:00Z", phase: "basePrice")
    let other = Self.orderDocument(order: G.orderB)
    let (log, _) = try appendRuns([[resource, other]])
    let event = try #require(charge(log, id: "googleplay:\(G.orderA):purchase"))
    // recurringPrice (basePrice phase) prices it, not the other order's document.
    #expect(event["price"] == .integer(4990))
    #expect(event["proceeds"] == nil)
    let greedy = Self.orderDocument().replacingOccurrences(
      of: #""units":"4","nanos":240000000"#, with: #""units":"7","nanos":0"#)
    let (second, _) = try appendRuns([[resource, greedy]])
    let priced = try #require(charge(second, id: "googleplay:\(G.orderA):purchase"))
    #expect(priced["price"] == .integer(5940))
    #expect(priced["proceeds"] == nil)
  }

  @Test("a one-time purchase is priced by its order document and every charge says store googleplay")
  func productPriced() throws {
    let order = "GPA.3301-0001-0002-00003"
    let (log, _) = try appendRuns([
      [G.product(quantity: 2), Self.orderDocument(G.tokenC, order: order, product: "coins")]
    ])
    let event = try #require(charge(log, id: "googleplay:\(order):purchase"))
    #expect(event["price"] == .integer(5940))
    #expect(event["proceeds"] == .integer(4240))
    #expect(event["store"] == .string("googleplay"))
    let (unpriced, _) = try appendRuns([[G.product(quantity: 2)]])
    #expect(try #require(charge(unpriced, id: "googleplay:\(order):purchase"))["price"] == nil)
  }

  @Test(
    "regionCode gives a subscription charge its country when no order document does; anything but two uppercase letters is left out",
    arguments: [("DE", "DE"), ("de", nil), ("DEU", nil)] as [(String, String?)])
  func regionCode(code: String, country: String?) throws {
    let resource = G.subscription(expiry: "2026-02-01T10:00:00Z").replacingOccurrences(
      of: #""subscriptionState""#, with: #""regionCode":"\#(code)","subscriptionState""#)
    let (log, _) = try appendRuns([[resource]])
    let event = try #require(charge(log, id: "googleplay:\(G.orderA):purchase"))
    #expect(event["country"] == country.map(JSONValue.string))
  }

  /// A voided purchases list entry of a quantity-based partial refund.
  static func partialRefund(quantity: Int?) -> String {
    let voided = quantity.map { #","voidedQuantity":\#($0)"# } ?? ""
    return
      #"{"voidedPurchases":[{"purchaseToken":"\#(G.tokenC)","voidedTimeMillis":"\#(ImportFixtures.ms("2026-02-03T12:00:00Z"))","orderId":"GPA.3301-0001-0002-00003","voidedSource":0,"voidedReason":1,"refundType":2\#(voided)}]}"#
  }

  @Test(
    "a quantity-based partial refund of a consumable revokes the packs it gave back; one the ledger cannot size revokes nothing and says why",
    arguments: [(3, 2, "coins", 2), (3, 3, "coins", 3), (3, 4, "coins", nil), (3, nil, "coins", nil),
      (1, 1, "lifetime", nil)] as [(Int, Int?, String, Int?)])
  func partialRefund(bought: Int, refunded: Int?, product: String, revoked: Int?) throws {
    let (log, warnings) = try appendRuns([
      [G.product(productID: product, quantity: bought), Self.partialRefund(quantity: refunded)]
    ])
    let revocations = log.compactMap { try? JSONValue.parse($0) }
      .filter { $0["type"] == .string("revocation") }
    #expect(revocations.map { $0["quantity"] } == (revoked.map { [.integer(Int64($0))] } ?? []))
    #expect(warnings.contains { $0.contains("partially refunded") } == (revoked == nil))
  }

  /// A refund review notification for order A, at `time`.
  static func refundReview(at time: String) -> String {
    G.push(
      G.developerNotification(
        at: time,
        member: #""pendingRefundReviewNotification":{"purchaseToken":"\#(G.tokenA)","orderId":"\#(G.orderA)","pendingRefundToken":"prt-1"}"#
      ))
  }

  @Test(
    "a refund review is a refund_requested of its order at the notification's time, answer due 24 hours later, waiting for its purchase when it comes first",
    arguments: [0, 1])
  func refundReviewRequests(arrangement: Int) throws {
    let resource = G.subscription(expiry: "2026-02-01T10:00:00Z")
    let review = Self.refundReview(at: "2026-01-05T08:00:00Z")
    let runs: [[String]] = [[[resource, review]], [[review], [resource]]][arrangement]
    let (log, _) = try appendRuns(runs)
    let requests = log.compactMap { try? JSONValue.parse($0) }
      .filter { $0["type"] == .string("refund_requested") }
    #expect(requests.count == 1)
    #expect(requests.first?["transaction"] == .string(G.orderA))
    #expect(requests.first?["at"] == .string("2026-01-05T08:00:00Z"))
    #expect(requests.first?["respond_by"] == .string("2026-01-06T08:00:00Z"))
    #expect(requests.first?["subject"] == .string(G.account))
    // Kept for `storeledger evidence`'s orders.reviewrefund body.
    #expect(requests.first?["meta"]?["pendingRefundToken"] == .string("prt-1"))
  }
}

/// `acknowledgementState`: Google refunds purchases not acknowledged within three days.
@Suite("Google Play import: unacknowledged purchases")
struct GooglePlayAcknowledgementTests {
  typealias G = GP

  @Test(
    "a copy fetched three days or more after the start and still not acknowledged is warned about, once; before, or acknowledged, not",
    arguments: [
      ("ACKNOWLEDGEMENT_STATE_PENDING", "2026-01-04T09:59:59.999Z", false),
      ("ACKNOWLEDGEMENT_STATE_PENDING", "2026-01-04T10:00:00Z", true),
      ("ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED", "2026-01-20T10:00:00Z", false),
    ] as [(String, String, Bool)])
  func unacknowledged(state: String, fetched: String, isWarned: Bool) throws {
    let resource = G.subscription(expiry: "2026-02-01T10:00:00Z", fetched: fetched)
      .replacingOccurrences(
        of: #""subscriptionState""#, with: #""acknowledgementState":"\#(state)","subscriptionState""#)
    let result = try #require(G.importEvents([resource, resource]))
    let warned = result.warnings.filter { $0.description.contains("not acknowledged") }
    #expect(warned.count == (isWarned ? 1 : 0))
    #expect(result.eventLines.count == 1)
  }
}
