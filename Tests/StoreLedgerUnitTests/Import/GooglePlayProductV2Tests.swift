import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Google's `ProductPurchaseV2` (`purchases.productsv2.getproductpurchasev2`, one-time products
/// with purchase options, rentals): a purchase per line item, test purchases and refunds as for
/// `ProductPurchase` (issue 35, item 5). Written from the field names of Google's reference.
@Suite("Google Play import: ProductPurchaseV2")
struct GooglePlayProductV2Tests {
  typealias G = GP

  /// Purchase tokens of one-time purchases.
  static let tokenD =
    "dmfjqkeobdanbgchpifekloa.AO-J1OxD4wQ8eR2tY6uI0oP3aS7dF1gH5jK9lZ2xC6vB0nM4qW8eR2tY6uI0oP3aS7dF1gH5jK9lZ2xC6vB0nM"
  static let tokenE =
    "epgkrlfpcebocdhdjqgflmpb.AO-J1OyE5xR9fS3uZ7vJ1pQ4bT8eG2hI6kL0mA3yD7wC1oN5rX9fS3uZ7vJ1pQ4bT8eG2hI6kL0mA3yD7wC1oN"
  static let orderD = "GPA.3340-1111-2222-33334"
  static let orderE = "GPA.3341-5555-6666-77778"

