import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Google Play payloads for the tests, written from the field names of Google's reference
/// (real-time developer notifications, purchases.subscriptionsv2, purchases.products,
/// voidedpurchases.list); no real Google sample payloads are available here.
package enum GP {
  /// A catalog with base-plan products (`PRODUCT:BASE_PLAN`), a plain subscription id, a
  /// prepaid plan and one-time products.
  package static let catalogText = """
    {
      "products": {
        "pro:monthly": {"type": "auto_renewable", "group": "pro", "level": 2, "entitlements": ["pro"]},
        "pro:annual":  {"type": "auto_renewable", "group": "pro", "level": 1, "entitlements": ["pro"]},
        "plus":        {"type": "auto_renewable", "group": "plus", "entitlements": ["plus"]},
        "pass:week":   {"type": "non_renewing", "duration": "P7D", "entitlements": ["pro"]},
        "lifetime":    {"type": "non_consumable", "entitlements": ["pro"]},
        "coins":       {"type": "consumable", "currency": "coins", "units": 10}
      }
    }
    """

  /// The parsed test catalog.
  package static let catalog = fixtureCatalog(catalogText)

  /// Purchase tokens of the tests: long, as Google's are.
  package static let tokenA =
    "pkgmjhbdaoklnbecfoiadgnm.AO-J1OxqY7wUu9H2bVs3K8cT1mZ4pL6nR0eF5gJ2hD7kW9aQ3sX8vB1yN4cM6tE0rU2iO5pA7lS9dG3fH8jK1z"
  package static let tokenB =
    "hnfjkeoadcmbligpbaeckdnh.AO-J1OyT4rE8wQ2zX6cV0bN5mL1kJ7hG3fD9sA4pO8iU2yT6rE0wQ5zX1cV7bN3mL9kJ5hG1fD7sA3pO9iU4yW"
  package static let tokenC =
    "aobclpkidmehfgjnnacbpeio.AO-J1OzU5tR9yW3xZ7vB1nM6kL2jH8gF4dS0aP5oI9uY3tR7eW1qZ6xC2vB8nM4kL0jH6gF2dS8aP4oI0uY5tQ"
  /// The account id the app set at purchase (`obfuscatedExternalAccountId`).
  package static let account = "user-42"
  /// The first order of token A, and its renewals.
  package static let orderA = "GPA.3312-4401-7789-10021"
  /// The first order of token B.
  package static let orderB = "GPA.3398-2210-5531-60077"

  /// A decoded DeveloperNotification about a subscription token.
  package static func notification(_ type: Int, _ token: String = tokenA, at time: String) -> String {
    #"{"version":"1.0","packageName":"com.example.app","eventTimeMillis":"\#(ImportFixtures.ms(time))","subscriptionNotification":{"version":"1.0","notificationType":\#(type),"purchaseToken":"\#(token)"}}"#
  }

  /// A decoded DeveloperNotification with another member (`"testNotification":{…}`, …).
  package static func developerNotification(at time: String, member: String) -> String {
    #"{"version":"1.0","packageName":"com.example.app","eventTimeMillis":"\#(ImportFixtures.ms(time))",\#(member)}"#
  }

  /// `decoded` as Pub/Sub pushes it: base64 in `message.data`.
  /// A Pub/Sub push of a decoded notification, published one second after its event time.
  package static func push(_ decoded: String, messageID: String = "4417203381") -> String {
    var data: [UInt8] = []
    Base64.encode(Array(decoded.utf8), into: &data)
    let eventMs = (try? JSONValue.parse(decoded))?["eventTimeMillis"]?.stringValue
      .flatMap { Int64($0) } ?? 0
    let published = Timestamp(millisecondsSinceEpoch: eventMs + 1000).rfc3339
    return
      #"{"message":{"attributes":{},"data":"\#(String(decoding: data, as: UTF8.self))","messageId":"\#(messageID)","publishTime":"\#(published)"},"subscription":"projects/app/subscriptions/rtdn"}"#
  }

  /// Event lines without `recorded`: what they say, whatever document said it first.
  package static func contents(_ lines: [String]) -> [String] {
    lines.map { line in
      guard case .object(let members)? = try? JSONValue.parse(line) else { return line }
      return JSONWriter.compact(.object(members.filter { $0.0 != "recorded" }))
    }
  }

  /// A stored `purchases.subscriptionsv2.get` result with one line item.
  package static func subscription(
    _ token: String = tokenA, state: String = "ACTIVE", order: String? = orderA,
    start: String = "2026-01-01T10:00:00Z", expiry: String, product: String = "pro",
    plan: String? = "monthly", linked: String? = nil, account: String? = GP.account,
    cancel: String? = nil, test: Bool = false, phase: String? = "basePrice",
    autoRenew: Bool = true, offer: String? = nil, fetched: String? = nil
  ) -> String {
    var item = #""productId":"\#(product)","expiryTime":"\#(expiry)""#
    if let order { item += #","latestSuccessfulOrderId":"\#(order)""# }
    item +=
      #","autoRenewingPlan":{"autoRenewEnabled":\#(autoRenew),"recurringPrice":{"currencyCode":"EUR","units":"4","nanos":990000000}}"#
    let offerID = offer.map { #","offerId":"\#($0)""# } ?? ""
    if let plan {
      item += #","offerDetails":{"basePlanId":"\#(plan)"\#(offerID),"offerTags":["tag"]}"#
    }
    if let phase { item += #","offerPhase":{"\#(phase)":{}}"# }
    var resource =
      #""kind":"androidpublisher#subscriptionPurchaseV2","startTime":"\#(start)","subscriptionState":"SUBSCRIPTION_STATE_\#(state)","lineItems":[{\#(item)}]"#
    if let order { resource += #","latestOrderId":"\#(order)""# }
    if let linked { resource += #","linkedPurchaseToken":"\#(linked)""# }
    if let account {
      resource += #","externalAccountIdentifiers":{"obfuscatedExternalAccountId":"\#(account)"}"#
    }
    if let cancel { resource += #","canceledStateContext":\#(cancel)"# }
    if test { resource += #","testPurchase":{}"# }
    let fetchTime = fetched.map { #","fetchTime":"\#($0)""# } ?? ""
    return
      #"{"packageName":"com.example.app","purchaseToken":"\#(token)"\#(fetchTime),"subscriptionPurchaseV2":{\#(resource)}}"#
  }

  /// `canceledStateContext` of a user who canceled at `time`.
  package static func userCancel(at time: String) -> String {
    #"{"userInitiatedCancellation":{"cancelSurveyResult":{"reason":"CANCEL_SURVEY_REASON_OTHERS"},"cancelTime":"\#(time)"}}"#
  }

  /// A stored `purchases.products.get` result.
  package static func product(
    _ token: String = tokenC, productID: String = "coins",
    order: String? = "GPA.3301-0001-0002-00003",
    at time: String = "2026-02-01T12:00:00Z", state: Int = 0, quantity: Int? = nil,
    purchaseType: Int? = nil, account: String? = GP.account
  ) -> String {
    var resource =
      #""kind":"androidpublisher#productPurchase","purchaseTimeMillis":"\#(ImportFixtures.ms(time))","purchaseState":\#(state),"consumptionState":0"#
    if let order { resource += #","orderId":"\#(order)""# }
    if let quantity { resource += #","quantity":\#(quantity)"# }
    if let purchaseType { resource += #","purchaseType":\#(purchaseType)"# }
    if let account { resource += #","obfuscatedExternalAccountId":"\#(account)""# }
    return
      #"{"packageName":"com.example.app","purchaseToken":"\#(token)","productId":"\#(productID)","productPurchase":{\#(resource)}}"#
  }

  /// A `voidedpurchases.list` response with one entry.
  package static func voidedList(
    _ token: String, order: String, at time: String, reason: Int = 0, source: Int = 0,
    refundType: Int? = nil
  ) -> String {
    let refund = refundType.map { #","refundType":\#($0)"# } ?? ""
    return
      #"{"voidedPurchases":[{"kind":"androidpublisher#voidedPurchase","purchaseToken":"\#(token)","purchaseTimeMillis":"1767225600000","voidedTimeMillis":"\#(ImportFixtures.ms(time))","orderId":"\#(order)","voidedSource":\#(source),"voidedReason":\#(reason)\#(refund)}]}"#
  }

  /// Imports `lines`, failing the test when it throws, checking every line against the contract.
  package static func importEvents(
    _ lines: [String], subjects: [String: String] = [:], allowsTest: Bool = false,
    trustsNotifications: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) -> ImportResult? {
    ImportFixtures.checked(catalog: catalog, sourceLocation: sourceLocation) { () throws(DiagnosticList) in
      try GooglePlayImporter.importEvents(
        lines.joined(separator: "\n"), file: "input.jsonl", catalog: catalog,
        options: GooglePlayImportOptions(
          subjects: subjects, allowsTestPurchases: allowsTest,
          trustsNotifications: trustsNotifications))
    }
  }

  /// The errors (as printed) of an import that must fail.
  package static func importErrors(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation)
    -> [String]
  {
    do {
      let result = try GooglePlayImporter.importEvents(
        lines.joined(separator: "\n"), file: "input.jsonl", catalog: catalog,
        options: GooglePlayImportOptions())
      Issue.record("import succeeded with \(result.eventLines)", sourceLocation: sourceLocation)
      return []
    } catch {
      return error.diagnostics.filter { $0.severity == .error }.map(\.description)
    }
  }

  /// The imported events as JSON objects, by id.
  /// The events of a result by id, state events also by their id without the fact's digest
  /// (`googleplay:<order>:grace_entered` for `googleplay:<order>:grace_entered:<digest>`).
  package static func events(_ result: ImportResult?) -> [String: JSONValue] {
    var byID: [String: JSONValue] = [:]
    for line in result?.eventLines ?? [] {
      guard let value = try? JSONValue.parse(line), let id = value["id"]?.stringValue else {
        continue
      }
      byID[id] = value
      let parts = id.split(separator: ":", omittingEmptySubsequences: false)
      if parts.count == 4, parts[3].count == 12, parts[3].allSatisfy(\.isHexDigit) {
        byID[parts.dropLast().joined(separator: ":")] = value
      }
    }
    return byID
  }
}
