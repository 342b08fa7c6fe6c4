import StoreLedgerCore

extension ChargeFacts {
  /// Paid service of one subscription (an original transaction) before a charge.
  private struct PaidService {
    var accumulatedMs: Int64 = 0
    var lastEnd: Timestamp
  }

  /// Estimates the proceeds of every charge with a price, a stated `store` the catalog's
  /// `store_fees` rates, and no stated `proceeds`: price less the fee at the lowest rate that
  /// applies (the store's, its programme's, its subscription rate, or its rate after a year of
  /// paid service), the fee rounded half away from zero. A subscription's paid service is the sum
  /// of its earlier paid periods (charges with a price above 0 and an offer other than `trial`,
  /// from `at` to `expires`), from zero again after a lapse of more than 60 days; a charge whose
  /// paid service before it reaches 365 days has the after-a-year rate. The log as a whole is read
  /// (every line, whatever `--as-of`): a charge's rate is a fact of the store's, not of knowledge.
  /// - Complexity: O(events · log lines with details).
  package mutating func estimate(ledger: Ledger) {
    guard let fees = ledger.catalog.storeFees else { return }
    var paid: [Symbol: PaidService] = [:]
    var current = Symbol.none
    ledger.forEachEvent { event, subject in
      guard event.kind.isCharge else { return }
      if subject != current {
        paid.removeAll(keepingCapacity: true)
        current = subject
      }
      let details = ledger.details.details(line: event.line)
      let isSubscription = ledger.catalog.kind(event.product) == .autoRenewable
      var afterPaidYear = false
      if isSubscription {
        let original = event.originalTransaction.isSome ? event.originalTransaction : event.transaction
        var service = paid[original] ?? PaidService(lastEnd: event.at)
        if event.at.millisecondsSinceEpoch - service.lastEnd.millisecondsSinceEpoch > StoreFees.lapseResetMs { service.accumulatedMs = 0 }
        afterPaidYear = service.accumulatedMs >= StoreFees.paidYearMs
        if event.hasExpires {
          if event.offer != .trial && details.hasPrice && details.price > 0 {
            service.accumulatedMs += event.expires.millisecondsSinceEpoch - event.at.millisecondsSinceEpoch
          }
          service.lastEnd = max(service.lastEnd, event.expires)
        }
        paid[original] = service
      }
      guard details.hasPrice, var facts = byLine[event.line], facts.proceeds == nil, let store = facts.store,
        let rates = fees.stores[store]
      else { return }
      let rate = rates.ratePpm(isSubscription: isSubscription, afterPaidYear: afterPaidYear)
      facts.estimatedProceeds = details.price - StoreFees.fee(price: details.price, ratePpm: rate)
      byLine[event.line] = facts
    }
  }
}
