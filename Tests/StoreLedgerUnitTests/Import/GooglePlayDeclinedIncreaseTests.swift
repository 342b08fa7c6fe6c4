import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// A Google subscription that ends because the customer never accepted a price increase
/// (Docs/import-googleplay.md, "Price increases"): the expired copy's system cancellation with
/// an increase still `OUTSTANDING` at the renewal that would charge it is an `expiration` with
/// reason `price_increase` at the period end; anything else keeps the reason it had.
@Suite("Importers: Google subscriptions ended by a price increase never accepted")
struct GooglePlayDeclinedIncreaseTests {
  typealias G = GP

  static let system = #"{"systemInitiatedCancellation":{}}"#
  static let periodEnd = "2026-02-01T10:00:00Z"
  static let gaveUp = "2026-02-01T10:00:09Z"

  /// `resource` with `details` as its line item's `priceChangeDetails` (nil: none).
  static func with(_ details: String?, _ resource: String) -> String {
    guard let details else { return resource }
    return resource.replacingOccurrences(
      of: #""autoRenewingPlan":{"#, with: #""autoRenewingPlan":{"priceChangeDetails":\#(details),"#)
  }

  /// `priceChangeDetails` in `mode` and `state`, charging 6.99 EUR at `expected` (nil: the
  /// field is absent).
  static func details(
    _ state: String, mode: String = "PRICE_INCREASE", expected: String? = periodEnd
  ) -> String {
    let time = expected.map { #","expectedNewPriceChargeTime":"\#($0)""# } ?? ""
    return #"{"newPrice":{"currencyCode":"EUR","units":"6","nanos":990000000},"priceChangeMode":"\#(mode)","priceChangeState":"\#(state)"\#(time)}"#
  }

  /// The copy fetched when the subscription expired, canceled as `cancel` says.
  static func expired(_ details: String?, cancel: String = system) -> String {
    with(details, G.subscription(
      state: "EXPIRED", expiry: periodEnd, cancel: cancel, autoRenew: false, fetched: "2026-02-01T10:00:10Z"))
  }

  /// `priceStepUpConsentDetails` in `state` with its consent deadline (nil: absent), in the
  /// place `with` puts `priceChangeDetails`.
  static func stepUp(_ state: String, deadline: String? = "2026-01-25T10:00:00Z") -> String {
    let time = deadline.map { #","consentDeadlineTime":"\#($0)""# } ?? ""
    return #"{"state":"\#(state)","newPrice":{"currencyCode":"EUR","units":"6","nanos":990000000}\#(time)}"#
  }

  /// `resource` with a price step-up `details` instead of a price change.
  static func withStepUp(_ details: String, _ resource: String) -> String {
    resource.replacingOccurrences(
      of: #""autoRenewingPlan":{"#, with: #""autoRenewingPlan":{"priceStepUpConsentDetails":\#(details),"#)
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// The details of the active copy fetched while the customer decided.
    var earlier: String? = nil
    /// The details of the expired copy.
    var atExpiry: String?
    var cancel: String = GooglePlayDeclinedIncreaseTests.system
    var reason: String
    var at: String
  }

  static let rows: [Row] = [
    Row(
      testDescription: "PRICE_INCREASE still OUTSTANDING, system cancellation, expiry at expectedNewPriceChargeTime: price_increase at the period end",
      atExpiry: details("OUTSTANDING"), reason: "price_increase", at: periodEnd),
    Row(
      testDescription: "the same, expectedNewPriceChargeTime 1 ms before the expiry: price_increase",
      atExpiry: details("OUTSTANDING", expected: "2026-02-01T09:59:59.999Z"), reason: "price_increase", at: periodEnd),
    Row(
      testDescription: "the same without expectedNewPriceChargeTime: price_increase",
      atExpiry: details("OUTSTANDING", expected: nil), reason: "price_increase", at: periodEnd),
    Row(
      testDescription: "expectedNewPriceChargeTime 1 ms after the expiry (the increase was for a later renewal): billing, when Google gave up",
      atExpiry: details("OUTSTANDING", expected: "2026-02-01T10:00:00.001Z"), reason: "billing", at: gaveUp),
    Row(
      testDescription: "the customer consented (CONFIRMED): billing",
      atExpiry: details("CONFIRMED"), reason: "billing", at: gaveUp),
    Row(
      testDescription: "the new price was charged (APPLIED): billing",
      atExpiry: details("APPLIED"), reason: "billing", at: gaveUp),
    Row(
      testDescription: "the developer withdrew the increase (CANCELED): billing",
      atExpiry: details("CANCELED"), reason: "billing", at: gaveUp),
    Row(
      testDescription: "an opt-out increase needs no consent (OPT_OUT_PRICE_INCREASE): billing",
      atExpiry: details("OUTSTANDING", mode: "OPT_OUT_PRICE_INCREASE"), reason: "billing", at: gaveUp),
    Row(
      testDescription: "a price decrease: billing",
      atExpiry: details("OUTSTANDING", mode: "PRICE_DECREASE"), reason: "billing", at: gaveUp),
    Row(
      testDescription: "no price change at all: billing",
      atExpiry: nil, reason: "billing", at: gaveUp),
    Row(
      testDescription: "the customer canceled while the increase was OUTSTANDING: voluntary at the period end",
      atExpiry: details("OUTSTANDING"), cancel: GP.userCancel(at: "2026-01-20T08:00:00Z"),
      reason: "voluntary", at: periodEnd),
    Row(
      testDescription: "only a copy fetched before the expiry showed the increase OUTSTANDING: billing",
      earlier: details("OUTSTANDING"), atExpiry: nil, reason: "billing", at: gaveUp),
  ]

  @Test("The expiration's reason and time at the edges of the rule", arguments: rows)
  func edges(_ row: Row) throws {
    let result = G.importEvents([
      G.subscription(expiry: Self.periodEnd, fetched: "2026-01-01T10:00:05Z"),
      Self.with(row.earlier, G.subscription(expiry: Self.periodEnd, fetched: "2026-01-10T00:00:00Z")),
      G.notification(13, at: Self.gaveUp),
      Self.expired(row.atExpiry, cancel: row.cancel),
    ])
    let expirations = (result?.eventLines ?? []).compactMap { try? JSONValue.parse($0) }
      .filter { $0["type"] == .string("expiration") }
    #expect(expirations.count == 1)
    #expect(expirations.first?["reason"] == .string(row.reason))
    #expect(expirations.first?["at"] == .string(row.at))
  }

  struct StepUpRow: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var details: String
    var reason: String
  }

  @Test(
    "A price step-up never consented to (priceStepUpConsentDetails, SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED) ends the same way",
    arguments: [
      StepUpRow(testDescription: "PENDING, deadline before the expiry: price_increase", details: stepUp("PENDING"), reason: "price_increase"),
      StepUpRow(
        testDescription: "PENDING, deadline at the expiry: price_increase",
        details: stepUp("PENDING", deadline: periodEnd), reason: "price_increase"),
      StepUpRow(
        testDescription: "PENDING, deadline 1 ms after the expiry: billing",
        details: stepUp("PENDING", deadline: "2026-02-01T10:00:00.001Z"), reason: "billing"),
      StepUpRow(testDescription: "PENDING without a deadline: price_increase", details: stepUp("PENDING", deadline: nil), reason: "price_increase"),
      StepUpRow(testDescription: "CONFIRMED: billing", details: stepUp("CONFIRMED"), reason: "billing"),
      StepUpRow(testDescription: "COMPLETED: billing", details: stepUp("COMPLETED"), reason: "billing"),
    ])
  func stepUps(_ row: StepUpRow) throws {
    let result = G.importEvents([
      G.subscription(expiry: Self.periodEnd, fetched: "2026-01-01T10:00:05Z"),
      G.notification(22, at: "2026-01-05T00:00:00Z"),
      G.notification(13, at: Self.gaveUp),
      Self.withStepUp(row.details, G.subscription(
        state: "EXPIRED", expiry: Self.periodEnd, cancel: Self.system, autoRenew: false, fetched: "2026-02-01T10:00:10Z")),
    ])
    let expiration = G.events(result)["googleplay:\(G.orderA):expiration"]
    #expect(expiration?["reason"] == .string(row.reason))
    #expect(result?.skipped["SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED"] == 1)
  }

  @Test("A priceStepUpConsentDetails of the wrong shape is refused, naming the field")
  func stepUpMalformed() {
    let resource = Self.withStepUp(
      #"{"state":"PENDING","consentDeadlineTime":"soon"}"#, G.subscription(expiry: Self.periodEnd))
    #expect(
      G.importErrors([resource]) == [
        #"input.jsonl:1: error: field 'subscriptionPurchaseV2.lineItems[0].autoRenewingPlan.priceStepUpConsentDetails.consentDeadlineTime': expected an RFC 3339 time such as 2026-03-01T12:00:00Z, found "soon""#
      ])
  }

  @Test("A declined increase does not wait for SUBSCRIPTION_EXPIRED: the expired copy alone tells where and why access ended")
  func withoutNotification() throws {
    let declined = G.events(G.importEvents([
      G.subscription(expiry: Self.periodEnd, fetched: "2026-01-01T10:00:05Z"),
      Self.expired(Self.details("OUTSTANDING")),
    ]))
    #expect(declined["googleplay:\(G.orderA):expiration"]?["reason"] == .string("price_increase"))
    // A billing expiry still waits for the time Google gave up.
    let billing = G.events(G.importEvents([
      G.subscription(expiry: Self.periodEnd, fetched: "2026-01-01T10:00:05Z"), Self.expired(nil),
    ]))
    #expect(billing["googleplay:\(G.orderA):expiration"] == nil)
  }

  @Test("A declined increase is one expiration, however many copies and notifications tell it, in any order")
  func oneFact() throws {
    let documents = Self.story
    let once = try #require(G.importEvents(documents))
    let expirations = once.eventLines.filter { $0.contains(#""type":"expiration""#) }
    #expect(expirations.count == 1)
    #expect(expirations.first?.contains(#""reason":"price_increase""#) == true)
    let reversed = try #require(G.importEvents(Array(documents.reversed()) + documents))
    #expect(G.contents(reversed.eventLines).sorted() == G.contents(once.eventLines).sorted())
  }

  /// A price increase announced, never accepted, and the subscription canceled by Google at the
  /// renewal that would have charged it, as a backend stores it (ImportPropertyTests splits,
  /// shuffles and redelivers it).
  static let story: [String] = [
    G.subscription(expiry: periodEnd, fetched: "2026-01-01T10:00:05Z"),
    G.push(G.notification(19, at: "2026-01-10T00:00:00Z")),
    with(details("OUTSTANDING"), G.subscription(expiry: periodEnd, fetched: "2026-01-10T00:00:02Z")),
    G.push(G.notification(3, at: "2026-02-01T09:59:00Z")),
    with(details("OUTSTANDING"), G.subscription(
      state: "CANCELED", expiry: periodEnd, cancel: system, autoRenew: false, fetched: "2026-02-01T09:59:02Z")),
    G.push(G.notification(13, at: gaveUp)),
    expired(details("OUTSTANDING")),
  ]
}
