import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// One test per row of the mapping table in Docs/import-googleplay.md.
@Suite("Google Play import: the mapping table")
struct GooglePlayImportMappingTests {
  typealias G = GP
  let renewal0 = GP.orderA + "..0"
  let renewal1 = GP.orderA + "..1"

  @Test(
    "SUBSCRIPTION_PURCHASED with its resource: a purchase at startTime until expiryTime, on the account id"
  )
  func purchased() throws {
    let result = G.importEvents([
      G.notification(4, at: "2026-01-01T10:00:00Z"),
      G.subscription(start: "2026-01-01T10:00:00.250Z", expiry: "2026-02-01T10:00:00Z"),
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):purchase"])
    #expect(event["type"] == .string("purchase"))
    #expect(event["subject"] == .string(G.account))
    #expect(event["at"] == .string("2026-01-01T10:00:00.250Z"))
    #expect(event["expires"] == .string("2026-02-01T10:00:00Z"))
    #expect(event["product"] == .string("pro:monthly"))
    #expect(event["transaction"] == .string(G.orderA))
    #expect(event["original_transaction"] == .string(G.tokenA))
    #expect(event["price"] == .integer(4990))
    #expect(event["currency"] == .string("EUR"))
    #expect(event["meta"]?["environment"] == .string("production"))
    #expect(event["meta"]?["basePlanId"] == .string("monthly"))
    #expect(result?.eventLines.count == 1)
  }

  @Test("a line item maps to PRODUCT_ID:BASE_PLAN_ID when the catalog has it, else to PRODUCT_ID")
  func productResolution() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z", product: "plus", plan: "p1m")
    ])
    #expect(G.events(result)["googleplay:\(G.orderA):purchase"]?["product"] == .string("plus"))
  }

  @Test(
    "offer phases: a free trial is `trial`, an introductory price `intro`, the base price carries the price",
    arguments: [
      ("freeTrial", "trial", false), ("introductoryPrice", "intro", false),
      ("basePrice", nil, true), ("prorationPeriod", nil, false),
    ] as [(String, String?, Bool)])
  func offers(phase: String, offer: String?, hasPrice: Bool) throws {
    let result = G.importEvents([G.subscription(expiry: "2026-02-01T10:00:00Z", phase: phase)])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):purchase"])
    #expect(event["offer"]?.stringValue == offer)
    #expect((event["price"] != nil) == hasPrice)
  }

  @Test("SUBSCRIPTION_RENEWED: the renewal order ..N begins at the notification's event time")
  func renewed() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(2, at: "2026-02-01T10:00:03Z"),
      G.subscription(order: renewal0, expiry: "2026-03-01T10:00:03Z"),
    ])
    let event = try #require(G.events(result)["googleplay:\(renewal0):renewal"])
    #expect(event["type"] == .string("renewal"))
    #expect(event["at"] == .string("2026-02-01T10:00:03Z"))
    #expect(event["expires"] == .string("2026-03-01T10:00:03Z"))
    #expect(event["original_transaction"] == .string(G.tokenA))
    #expect(result?.warnings.isEmpty == true)
  }

  @Test(
    "a renewal begins at its notification's time; without the order before it, it waits for that order"
  )
  func renewedFromNotification() throws {
    let renewal = [
      G.notification(2, at: "2026-02-01T10:00:03Z"),
      G.subscription(order: renewal0, expiry: "2026-03-01T10:00:03Z"),
    ]
    let waiting = G.importEvents(renewal)
    #expect(waiting?.eventLines.isEmpty == true)
    #expect(waiting?.waitingDocuments == 2)
    let result = G.importEvents([G.subscription(expiry: "2026-02-01T10:00:00Z")] + renewal)
    #expect(
      G.events(result)["googleplay:\(renewal0):renewal"]?["at"] == .string("2026-02-01T10:00:03Z"))
  }

  @Test(
    "a renewal without its notification waits for it (where the previous period ended is only a guess); the order before it is imported"
  )
  func renewalWaitsForItsNotification() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.subscription(order: renewal0, expiry: "2026-03-01T10:00:00Z"),
    ])
    #expect(G.events(result)["googleplay:\(G.orderA):purchase"] != nil)
    #expect(G.events(result)["googleplay:\(renewal0):renewal"] == nil)
    #expect(result?.waitingDocuments == 1)
    #expect(result?.warnings.first?.message.contains("no SUBSCRIPTION_RENEWED/RECOVERED") == true)
  }

  @Test("a renewal known from its resource alone imports nothing until its notification comes")
  func renewedAlone() throws {
    let result = G.importEvents([G.subscription(order: renewal1, expiry: "2026-03-01T10:00:00Z")])
    #expect(result?.eventLines.isEmpty == true)
    #expect(result?.waitingDocuments == 1)
    #expect(result?.warnings.first?.message.contains("no SUBSCRIPTION_RENEWED/RECOVERED") == true)
  }

  @Test(
    "SUBSCRIPTION_IN_GRACE_PERIOD: grace_entered at the period end, until the grace resource's expiryTime"
  )
  func inGrace() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(6, at: "2026-02-01T10:00:05Z"),
      G.subscription(state: "IN_GRACE_PERIOD", expiry: "2026-02-08T10:00:00Z"),
    ])
    let events = G.events(result)
    let grace = try #require(events["googleplay:\(G.orderA):grace_entered"])
    #expect(grace["at"] == .string("2026-02-01T10:00:00Z"))
    #expect(grace["grace_expires"] == .string("2026-02-08T10:00:00Z"))
    // The grace copy's expiryTime is the end of grace, not of the paid period.
    #expect(
      events["googleplay:\(G.orderA):purchase"]?["expires"] == .string("2026-02-01T10:00:00Z"))
  }

  @Test(
    "a grace resource alone: the charge and the grace wait for a copy in the charged state, which settles the period end"
  )
  func graceOnlyResource() throws {
    let grace = [
      G.notification(6, at: "2026-02-01T10:00:05Z"),
      G.subscription(state: "IN_GRACE_PERIOD", expiry: "2026-02-08T10:00:00Z"),
    ]
    let waiting = G.importEvents(grace)
    #expect(waiting?.eventLines.isEmpty == true)
    #expect(waiting?.waitingDocuments == 2)
    let settled = G.events(G.importEvents(grace + [G.subscription(expiry: "2026-02-01T10:00:00Z")]))
    #expect(
      settled["googleplay:\(G.orderA):grace_entered"]?["at"] == .string("2026-02-01T10:00:00Z"))
    #expect(
      settled["googleplay:\(G.orderA):grace_entered"]?["grace_expires"]
        == .string("2026-02-08T10:00:00Z"))
  }

  @Test(
    "grace without a resource fetched in grace: nothing for the grace yet (it waits for that copy), a warning"
  )
  func graceWithoutEnd() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(6, at: "2026-02-01T10:00:05Z"),
    ])
    #expect(result?.eventLines.count == 1)
    #expect(result?.waitingDocuments == 1)
    #expect(
      result?.warnings.contains { $0.message.contains("no resource fetched in grace") } == true)
  }

  @Test("SUBSCRIPTION_ON_HOLD: billing_retry when the hold began, never before the period end")
  func onHold() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(5, at: "2026-02-08T10:00:00Z"),
      G.subscription(state: "ON_HOLD", expiry: "2026-02-01T10:00:00Z"),
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):billing_retry"])
    #expect(event["type"] == .string("billing_retry"))
    #expect(event["at"] == .string("2026-02-08T10:00:00Z"))
  }

  @Test("SUBSCRIPTION_RECOVERED: the recovering order is a renewal from the recovery")
  func recovered() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(5, at: "2026-02-01T10:00:05Z"),
      G.subscription(state: "ON_HOLD", expiry: "2026-02-01T10:00:00Z"),
      G.notification(1, at: "2026-02-04T09:00:00Z"),
      G.subscription(order: renewal0, expiry: "2026-03-04T09:00:00Z"),
    ])
    let events = G.events(result)
    #expect(events["googleplay:\(renewal0):renewal"]?["at"] == .string("2026-02-04T09:00:00Z"))
    #expect(
      events["googleplay:\(G.orderA):billing_retry"]?["at"] == .string("2026-02-01T10:00:05Z"))
  }

  @Test(
    "SUBSCRIPTION_CANCELED: one auto_renew_changed false, at the user's cancelTime when a copy carries it, else at the notification's time",
    arguments: [
      (true, ["2026-01-20T08:00:00.123Z"]), (false, ["2026-01-20T08:00:02Z"]),
    ])
  func canceled(withCancelTime: Bool, expected: [String]) throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(3, at: "2026-01-20T08:00:02Z"),
      G.subscription(
        state: "CANCELED", expiry: "2026-02-01T10:00:00Z",
        cancel: withCancelTime
          ? G.userCancel(at: "2026-01-20T08:00:00.123456Z")
          : #"{"systemInitiatedCancellation":{}}"#,
        autoRenew: false),
    ])
    let events = (result?.eventLines ?? []).compactMap { try? JSONValue.parse($0) }
      .filter { $0["type"] == .string("auto_renew_changed") }
    #expect(events.allSatisfy { $0["auto_renew"] == .bool(false) })
    #expect(events.compactMap { $0["at"]?.stringValue } == expected)
  }

  @Test("SUBSCRIPTION_RESTARTED: auto_renew_changed true when the user undid the cancellation")
  func restarted() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(7, at: "2026-01-25T08:00:00Z"),
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):auto_renew_changed"])
    #expect(event["auto_renew"] == .bool(true))
    #expect(event["at"] == .string("2026-01-25T08:00:00Z"))
  }

  @Test("SUBSCRIPTION_EXPIRED after a user cancellation: expiration (voluntary) at the period end")
  func expiredVoluntary() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(13, at: "2026-02-01T10:00:09Z"),
      G.subscription(
        state: "EXPIRED", expiry: "2026-02-01T10:00:00Z",
        cancel: G.userCancel(at: "2026-01-20T08:00:00Z"),
        autoRenew: false),
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):expiration"])
    #expect(event["reason"] == .string("voluntary"))
    #expect(event["at"] == .string("2026-02-01T10:00:00Z"))
  }

  @Test("SUBSCRIPTION_EXPIRED after account hold: expiration (billing) when Google gave up")
  func expiredAfterHold() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(5, at: "2026-02-01T10:00:05Z"),
      G.notification(13, at: "2026-03-01T10:00:00Z"),
      G.subscription(
        state: "EXPIRED", expiry: "2026-02-01T10:00:00Z",
        cancel: #"{"systemInitiatedCancellation":{}}"#),
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):expiration"])
    #expect(event["reason"] == .string("billing"))
    #expect(event["at"] == .string("2026-03-01T10:00:00Z"))
  }

  @Test(
    "SUBSCRIPTION_REVOKED alone revokes nothing: skipped and warned about, the subscription keeps its access"
  )
  func revokedUntrusted() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(12, at: "2026-01-15T10:00:00Z"),
    ])
    #expect(G.events(result)["googleplay:\(G.orderA):revocation"] == nil)
    #expect(result?.skipped["SUBSCRIPTION_REVOKED untrusted"] == 1)
    #expect(result?.warnings.contains { $0.message.contains("voidedpurchases.list") } == true)
    #expect(G.events(result)["googleplay:\(G.orderA):purchase"] != nil)
  }

  @Test(
    "SUBSCRIPTION_REVOKED with notifications trusted: a revocation (refund) of the current order at the event time"
  )
  func revoked() throws {
    let result = G.importEvents(
      [
        G.subscription(expiry: "2026-02-01T10:00:00Z"),
        G.notification(12, at: "2026-01-15T10:00:00Z"),
      ], trustsNotifications: true)
    let event = try #require(G.events(result)["googleplay:\(G.orderA):revocation"])
    #expect(event["transaction"] == .string(G.orderA))
    #expect(event["reason"] == .string("refund"))
    #expect(event["at"] == .string("2026-01-15T10:00:00Z"))
  }

  @Test(
    "a revoked subscription's expired copy (ended before its period) is its revocation at that expiryTime, no expiration, and neither shortens nor extends the paid period"
  )
  func revokedCopy() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(12, at: "2026-01-15T10:00:00Z"),
      G.subscription(
        state: "EXPIRED", expiry: "2026-01-15T10:00:00Z",
        cancel: #"{"developerInitiatedCancellation":{}}"#,
        autoRenew: false),
    ])
    let events = G.events(result)
    #expect(
      events["googleplay:\(G.orderA):purchase"]?["expires"] == .string("2026-02-01T10:00:00Z"))
    // The copy ends access as the revocation the voided purchase also tells (one id); an
    // expiration there too would fold before or after it as the documents came.
    #expect(events["googleplay:\(G.orderA):expiration"] == nil)
    #expect(events.keys.contains { $0.contains("renewal_extended") } == false)
    #expect(events["googleplay:\(G.orderA):revocation"]?["at"] == .string("2026-01-15T10:00:00Z"))
    #expect(events.count == 2)
  }

  @Test(
    "a voided purchase: revocation at voidedTimeMillis with the reason in meta; with SUBSCRIPTION_REVOKED still one event"
  )
  func voided() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(12, at: "2026-01-15T10:00:02Z"),
      G.push(
        G.developerNotification(
          at: "2026-01-15T10:00:01Z",
          member:
            #""voidedPurchaseNotification":{"purchaseToken":"\#(G.tokenA)","orderId":"\#(G.orderA)","productType":1,"refundType":1}"#
        )),
      G.voidedList(G.tokenA, order: G.orderA, at: "2026-01-15T10:00:00Z", reason: 5, source: 2),
    ])
    let revocations = result?.eventLines.filter { $0.contains(#""type":"revocation""#) } ?? []
    #expect(revocations.count == 1)
    let event = try #require(G.events(result)["googleplay:\(G.orderA):revocation"])
    #expect(event["at"] == .string("2026-01-15T10:00:00Z"))
    #expect(event["subject"] == .string(G.account))
    #expect(event["meta"]?["voidedReason"] == .string("fraud"))
    #expect(event["meta"]?["voidedSource"] == .string("google"))
  }

  @Test(
    "a voidedPurchaseNotification alone revokes nothing unless notifications are trusted",
    arguments: [false, true])
  func voidedNotificationTrust(trusted: Bool) throws {
    let lines = [
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.push(
        G.developerNotification(
          at: "2026-01-15T10:00:01Z",
          member:
            #""voidedPurchaseNotification":{"purchaseToken":"\#(G.tokenA)","orderId":"\#(G.orderA)","productType":1,"refundType":1}"#
        )),
    ]
    let result = G.importEvents(lines, trustsNotifications: trusted)
    let revocation = G.events(result)["googleplay:\(G.orderA):revocation"]
    var engine = QueryEngine(
      ledger: try ledger(result?.eventLines.joined(separator: "\n") ?? "", catalogText: G.catalogText))
    let later = engine.checkedAnswer(G.account, at: "2026-01-20T00:00:00Z")
    if trusted {
      #expect(revocation?["at"] == .string("2026-01-15T10:00:01Z"))
      #expect(later.entitlements.isEmpty)
    } else {
      #expect(revocation == nil)
      #expect(result?.skipped["voidedPurchaseNotification untrusted"] == 1)
      #expect(later.entitlements.keys.sorted() == ["pro"])
    }
  }

  @Test(
    "recorded: a push's publishTime, a resource's fetchTime, else the import's clock; left out when equal to at"
  )
  func recordedTimes() throws {
    let fetched = G.subscription(expiry: "2026-02-01T10:00:00Z").replacingAll(
      #""purchaseToken":"#, with: #""fetchTime":"2026-01-01T10:00:02.5Z","purchaseToken":"#)
    let clock = try #require(Timestamp.parseRFC3339("2026-06-01T00:00:00Z"))
    let result = try GooglePlayImporter.importEvents(
      [
        fetched, G.push(G.notification(3, at: "2026-01-10T00:00:00Z")),
        G.subscription(
          state: "CANCELED", expiry: "2026-02-01T10:00:00Z", cancel: nil, autoRenew: false),
        G.notification(7, at: "2026-01-12T00:00:00Z"),
      ].joined(separator: "\n"), file: "input.jsonl", catalog: G.catalog,
      options: GooglePlayImportOptions(importedAt: clock))
    let events = G.events(result)
    #expect(events["googleplay:\(G.orderA):purchase"]?["recorded"] == .string("2026-01-01T10:00:02.500Z"))
    let changes = events.values.filter { $0["type"] == .string("auto_renew_changed") }
    let off = try #require(changes.first { $0["auto_renew"] == .bool(false) })
    let on = try #require(changes.first { $0["auto_renew"] == .bool(true) })
    #expect(off["recorded"] == .string("2026-01-10T00:00:01Z"))
    #expect(on["recorded"] == .string("2026-06-01T00:00:00Z"))
    // As known on 11 January, auto-renew was off; the restart was learned on 1 June.
    var engine = QueryEngine(
      ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: G.catalogText))
    let asKnown = engine.checkedAnswer(G.account, at: "2026-01-20T00:00:00Z", asOf: "2026-01-11T00:00:00Z")
    #expect(asKnown.plans.byName.first?.value.willRenew == false)
    #expect(engine.checkedAnswer(G.account, at: "2026-01-20T00:00:00Z").plans.byName.first?.value.willRenew == true)
  }

  @Test("a quantity-based partial refund revokes nothing: warned and counted")
  func partialRefund() throws {
    let result = G.importEvents([
      G.product(quantity: 3),
      G.voidedList(
        G.tokenC, order: "GPA.3301-0001-0002-00003", at: "2026-02-02T00:00:00Z", refundType: 2),
    ])
    #expect(result?.eventLines.count == 1)
    #expect(result?.skipped["voidedPurchase partial"] == 1)
    #expect(result?.warnings.contains { $0.message.contains("partially refunded") } == true)
  }

  @Test("SUBSCRIPTION_DEFERRED: renewal_extended at the deferral and at the old period end to the new expiryTime")
  func deferred() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(9, at: "2026-01-10T00:00:00Z"),
      G.subscription(expiry: "2026-02-15T10:00:00Z"),
    ])
    let events = G.events(result)
    // One from the notification (since when) and one from the copy (at the old end at the
    // latest), whichever came first.
    let extensions = (result?.eventLines ?? []).compactMap { try? JSONValue.parse($0) }
      .filter { $0["type"] == .string("renewal_extended") }
    #expect(
      extensions.compactMap { $0["at"]?.stringValue } == ["2026-01-10T00:00:00Z", "2026-02-01T10:00:00Z"])
    #expect(extensions.allSatisfy { $0["expires"] == .string("2026-02-15T10:00:00Z") })
    #expect(
      events["googleplay:\(G.orderA):purchase"]?["expires"] == .string("2026-02-01T10:00:00Z"))
  }

  @Test(
    "SUBSCRIPTION_PAUSED: no access from the period end (expiration, voluntary, meta paused) until a resumed renewal"
  )
  func paused() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
      G.notification(10, at: "2026-02-01T10:00:04Z"),
      G.subscription(state: "PAUSED", expiry: "2026-02-01T10:00:00Z"),
      G.notification(11, at: "2026-01-20T00:00:00Z"),
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):paused"])
    #expect(event["type"] == .string("expiration"))
    #expect(event["reason"] == .string("voluntary"))
    #expect(event["at"] == .string("2026-02-01T10:00:00Z"))
    #expect(event["meta"]?["paused"] == .bool(true))
    #expect(result?.skipped["SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED"] == 1)
  }

  @Test(
    "notification types that change no entitlement are counted in skipped",
    arguments: [
      (8, "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED"), (11, "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED"),
      (17, "SUBSCRIPTION_ITEMS_CHANGED"), (18, "SUBSCRIPTION_CANCELLATION_SCHEDULED"),
      (19, "SUBSCRIPTION_PRICE_CHANGE_UPDATED"), (20, "SUBSCRIPTION_PENDING_PURCHASE_CANCELED"),
      (22, "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED"),
    ])
  func countedOnly(type: Int, name: String) throws {
    let result = G.importEvents([
      G.notification(type, at: "2026-01-05T00:00:00Z"),
      G.notification(type, at: "2026-01-05T00:00:00Z"),
      G.subscription(expiry: "2026-02-01T10:00:00Z"),
    ])
    #expect(result?.skipped == [name: 1])
    #expect(result?.eventLines.count == 1)
    #expect(result?.warnings.isEmpty == true)
  }

  @Test(
    "test notifications and pending refund reviews are skipped and counted; unknown types are also warned about"
  )
  func testAndUnknown() throws {
    let result = G.importEvents([
      G.push(
        G.developerNotification(
          at: "2026-01-01T00:00:00Z", member: #""testNotification":{"version":"1.0"}"#)),
      G.developerNotification(
        at: "2026-01-01T00:00:00Z",
        member: #""pendingRefundReviewNotification":{"pendingRefundToken":"x"}"#),
      G.notification(42, at: "2026-01-02T00:00:00Z"),
    ])
    #expect(result?.eventLines.isEmpty == true)
    #expect(result?.skipped["testNotification"] == 1)
    #expect(result?.skipped["pendingRefundReviewNotification"] == 1)
    #expect(result?.skipped["subscriptionNotification.notificationType=42"] == 1)
    #expect(result?.unknownValues["subscriptionNotification.notificationType=42"] == 1)
    #expect(result?.warnings.count == 1)
  }

  @Test("a pending subscription purchase is purchase_pending; it grants nothing")
  func pendingSubscription() throws {
    let result = G.importEvents([
      G.subscription(state: "PENDING", order: nil, expiry: "2026-01-01T10:00:00Z")
    ])
    let event = try #require(result?.eventLines.first)
    #expect(event.contains(#""type":"purchase_pending""#))
    #expect(event.contains(#""product":"pro:monthly""#))
    #expect(result?.eventLines.count == 1)
  }

  @Test(
    "one-time products: consumables with quantity, non-consumables, pending, canceled",
    arguments: [
      ("coins", 0, "purchase", true), ("lifetime", 0, "purchase", false),
      ("coins", 2, "purchase_pending", false),
    ])
  func oneTime(productID: String, state: Int, type: String, hasQuantity: Bool) throws {
    let result = G.importEvents([
      G.push(
        G.developerNotification(
          at: "2026-02-01T12:00:00Z",
          member:
            #""oneTimeProductNotification":{"version":"1.0","notificationType":1,"purchaseToken":"\#(G.tokenC)","sku":"\#(productID)"}"#
        )),
      G.product(productID: productID, state: state, quantity: 3),
    ])
    let event = try #require(result?.eventLines.first.flatMap { try? JSONValue.parse($0) })
    #expect(event["type"] == .string(type))
    #expect(event["product"] == .string(productID))
    #expect(event["at"] == .string("2026-02-01T12:00:00Z"))
    #expect((event["quantity"] == .integer(3)) == hasQuantity)
    #expect(result?.eventLines.count == 1)
  }

  @Test("a canceled one-time purchase and ONE_TIME_PRODUCT_CANCELED grant nothing and are counted")
  func oneTimeCanceled() throws {
    let result = G.importEvents([
      G.developerNotification(
        at: "2026-02-01T12:00:00Z",
        member:
          #""oneTimeProductNotification":{"version":"1.0","notificationType":2,"purchaseToken":"\#(G.tokenC)","sku":"coins"}"#
      ),
      G.product(state: 1),
    ])
    #expect(result?.eventLines.isEmpty == true)
    #expect(result?.skipped == ["ONE_TIME_PRODUCT_CANCELED": 1, "productPurchase canceled": 1])
  }

  @Test("a promo-code purchase carries offer code")
  func promoCode() throws {
    let result = G.importEvents([G.product(productID: "lifetime", purchaseType: 1)])
    #expect(result?.eventLines.first?.contains(#""offer":"code""#) == true)
  }

  @Test(
    "a notification without its resource imports nothing and says to fetch it",
    arguments: [
      G.notification(4, at: "2026-01-01T10:00:00Z"),
      G.developerNotification(
        at: "2026-02-01T12:00:00Z",
        member:
          #""oneTimeProductNotification":{"version":"1.0","notificationType":1,"purchaseToken":"\#(GP.tokenC)","sku":"coins"}"#
      ),
    ])
  func notificationAlone(line: String) throws {
    let result = G.importEvents([line])
    #expect(result?.eventLines.isEmpty == true)
    #expect(result?.warnings.count == 1)
    #expect(result?.warnings.first?.message.contains("fetch purchases.") == true)
  }

  @Test("a prepaid plan in a non_renewing catalog product is a purchase until expiryTime")
  func prepaid() throws {
    let result = G.importEvents([
      G.subscription(expiry: "2026-01-08T10:00:00Z", product: "pass", plan: "week", phase: nil)
    ])
    let event = try #require(G.events(result)["googleplay:\(G.orderA):purchase"])
    #expect(event["expires"] == .string("2026-01-08T10:00:00Z"))
    #expect(event["original_transaction"] == nil)
  }

  @Test(
    "add-ons: one charge per line item, each its own transaction and subscription; a voided order revokes every item"
  )
  func addOns() throws {
    let base = G.subscription(expiry: "2026-02-01T10:00:00Z")
    let twoItems = base.replacingAll(
      #""lineItems":[{"#,
      with:
        #""lineItems":[{"productId":"plus","expiryTime":"2026-02-01T10:00:00Z","latestSuccessfulOrderId":"\#(G.orderA)","autoRenewingPlan":{"autoRenewEnabled":true},"offerPhase":{"basePrice":{}}},{"#
    )
    let result = G.importEvents([
      twoItems, G.voidedList(G.tokenA, order: G.orderA, at: "2026-01-20T00:00:00Z", reason: 1),
    ])
    let events = G.events(result)
    let pro = try #require(events["googleplay:\(G.orderA)#pro:purchase"])
    let plus = try #require(events["googleplay:\(G.orderA)#plus:purchase"])
    #expect(pro["transaction"] == .string(G.orderA + "#pro"))
    #expect(plus["transaction"] == .string(G.orderA + "#plus"))
    #expect(pro["original_transaction"] == .string(G.tokenA + "#pro"))
    #expect(plus["original_transaction"] == .string(G.tokenA + "#plus"))
    #expect(plus["meta"]?["addOnProduct"] == .string("plus"))
    #expect(plus["meta"]?["purchaseToken"] == .string(G.tokenA))
    #expect(events["googleplay:\(G.orderA)#pro:revocation"]?["transaction"] == .string(G.orderA + "#pro"))
    #expect(events["googleplay:\(G.orderA)#plus:revocation"] != nil)
    var engine = QueryEngine(
      ledger: try ledger(result?.eventLines.joined(separator: "\n") ?? "", catalogText: G.catalogText))
    let before = engine.checkedAnswer(G.account, at: "2026-01-10T00:00:00Z")
    #expect(before.entitlements.keys.sorted() == ["plus", "pro"])
    #expect(engine.checkedAnswer(G.account, at: "2026-01-21T00:00:00Z").entitlements.isEmpty)
  }
}
