import StoreLedger

/// Contract v1.3 §9: units that move to the customer's other account, and sometimes back.
///
/// Written only with `GeneratorOptions.transfers`. A subscription moves between its periods
/// (after every change inside the period, before the renewal), and its later lines are written
/// under the owner of the moment, as a store reports them under the new account. A lifetime
/// unlock or a pass moves after its refund window and keeps its lines under the buyer. Family
/// plans and consumables never move.
extension HouseholdSimulator {
  /// The household's second account: taken from the log's subjects on first use, nil when
  /// none is left.
  mutating func transferTarget() -> UInt32? {
    if let account = secondAccount { return account }
    guard householdUsed < householdSubjectsMax else { return nil }
    let account = householdFirst + UInt32(householdUsed)
    householdUsed += 1
    secondAccount = account
    return account
  }

  /// Moves a subscription to the second account, or back to its buyer, now and then, in the
  /// hour after `innerEnd` (later than every change of the period, before its renewal).
  mutating func transferSubscription(_ track: inout SubscriptionTrack, after innerEnd: Int64) {
    let isWithBuyer = track.subject == track.firstOwner
    let rate = isWithBuyer ? Contract13Rates.transferSubscription : Contract13Rates.transferSubscriptionBack
    guard random.chance(rate) else { return }
    let at = innerEnd + random.between(Span.minute, 50 * Span.minute)
    guard at < horizonAt, let to = isWithBuyer ? transferTarget() : track.firstOwner else { return }
    var transfer = GeneratedEvent.transfer(subject: track.subject, to: to, at: at)
    transfer.originalTransaction = track.originalTransaction
    record(transfer)
    track.subject = to
  }

  /// Now and then moves a non-consumable or non-renewing purchase to the second account some
  /// time after `start`, and sometimes back to its buyer later.
  mutating func transferPurchase(subject: UInt32, transaction: UInt64, after start: Int64) {
    guard random.chance(Contract13Rates.transferPurchase) else { return }
    let at = start + random.between(Span.day, 180 * Span.day)
    guard at < horizonAt, let account = transferTarget() else { return }
    var transfer = GeneratedEvent.transfer(subject: subject, to: account, at: at)
    transfer.transaction = transaction
    record(transfer)
    guard random.chance(Contract13Rates.transferPurchaseBack) else { return }
    let backAt = at + random.between(Span.day, 90 * Span.day)
    guard backAt < horizonAt else { return }
    var back = GeneratedEvent.transfer(subject: account, to: subject, at: backAt)
    back.transaction = transaction
    record(back)
  }
}

extension GeneratedEvent {
  /// A `transfer` of a unit from `subject` to `to`; name the unit by `transaction` or
  /// `originalTransaction` afterwards.
  static func transfer(subject: UInt32, to: UInt32, at: Int64) -> GeneratedEvent {
    var event = GeneratedEvent(.transfer, subject: subject, at: at)
    event.toSubject = to
    return event
  }
}
