import StoreLedger

/// Contract v1.3 §11: refunds as the stores make them, and what a charge says about the store.
extension HouseholdSimulator {
  /// Draws the household's store and proceeds rate (v1.3 logs only, after the v1.2 draws).
  mutating func drawChargeDetails() {
    chargingStore = random.chance(Contract13Rates.googlePlay) ? .googlePlay : .appStore
    proceedsPerMille = random.chance(Contract13Rates.smallBusiness) ? 850 : 700
  }

  /// `store`, `country` and `proceeds` on a charge from a source that reports them (the one that
  /// reports prices); draws nothing, so the story around the charge is unchanged.
  func addChargeDetails(_ event: inout GeneratedEvent) {
    guard reportsStorefront else { return }
    event.store = chargingStore
    event.writesCountry = true
    if event.price >= 0 { event.proceeds = event.price * proceedsPerMille / 1000 }
  }

  /// A `refund_requested` for most refunds, between the charge and the refund at `refundAt`.
  mutating func requestRefund(subject: UInt32, transaction: UInt64, chargedAt: Int64, refundAt: Int64) {
    guard random.chance(Contract13Rates.requestBeforeRefund) else { return }
    let earliest = max(chargedAt + Span.minute, refundAt - 3 * Span.day)
    let latest = refundAt - Span.minute
    guard latest - earliest > Span.second else { return }
    recordRequest(subject: subject, transaction: transaction, at: random.between(earliest, latest))
  }

  /// Now and then a refund request between `from` and `to` that the store declines hours later.
  mutating func declinedRefund(subject: UInt32, transaction: UInt64, from: Int64, to: Int64) {
    guard random.chance(Contract13Rates.declinedRequest) else { return }
    let last = min(to, horizonAt)
    guard last - from > 3 * Span.hour else { return }
    let requestedAt = random.between(from, last - 2 * Span.hour)
    recordRequest(subject: subject, transaction: transaction, at: requestedAt)
    let declinedAt = random.between(requestedAt + Span.hour, min(requestedAt + 2 * Span.day, last))
    var declined = GeneratedEvent(.refundDeclined, subject: subject, at: declinedAt)
    declined.transaction = transaction
    record(declined, delivery: .lateProne)
  }

  /// Records `refund_requested`, with a store's reason and its 12-hour deadline on most.
  private mutating func recordRequest(subject: UInt32, transaction: UInt64, at: Int64) {
    var request = GeneratedEvent(.refundRequested, subject: subject, at: at)
    request.transaction = transaction
    let reasons: [GeneratedReason] = [.unintendedPurchase, .fulfillmentIssue, .unsatisfied, .none]
    request.reason = reasons[Int(random.below(UInt64(reasons.count)))]
    if random.chance(Contract13Rates.respondByWritten) { request.expiresAt = at + 12 * Span.hour }
    record(request)
  }

  /// The refunded amount of a prorated refund of the period's charge at `refundAt` (what is left
  /// of the period, below the price), or -1 for a whole refund or a charge without a price.
  mutating func proratedRefund(_ track: SubscriptionTrack, at refundAt: Int64) -> Int64 {
    let price = price(of: track.product, offer: track.offer)
    guard price > 0, random.chance(Contract13Rates.proratedRefund) else { return -1 }
    let whole = track.periodEnd - track.periodStart
    let left = track.periodEnd - refundAt
    guard whole > 0, left > 0, left < whole else { return -1 }
    // Prices are below 10⁷ thousandths and periods below 10¹¹ ms: the product fits.
    return price * left / whole / 10 * 10
  }
}
