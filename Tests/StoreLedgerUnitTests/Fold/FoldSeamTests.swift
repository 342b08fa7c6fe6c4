import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The domain at its seam: `Resolver`, `SubjectState.apply` and `PointInTimeFold` called
/// directly with typed events (`TypedEvents`) and checked against typed expectations, no JSON
/// and no answer strings in between (Docs/semantics.md).
@Suite("The fold at its seam: Resolver, SubjectState.apply and PointInTimeFold on typed events")
struct FoldSeamTests {
  // MARK: Resolver

  @Test("subscription events take the number of their original transaction; grants their position")
  func resolverNumbersSubscriptions() throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    typed.purchase("voice.monthly", "v1", at: "2026-01-02T00:00:00Z", expires: "2026-02-02T00:00:00Z")
    typed.purchase("pass.week", "w1", at: "2026-01-03T00:00:00Z")
    typed.renewal("pro.monthly", "t2", original: "t1", at: "2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z")
    typed.subscriptionEvent(.expiration, original: "v1", at: "2026-02-02T00:00:00Z")
    // An upgrade bought as a new purchase that names the first one as its original.
    typed.purchase(
      "pro.annual", "t3", at: "2026-02-10T00:00:00Z", expires: "2027-02-10T00:00:00Z", original: "t1")
    let (events, subscriptions) = typed.resolved()
    #expect(subscriptions == 2)
    #expect(events.map(\.slot) == [0, 1, 2, 0, 1, 0])
    #expect(events.allSatisfy { $0.targetProduct == .none })
  }

  @Test("a refund resolves to its charge's slot and product; one effective before its charge names no product")
  func resolverTargetsRefunds() throws {
    var typed = try TypedEvents()
    typed.refund(.revocation, of: "c1", at: "2026-01-01T00:00:00Z")
    typed.purchase("pass.month", "p1", at: "2026-01-02T00:00:00Z")
    typed.purchase("coins.100", "c1", at: "2026-01-03T00:00:00Z")
    typed.purchase("pro.monthly", "t1", at: "2026-01-04T00:00:00Z", expires: "2026-02-04T00:00:00Z")
    typed.refund(.revocation, of: "p1", at: "2026-01-05T00:00:00Z")
    typed.refund(.refundReversed, of: "t1", at: "2026-01-06T00:00:00Z")
    typed.refund(.revocation, of: "unknown", at: "2026-01-07T00:00:00Z")
    let (events, _) = typed.resolved()
    #expect(events[0].targetProduct == .none)
    #expect(events[4].targetProduct == typed.product("pass.month") && events[4].slot == 1)
    #expect(events[5].targetProduct == typed.product("pro.monthly") && events[5].slot == 0)
    #expect(events[6].targetProduct == .none && events[6].slot == UInt32.max)
  }

  // MARK: SubjectState.apply

  @Test("an auto-renewable purchase starts a period with access until expires, exclusive")
  func purchaseStartsPeriod() throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", offer: .trial)
    let (state, effects) = typed.folded()
    #expect(effects == [.applied(FoldTouch(subscription: 0, startsRecord: true))])
    let sub = state.subscriptions[0]
    #expect(sub.isKnown && sub.status == .active && sub.offer == .trial && sub.willRenew)
    #expect(sub.product == typed.product("pro.monthly") && sub.originalTransaction == typed.transaction("t1"))
    #expect(sub.hasAccess(at: ts("2026-01-31T23:59:59.999Z")))
    #expect(!sub.hasAccess(at: ts("2026-02-01T00:00:00Z")))
    #expect(sub.reportedStatus(at: ts("2026-02-01T00:00:00Z")) == .expired)
    #expect(state.hasEntitlement(typed.entitlement("pro"), at: ts("2026-01-15T00:00:00Z"), catalog: typed.catalog))
    #expect(!state.hasEntitlement(typed.entitlement("voice"), at: ts("2026-01-15T00:00:00Z"), catalog: typed.catalog))
  }

  @Test("billing retry keeps access to the period's end; grace to the grace end; an extension recovers")
  func billingTrouble() throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    typed.subscriptionEvent(.billingRetry, original: "t1", at: "2026-01-30T00:00:00Z")
    var (state, _) = typed.folded()
    #expect(state.subscriptions[0].status == .billingRetry)
    #expect(state.subscriptions[0].hasAccess(at: ts("2026-01-31T00:00:00Z")))
    #expect(!state.subscriptions[0].hasAccess(at: ts("2026-02-01T00:00:00Z")))

    typed.subscriptionEvent(.graceEntered, original: "t1", at: "2026-02-01T00:00:00Z", expires: "2026-02-08T00:00:00Z")
    (state, _) = typed.folded()
    let grace = state.subscriptions[0]
    #expect(grace.status == .grace && grace.graceExpires == ts("2026-02-08T00:00:00Z"))
    #expect(grace.hasAccess(at: ts("2026-02-07T23:59:59.999Z")) && !grace.hasAccess(at: ts("2026-02-08T00:00:00Z")))
    #expect(grace.reportedStatus(at: ts("2026-02-08T00:00:00Z")) == .billingRetry)

    typed.subscriptionEvent(.renewalExtended, original: "t1", at: "2026-02-03T00:00:00Z", expires: "2026-03-01T00:00:00Z")
    (state, _) = typed.folded()
    #expect(state.subscriptions[0].status == .active && state.subscriptions[0].expires == ts("2026-03-01T00:00:00Z"))
  }

  @Test("events for an expired subscription are ignored and say so; an unknown subscription is an unknown reference")
  func closedAndUnknownSubscriptions() throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    typed.subscriptionEvent(.expiration, original: "t1", at: "2026-01-10T00:00:00Z")
    typed.subscriptionEvent(.billingRetry, original: "t1", at: "2026-01-11T00:00:00Z")
    typed.subscriptionEvent(.expiration, original: "nobody", at: "2026-01-12T00:00:00Z")
    let (state, effects) = typed.folded()
    #expect(effects[1] == .applied(FoldTouch(subscription: 0)))
    #expect(effects[2] == .ignoredInState(.expired))
    #expect(effects[3] == .unknownReference)
    #expect(state.subscriptions[0].status == .expired && !state.subscriptions[0].willRenew)
    #expect(!state.subscriptions[0].hasAccess(at: ts("2026-01-15T00:00:00Z")))
  }

  @Test("a consumable credits units × quantity, a spend debits, a revocation takes the credit back")
  func balances() throws {
    var typed = try TypedEvents()
    typed.purchase("coins.100", "c1", at: "2026-01-01T00:00:00Z", quantity: 2)
    typed.consumption("coins", 50, at: "2026-01-02T00:00:00Z")
    typed.refund(.revocation, of: "c1", at: "2026-01-03T00:00:00Z")
    typed.refund(.revocation, of: "c1", at: "2026-01-04T00:00:00Z")
    let coins = typed.currency("coins")
    let (state, effects) = typed.folded()
    var credit = FoldTouch(item: 0, startsRecord: true)
    credit.currency = coins
    credit.balanceDelta = 200
    var spend = FoldTouch()
    spend.currency = coins
    spend.balanceDelta = -50
    var takeBack = FoldTouch(item: 0)
    takeBack.currency = coins
    takeBack.balanceDelta = -200
    #expect(effects == [.applied(credit), .applied(spend), .applied(takeBack), .noChange])
    #expect(state.balance(coins) == -50)
  }

  @Test("a revocation revokes the current transaction only; refund_reversed restores it")
  func subscriptionRefunds() throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    typed.renewal("pro.monthly", "t2", original: "t1", at: "2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z")
    typed.refund(.revocation, of: "t1", at: "2026-02-05T00:00:00Z")
    typed.refund(.revocation, of: "t2", at: "2026-02-06T00:00:00Z")
    typed.refund(.refundReversed, of: "t2", at: "2026-02-07T00:00:00Z")
    let (state, effects) = typed.folded()
    #expect(effects[2] == .noChange)
    #expect(effects[3] == .applied(FoldTouch(subscription: 0)))
    #expect(effects[4] == .applied(FoldTouch(subscription: 0)))
    #expect(state.subscriptions[0].status == .active && state.subscriptions[0].transaction == typed.transaction("t2"))
  }

  @Test("a non-renewing pass lasts its catalog duration from the purchase, end exclusive")
  func passDuration() throws {
    var typed = try TypedEvents()
    typed.purchase("pass.week", "w1", at: "2026-01-01T10:00:00Z")
    let (state, effects) = typed.folded()
    #expect(effects == [.applied(FoldTouch(item: 0, startsRecord: true))])
    #expect(state.items[0].start == ts("2026-01-01T10:00:00Z") && state.items[0].end == ts("2026-01-08T10:00:00Z"))
    #expect(state.grantPositions == [0])
    let pro = typed.entitlement("pro")
    #expect(state.hasEntitlement(pro, at: ts("2026-01-08T09:59:59.999Z"), catalog: typed.catalog))
    #expect(!state.hasEntitlement(pro, at: ts("2026-01-08T10:00:00Z"), catalog: typed.catalog))
  }

  // MARK: PointInTimeFold

  @Test(
    "at (T, R): events after T do not count, nor those recorded after R",
    arguments: [
      // T, R, whether pro is active, the subscription's status at T
      ("2026-01-31T23:59:59.999Z", nil, true, SubscriptionStatus.active),
      ("2026-02-01T00:00:00Z", "2026-02-02T00:00:00Z", false, .expired),
      ("2026-02-15T00:00:00Z", "2026-02-02T23:59:59.999Z", false, .expired),
      ("2026-02-15T00:00:00Z", "2026-02-03T00:00:00Z", true, .active),
      ("2026-02-15T00:00:00Z", nil, true, .active),
      ("2026-03-01T00:00:00Z", nil, false, .expired),
    ] as [(String, String?, Bool, SubscriptionStatus)])
  func pointInTime(at: String, knownBy: String?, isActive: Bool, status: SubscriptionStatus) throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    // Learned two days late.
    typed.renewal(
      "pro.monthly", "t2", original: "t1", at: "2026-02-01T00:00:00Z", recorded: "2026-02-03T00:00:00Z",
      expires: "2026-03-01T00:00:00Z")
    let fold = typed.pointInTime(at: at, knownBy: knownBy)
    #expect(fold.selection.bestByEntitlement[typed.entitlement("pro")].isSet == isActive)
    #expect(fold.state.subscriptions[0].reportedStatus(at: ts(at)) == status)
    let group = typed.catalog.groupNames.firstIndex(of: "pro")!
    #expect(fold.selection.bestByGroup[group].isSet && fold.selection.bestByGroup[group].index == 0)
  }

  @Test("the reported grant is the one that ends last: a lifetime purchase beats a subscription")
  func selectionPrefersNeverEnding() throws {
    var typed = try TypedEvents()
    typed.purchase("pro.monthly", "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")
    typed.purchase("pro.lifetime", "l1", at: "2026-01-05T00:00:00Z")
    let fold = typed.pointInTime(at: "2026-01-10T00:00:00Z")
    let best = fold.selection.bestByEntitlement[typed.entitlement("pro")]
    #expect(best.isSet && !best.isSubscription && best.index == 1 && best.expires == .distantFuture)
  }
}
