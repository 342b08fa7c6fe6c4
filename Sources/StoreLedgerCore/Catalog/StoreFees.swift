/// The stores' fee rates a catalog declares (`store_fees`, an extension of the contract's
/// catalog: Docs/reports.md, "Estimated proceeds"), so a report can estimate the proceeds of a
/// charge that states none. Rates are in parts per million of the price.
package struct StoreFees: Sendable, Equatable {
  /// One store's rates. A charge pays the lowest rate that applies to it.
  package struct Rates: Sendable, Equatable {
    /// The standard rate (the App Store's and Google Play's 30%).
    package var ratePpm: Int64
    /// A developer-level reduced rate on every charge (the small-business programmes' 15%).
    package var programRatePpm: Int64? = nil
    /// The rate on every auto-renewable charge (Google Play's 15% since 2022).
    package var subscriptionRatePpm: Int64? = nil
    /// The rate on an auto-renewable charge after a year of paid service (the App Store's 15%).
    package var subscriptionAfterYearRatePpm: Int64? = nil

    /// The rate for a charge: the lowest of those that apply.
    package func ratePpm(isSubscription: Bool, afterPaidYear: Bool) -> Int64 {
      var rates = [ratePpm, programRatePpm].compactMap { $0 }
      if isSubscription { rates += [subscriptionRatePpm].compactMap { $0 } }
      if isSubscription && afterPaidYear { rates += [subscriptionAfterYearRatePpm].compactMap { $0 } }
      return rates.min()!
    }
  }

  /// Rates by the charges' `store` value.
  package var stores: [String: Rates]

  /// One million: a rate of 1.
  package static let ppmWhole: Int64 = 1_000_000

  /// Paid service a subscription needs for the after-a-year rate: 365 days.
  package static let paidYearMs: Int64 = 365 * 86_400_000

  /// A lapse longer than this starts the paid service again from zero (Apple: 60 days).
  package static let lapseResetMs: Int64 = 60 * 86_400_000

  /// The store's fee on `price` at `ratePpm`, rounded half away from zero.
  package static func fee(price: Int64, ratePpm: Int64) -> Int64 {
    let product = price.magnitude.multipliedFullWidth(by: UInt64(ratePpm))
    let (quotient, remainder) = UInt64(ppmWhole).dividingFullWidth((product.high, product.low))
    let rounded = Int64(quotient) + (remainder * 2 >= UInt64(ppmWhole) ? 1 : 0)
    return price < 0 ? -rounded : rounded
  }
}