  /// A line item of a `ProductPurchaseV2`.
  static func item(
    _ productID: String, quantity: Int? = nil, offer: String? = nil, option: String? = "buy", rental: Bool = false
  ) -> String {
    var details: [String] = []
    if let offer { details.append(#""offerId":"\#(offer)""#) }
    if let option { details.append(#""purchaseOptionId":"\#(option)""#) }
    if let quantity { details.append(#""quantity":\#(quantity),"refundableQuantity":\#(quantity)"#) }
    if rental { details.append(#""rentOfferDetails":{}"#) }
    details.append(#""consumptionState":"CONSUMPTION_STATE_YET_TO_BE_CONSUMED""#)
    return #"{"productId":"\#(productID)","productOfferDetails":{\#(details.joined(separator: ","))}}"#
  }

  /// A stored `purchases.productsv2.getproductpurchasev2` result.
  static func resource(
    _ token: String = tokenD, order: String? = orderD, items: [String] = [item("coins", quantity: 3)],
    state: String = "PURCHASED", completed: String? = "2026-03-01T09:30:00Z", fetched: String? = "2026-03-01T09:30:05Z",
    test: Bool = false, region: String? = nil, acknowledgement: String = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
    account: String? = GP.account
  ) -> String {
    var resource =
      #""kind":"androidpublisher#productPurchaseV2","productLineItem":[\#(items.joined(separator: ","))],"purchaseStateContext":{"purchaseState":"\#(state)"},"acknowledgementState":"\#(acknowledgement)""#
    if let order { resource += #","orderId":"\#(order)""# }
    if let completed { resource += #","purchaseCompletionTime":"\#(completed)""# }
    if test { resource += #","testPurchaseContext":{"fopType":"TEST"}"# }
    if let region { resource += #","regionCode":"\#(region)""# }
    if let account { resource += #","obfuscatedExternalAccountId":"\#(account)""# }
    let fetch = fetched.map { #","fetchTime":"\#($0)""# } ?? ""
    return #"{"packageName":"com.example.app","purchaseToken":"\#(token)"\#(fetch),"productPurchaseV2":{\#(resource)}}"#
  }

  /// A `voidedpurchases.list` response with one entry, fetched at `fetched`.
  static func voided(
    _ token: String, order: String, at time: String, refundType: Int? = nil, quantity: Int? = nil,
    fetched: String = "2026-03-06T00:00:00Z"
  ) -> String {
    let partial = (refundType.map { #","refundType":\#($0)"# } ?? "") + (quantity.map { #","voidedQuantity":\#($0)"# } ?? "")
    return
      #"{"fetchTime":"\#(fetched)","voidedPurchases":[{"kind":"androidpublisher#voidedPurchase","purchaseToken":"\#(token)","purchaseTimeMillis":"1772357400000","voidedTimeMillis":"\#(ImportFixtures.ms(time))","orderId":"\#(order)","voidedSource":1,"voidedReason":1\#(partial)}]}"#
  }

  /// The documents of the property scenario (`ImportPropertyTests`): a consumable bought with an
  /// offer and partly refunded, two products in one order voided together, a week's rental.
  static let story: [String] = [
    resource(items: [item("coins", quantity: 3, offer: "spring-sale")], region: "FR"),
    resource(
      tokenE, order: orderE, items: [item("lifetime"), item("coins", quantity: 2)],
      completed: "2026-03-02T10:00:00Z", fetched: "2026-03-02T10:00:04Z"),
    resource(
      G.tokenC, order: "GPA.3342-0000-1111-22223", items: [item("pass", option: "week", rental: true)],
      completed: "2026-03-03T08:00:00Z", fetched: "2026-03-03T08:00:02Z"),
    voided(tokenD, order: orderD, at: "2026-03-04T12:00:00Z", refundType: 2, quantity: 1),
    voided(tokenE, order: orderE, at: "2026-03-05T12:00:00Z"),
  ]

  @Test("a ProductPurchaseV2 line item is a purchase at purchaseCompletionTime with its quantity, offer, purchase option and country")
  func purchase() throws {
    let result = try #require(G.importEvents([Self.resource(items: [Self.item("coins", quantity: 3, offer: "spring-sale")], region: "FR")]))
    #expect(result.eventLines.count == 1)
    let event = try #require(G.events(result)["googleplay:\(Self.orderD):purchase"])
    #expect(event["type"] == .string("purchase"))
    #expect(event["at"] == .string("2026-03-01T09:30:00Z"))
    #expect(event["recorded"] == .string("2026-03-01T09:30:05Z"))
    #expect(event["subject"] == .string(GP.account))
    #expect(event["product"] == .string("coins"))
    #expect(event["quantity"] == .integer(3))
    #expect(event["transaction"] == .string(Self.orderD))
    #expect(event["country"] == .string("FR"))
    #expect(event["store"] == .string("googleplay"))
    #expect(event["meta"]?["offerId"] == .string("spring-sale"))
    #expect(event["meta"]?["purchaseOptionId"] == .string("buy"))
    #expect(event["meta"]?["environment"] == .string("production"))
    #expect(event["meta"]?["purchaseToken"] == .string(Self.tokenD))
    // What changes between copies of one purchase stays out of its line.
    #expect(event["meta"]?["consumptionState"] == nil)
    #expect(event["meta"]?["acknowledgementState"] == nil)
  }

  @Test("a ProductPurchase and a ProductPurchaseV2 of one purchase give the same line: one charge, whichever was fetched")
  func sameAsVersionOne() throws {
    let v1 = G.product(Self.tokenD, order: Self.orderD, at: "2026-03-01T09:30:00Z", quantity: 3)
    let v2 = Self.resource(items: [Self.item("coins", quantity: 3, option: nil)], fetched: nil)
    let one = try #require(G.importEvents([v1]))
    let two = try #require(G.importEvents([v2]))
    let both = try #require(G.importEvents([v2, v1]))
    #expect(one.eventLines == two.eventLines)
    #expect(both.eventLines == one.eventLines)
  }

  @Test("several line items of one order are charged as <orderId>#<productId>, and the voided order revokes each")
  func severalItems() throws {
    let resource = Self.resource(
      Self.tokenE, order: Self.orderE, items: [Self.item("lifetime"), Self.item("coins", quantity: 2)])
    let result = try #require(G.importEvents([resource, Self.voided(Self.tokenE, order: Self.orderE, at: "2026-03-05T12:00:00Z")]))
    let events = G.events(result)
    #expect(events["googleplay:\(Self.orderE)#lifetime:purchase"]?["transaction"] == .string(Self.orderE + "#lifetime"))
    #expect(events["googleplay:\(Self.orderE)#coins:purchase"]?["quantity"] == .integer(2))
    #expect(events["googleplay:\(Self.orderE)#lifetime:revocation"]?["at"] == .string("2026-03-05T12:00:00Z"))
    #expect(events["googleplay:\(Self.orderE)#coins:revocation"]?["at"] == .string("2026-03-05T12:00:00Z"))
    #expect(events["googleplay:\(Self.orderE):purchase"] == nil)
    #expect(result.eventLines.count == 4)
  }

  @Test("a quantity-based partial refund of a one-item consumable revokes the packs it gave back; of a several-item order it is not sized")
  func partialRefund() throws {
    let one = try #require(
      G.importEvents([Self.resource(), Self.voided(Self.tokenD, order: Self.orderD, at: "2026-03-04T12:00:00Z", refundType: 2, quantity: 1)]))
    #expect(G.events(one)["googleplay:\(Self.orderD):revocation"]?["quantity"] == .integer(1))
    let several = try #require(
      G.importEvents([
        Self.resource(Self.tokenE, order: Self.orderE, items: [Self.item("lifetime"), Self.item("coins", quantity: 2)]),
        Self.voided(Self.tokenE, order: Self.orderE, at: "2026-03-05T12:00:00Z", refundType: 2, quantity: 1),
      ]))
    #expect(several.skipped["voidedPurchase partial"] == 1)
    #expect(several.eventLines.count == 2)
  }

  @Test("a test purchase (testPurchaseContext) is refused naming the field unless test purchases are allowed")
  func testPurchase() throws {
    let refused = G.importErrors([Self.resource(test: true)])
    #expect(refused.count == 1)
    #expect(refused.first?.contains("input.jsonl:1: error: field 'productPurchaseV2.testPurchaseContext': a license tester's purchase") == true)
    let allowed = try #require(G.importEvents([Self.resource(test: true)], allowsTest: true))
    #expect(G.events(allowed)["googleplay:\(Self.orderD):purchase"]?["meta"]?["environment"] == .string("test"))
  }

  @Test("a cancelled or pending ProductPurchaseV2 grants nothing and is counted with its reason")
  func cancelledAndPending() throws {
    let cancelled = try #require(G.importEvents([Self.resource(state: "CANCELLED", completed: nil)]))
    #expect(cancelled.eventLines.isEmpty)
    #expect(cancelled.skipped == ["productPurchase canceled": 1])
    let pending = try #require(G.importEvents([Self.resource(state: "PENDING", completed: nil)]))
    #expect(pending.eventLines.isEmpty)
    #expect(pending.skipped == ["productPurchaseV2 pending (no time)": 1])
  }

  @Test("a purchased ProductPurchaseV2 without purchaseCompletionTime, or without line items, is an error naming the field")
  func missingFields() throws {
    let noTime = G.importErrors([Self.resource(completed: nil)])
    #expect(noTime == ["input.jsonl:1: error: field 'productPurchaseV2.purchaseCompletionTime' is missing; it is required in a stored ProductPurchaseV2 whose purchaseState is PURCHASED (the instant of the charge)"])
    let noItems = G.importErrors([Self.resource(items: [])])
    #expect(noItems.first?.contains("field 'productPurchaseV2.productLineItem' is missing or empty") == true)
  }

  @Test("a week's rental is the catalog's PRODUCT:PURCHASE_OPTION, a non_renewing product: it grants until the catalog's duration ends, active at the last millisecond, not at the end")
  func rental() throws {
    let rent = Self.resource(
      G.tokenC, order: "GPA.3342-0000-1111-22223", items: [Self.item("pass", option: "week", rental: true)],
      completed: "2026-03-03T08:00:00Z")
    let result = try #require(G.importEvents([rent]))
    let event = try #require(G.events(result)["googleplay:GPA.3342-0000-1111-22223:purchase"])
    #expect(event["meta"]?["rental"] == .bool(true))
    #expect(event["product"] == .string("pass:week"))
    #expect(result.warnings.isEmpty, "\(result.warnings.map(\.description))")
    var engine = QueryEngine(ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: G.catalogText))
    #expect(engine.checkedAnswer(GP.account, at: "2026-03-10T07:59:59.999Z").entitlements.keys.sorted() == ["pro"])
    #expect(engine.checkedAnswer(GP.account, at: "2026-03-10T08:00:00Z").entitlements.isEmpty)
  }

  @Test("a rental of a product the catalog sells for ever is imported with a warning that the rental's end is not known")
  func rentalOfNonConsumable() throws {
    let result = try #require(G.importEvents([Self.resource(items: [Self.item("lifetime", option: "rent", rental: true)])]))
    #expect(result.eventLines.count == 1)
    #expect(result.warnings.map(\.description).contains { $0.contains("does not say when a rental ends") })
  }

  @Test(
    "a ProductPurchaseV2 still unacknowledged when fetched three days after its purchase is warned about; a millisecond earlier it is not",
    arguments: [("2026-03-04T09:30:00Z", 1), ("2026-03-04T09:29:59.999Z", 0)])
  func unacknowledged(fetched: String, warnings: Int) throws {
    let result = try #require(
      G.importEvents([Self.resource(fetched: fetched, acknowledgement: "ACKNOWLEDGEMENT_STATE_PENDING")]))
    #expect(result.warnings.filter { $0.description.contains("not acknowledged") }.count == warnings)
  }
}
