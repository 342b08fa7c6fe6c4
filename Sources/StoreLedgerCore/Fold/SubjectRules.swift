/// What the log-wide rules found about one event.
package enum RuleFinding: Equatable {
  /// A consumption larger than the balance just before it (an error).
  case overdraw(currency: Symbol, balance: Int64, quantity: Int64)
  /// An event naming a subscription or transaction the subject has no charge for at that
  /// point: it changes nothing (a warning).
  case unknownReference(field: Field, value: Symbol)
  /// The first event that moves a currency of the subject past `Limits.balanceMovementMax` in
  /// all (credits, spends, refunds and reversals counted as positive; an error).
  case balanceMovementLimit(currency: Symbol, moved: Int64, delta: Int64)
  /// A revocation that applied with a v1.3 `refunded` or `quantity`: the charge it revokes (its
  /// line, its packs, whether consumable), against which the builder checks them with the
  /// charge's price (contract v1.3, section 11).
  case refundTerms(chargeLine: UInt32, chargeQuantity: Int64, isConsumable: Bool)
}

/// The decide step: the rules a subject's whole history must keep, checked at full knowledge
/// over its resolved events in effective order. Pure; shared by check, append and import
/// through `LedgerBuilder` (Docs/semantics.md, "Balances").
///
/// The balance a consumption is checked against leaves out consumable refunds recorded after
/// it (and their reversals): a refund learned late never turns a covered spend into an
/// overdraw; it makes the balance negative instead.
struct SubjectRules {
  private var state = SubjectState()
  private var refundEffects: [RefundEffect] = []
  /// Per currency touched: the amounts moved so far, as positive numbers (nil once reported).
  private var movements: [(currency: Symbol, moved: Int64?)] = []

  /// What one applied consumable refund or reversal did to a balance, and when it was learned.
  private struct RefundEffect {
    var currency: Symbol
    var delta: Int64
    /// When the ledger learned of it; a reversal takes its refund's `recorded`.
    package var recorded: Timestamp
    var transaction: Symbol
  }

  /// Replays one subject and reports every finding, in effective order.
  /// - Complexity: O(events × (currencies + consumable refunds)) of the subject.
  mutating func decide(
    _ events: UnsafeMutableBufferPointer<Event>, subscriptionCount: Int, context: FoldContext,
    report: (Event, RuleFinding) -> Void
  ) {
    state.reset(subscriptionCount: subscriptionCount, itemCount: events.count)
    refundEffects.removeAll(keepingCapacity: true)
    movements.removeAll(keepingCapacity: true)
    for event in events {
      if event.kind == .consumption {
        var balance = state.balance(event.balanceCurrency) ?? 0
        for refund in refundEffects where refund.currency == event.balanceCurrency && refund.recorded > event.recorded {
          balance = saturatingAdd(balance, -refund.delta)
        }
        if balance < event.quantity {
          report(event, .overdraw(currency: event.balanceCurrency, balance: balance, quantity: event.quantity))
        }
      }
      let effect = state.apply(event, context: context)
      switch effect {
      case .applied(let touch):
        if let currency = touch.currency, event.kind.isRefund {
          noteRefund(event, currency: currency, delta: touch.balanceDelta)
        }
        if let currency = touch.currency, let finding = noteMovement(currency, touch.balanceDelta) {
          report(event, finding)
        }
        if event.kind == .revocation && (event.hasRefunded || event.quantity != 0) {
          report(event, refundTerms(event, touch: touch, events: events))
        }
      case .unknownReference:
        let namesTransaction = event.kind.namesCharge
        let field: Field = event.kind == .grantRevoked ? .grant : namesTransaction ? .transaction : .originalTransaction
        report(
          event,
          .unknownReference(field: field, value: field == .originalTransaction ? event.originalTransaction : event.transaction))
      case .ignoredInState, .noChange:
        break
      }
    }
  }

  /// The charge an applied revocation revoked: the subscription's current charge, or the
  /// purchase at the item's position.
  private func refundTerms(_ event: Event, touch: FoldTouch, events: UnsafeMutableBufferPointer<Event>) -> RuleFinding {
    if touch.subscription >= 0 {
      return .refundTerms(
        chargeLine: state.subscriptions[Int(touch.subscription)].periodLine, chargeQuantity: 1, isConsumable: false)
    }
    let charge = events[Int(event.slot)]
    return .refundTerms(chargeLine: charge.line, chargeQuantity: max(1, charge.quantity), isConsumable: touch.currency != nil)
  }

  /// Adds an amount moved to its currency's total; the finding when the total first passes the limit.
  ///
  /// Every balance at any (T, R), and every balance the overdraw rule computes, is a sum of
  /// some of these amounts, so keeping their total within `Limits.balanceMovementMax` keeps
  /// every balance exact: none can overflow or saturate (Docs/log-format.md, "Limits").
  private mutating func noteMovement(_ currency: Symbol, _ delta: Int64) -> RuleFinding? {
    // One event moves at most `Limits.amountMax` (the validator's rule), so nothing here overflows.
    let amount = delta.magnitude <= UInt64(Limits.amountMax) ? Int64(delta.magnitude) : Limits.amountMax + 1
    guard let index = movements.firstIndex(where: { $0.currency == currency }) else {
      movements.append((currency, amount))
      return nil
    }
    guard let moved = movements[index].moved else { return nil }
    guard moved + amount > Limits.balanceMovementMax else {
      movements[index].moved = moved + amount
      return nil
    }
    movements[index].moved = nil
    return .balanceMovementLimit(currency: currency, moved: moved, delta: amount)
  }

  /// Remembers a consumable refund's effect so later consumptions can leave it out if it was learned later.
  private mutating func noteRefund(_ event: Event, currency: Symbol, delta: Int64) {
    var recorded = event.recorded
    if event.kind == .refundReversed,
      let refund = refundEffects.last(where: { $0.transaction == event.transaction && $0.delta < 0 })
    {
      // A reversal goes with its refund, left out exactly when the refund is (contract §3,
      // "Balances"): a reversal learned late of a refund known in time is a store event that
      // gives the credit back, and leaving it out would refuse the log that records it.
      recorded = refund.recorded
    }
    refundEffects.append(RefundEffect(currency: currency, delta: delta, recorded: recorded, transaction: event.transaction))
  }
}
