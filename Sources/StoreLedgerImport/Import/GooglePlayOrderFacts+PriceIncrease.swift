import StoreLedgerCore

extension GooglePlayPriceChange {
  /// Whether this is an increase that needs the customer's consent (`priceChangeMode`
  /// `PRICE_INCREASE`; an `OPT_OUT_PRICE_INCREASE` applies unless the customer cancels) and
  /// still waits for it (`priceChangeState` `OUTSTANDING`, Google's "waiting for the user to
  /// agree"): a customer who never agrees is canceled by Google at that renewal.
  var awaitsConsent: Bool { mode == "PRICE_INCREASE" && state == "OUTSTANDING" }
}

extension GooglePlayLineItem {
  /// Whether the item still waits for the customer's consent to a higher price that was due by
  /// its `expiryTime`: a price increase `OUTSTANDING` whose `expectedNewPriceChargeTime` is at
  /// or before it, or a price step-up `PENDING` whose `consentDeadlineTime` is (either time
  /// absent: no evidence against).
  var endsAwaitingConsent: Bool {
    if let change = priceChange, change.awaitsConsent,
      change.expectedChargeTime.map({ expiryTime >= $0 }) ?? true
    {
      return true
    }
    guard let stepUp = priceStepUp, stepUp.state == "PENDING" else { return false }
    return stepUp.deadline.map { expiryTime >= $0 } ?? true
  }
}

extension GooglePlayOrderFacts {
  /// Whether the subscription ended because the customer never accepted a price increase
  /// (Docs/import-googleplay.md, "Price increases"): a copy fetched expired, canceled by the
  /// system (`systemInitiatedCancellation`), whose line item still waits for consent to a
  /// higher price due by its `expiryTime` (`GooglePlayLineItem.endsAwaitingConsent`). Only
  /// copies that show the expiry count: the price change is a snapshot, and one that an
  /// earlier copy showed may have been accepted or withdrawn since.
  var endedAwaitingConsent: Bool {
    copies.contains { copy in
      copy.knownState == .expired && !copy.isFromLedger
        && copy.cancellation == GooglePlayCancellation.system.rawValue
        && copy.lineItems.first?.endsAwaitingConsent == true
    }
  }
}
