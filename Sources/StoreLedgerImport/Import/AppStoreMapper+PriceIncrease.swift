import StoreLedgerCore

/// Price increases awaiting consent (Docs/import-appstore.md, "Price increases"): no event kind
/// records a consent, so the renewal info's state goes into the `meta` of the events its
/// notification produces (one notification, one signed snapshot: a redelivery gives the same
/// line), and the summary counts the states seen.
extension AppStoreMapper {
  /// Meta of a notification's own events when its renewal info announces a price increase:
  /// Apple's `priceIncreaseStatus` (0 awaiting consent, 1 accepted) and the next period's price
  /// (`renewalPrice`, `renewalCurrency`); nothing without a `priceIncreaseStatus`.
  static func priceIncreaseMeta(_ renewal: RenewalInfoPayload?) -> [(String, JSONValue)] {
    guard let status = renewal?.priceIncreaseStatus else { return [] }
    var meta: [(String, JSONValue)] = [("priceIncreaseStatus", .integer(status))]
    if let price = renewal?.renewalPrice {
      meta += [("renewalPrice", .integer(price.thousandths)), ("renewalCurrency", .string(price.currency))]
    }
    return meta
  }

  /// Counts the price increase a renewal info announces in `priceChanges`, once per
  /// subscription, state and price; reports a `priceIncreaseStatus` Apple does not document.
  mutating func countPriceIncrease(_ renewal: RenewalInfoPayload?, originalTransactionID: String?, line: Int) {
    guard let renewal, let status = renewal.priceIncreaseStatus else { return }
    guard let state = Self.priceIncreaseState(status) else {
      problems.unknownValue(
        line, field: "data.signedRenewalInfo.priceIncreaseStatus", raw: .integer(status),
        consequence: "kept raw in meta")
      return
    }
    let subscription = originalTransactionID ?? renewal.originalTransactionID ?? "line \(line)"
    let price = renewal.renewalPrice.map { "\($0.thousandths) \($0.currency)" } ?? ""
    priceChanges["PRICE_INCREASE " + state, default: []].insert(subscription + "|" + price)
  }

  /// The words of `priceIncreaseStatus` in the summary; nil for a value Apple does not document.
  static func priceIncreaseState(_ status: Int64) -> String? {
    switch status {
    case 0: return "awaiting consent"
    case 1: return "accepted"
    default: return nil
    }
  }
}
