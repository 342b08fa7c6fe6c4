import StoreLedgerCore

extension GooglePlayPriceChange {
  /// Whether this is an increase that needs the customer's consent (`priceChangeMode`
  /// `PRICE_INCREASE`; an `OPT_OUT_PRICE_INCREASE` applies unless the customer cancels) and
  /// still waits for it (`priceChangeState` `OUTSTANDING`, Google's "waiting for the user to
  /// agree"): a customer who never agrees is canceled by Google at that renewal.
  var awaitsConsent: Bool { mode == "PRICE_INCREASE" && state == "OUTSTANDING" }
}

extension GooglePlayOrderFacts {
  /// Whether the subscription ended because the customer never accepted a price increase
  /// (Docs/import-googleplay.md, "Price increases"): a copy fetched expired, canceled by the
  /// system (`systemInitiatedCancellation`), whose line item still shows an increase awaiting
  /// consent, with its `expiryTime` at or after the renewal that would have charged it
  /// (`expectedNewPriceChargeTime`, when the copy states it). Only copies that show the
  /// expiry count: the price change is a snapshot, and one that an earlier copy showed may
  /// have been accepted or withdrawn since.
  var endedAwaitingConsent: Bool {
    copies.contains { copy in
      guard copy.knownState == .expired, !copy.isFromLedger,
        copy.cancellation == GooglePlayCancellation.system.rawValue,
        let item = copy.lineItems.first, let change = item.priceChange, change.awaitsConsent
      else { return false }
      return change.expectedChargeTime.map { item.expiryTime >= $0 } ?? true
    }
  }
}
