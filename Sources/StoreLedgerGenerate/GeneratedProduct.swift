import StoreLedger

/// The products of the generated catalog; raw values index compact records.
///
/// Two subscription groups (`pro` with a monthly and an annual plan, `cloud`
/// with two tiers) give upgrades, downgrades and customers in two groups; the
/// other archetypes cover lifetime unlocks, a `$0` time-limited trial, passes
/// and two coin packs of one currency.
enum GeneratedProduct: UInt8, CaseIterable {
  case proMonthly
  case proAnnual
  case cloudMonthly
  case cloudPlusMonthly
  case proLifetime
  case trial14Days
  case passWeek
  case passMonth
  case coins100
  case coins1000

  /// The product id as written in the log.
  var id: StaticString {
    switch self {
    case .proMonthly: return "pro.monthly"
    case .proAnnual: return "pro.annual"
    case .cloudMonthly: return "cloud.monthly"
    case .cloudPlusMonthly: return "cloud.plus.monthly"
    case .proLifetime: return "pro.lifetime"
    case .trial14Days: return "trial.14d"
    case .passWeek: return "pass.week"
    case .passMonth: return "pass.month"
    case .coins100: return "coins.100"
    case .coins1000: return "coins.1000"
    }
  }

  /// Its archetype.
  var kind: ProductKind {
    switch self {
    case .proMonthly, .proAnnual, .cloudMonthly, .cloudPlusMonthly: return .autoRenewable
    case .proLifetime, .trial14Days: return .nonConsumable
    case .passWeek, .passMonth: return .nonRenewing
    case .coins100, .coins1000: return .consumable
    }
  }

  /// The billing period (auto-renewable) or duration (non-renewing), as catalog text.
  var periodText: String? {
    switch self {
    case .proMonthly, .cloudMonthly, .cloudPlusMonthly, .passMonth: return "P1M"
    case .proAnnual: return "P1Y"
    case .passWeek: return "P7D"
    case .proLifetime, .trial14Days, .coins100, .coins1000: return nil
    }
  }

  /// The free-trial length offered on a first purchase (auto-renewable only).
  var trialText: String { self == .proAnnual ? "P2W" : "P1W" }

  /// The higher tier in the same group, bought immediately under the same original transaction.
  var upgrade: GeneratedProduct? {
    switch self {
    case .proMonthly: return .proAnnual
    case .cloudMonthly: return .cloudPlusMonthly
    default: return nil
    }
  }

  /// The lower tier in the same group, scheduled by `plan_changed` for the next renewal.
  var downgrade: GeneratedProduct? {
    switch self {
    case .proAnnual: return .proMonthly
    case .cloudPlusMonthly: return .cloudMonthly
    default: return nil
    }
  }

  /// Coins credited per unit of quantity (consumables only).
  var coinsPerUnit: Int64 {
    switch self {
    case .coins100: return 100
    case .coins1000: return 1000
    default: return 0
    }
  }

  /// The US price in thousandths of a dollar (4990 = $4.99).
  var dollarPrice: Int64 {
    switch self {
    case .proMonthly: return 4990
    case .proAnnual: return 39990
    case .cloudMonthly: return 2990
    case .cloudPlusMonthly: return 6990
    case .proLifetime: return 99990
    case .trial14Days: return 0
    case .passWeek: return 1990
    case .passMonth: return 5990
    case .coins100: return 990
    case .coins1000: return 8990
    }
  }

  /// The catalog entry (Docs/log-format.md, "The catalog") describing this product.
  var catalogEntry: JSONValue {
    switch self {
    case .proMonthly, .proAnnual:
      return .object([
        ("type", .string("auto_renewable")), ("group", .string("pro")),
        ("level", .integer(self == .proAnnual ? 1 : 2)), ("entitlements", .array([.string("pro")])),
        ("family_shareable", .bool(true)),
      ])
    case .cloudMonthly:
      return .object([
        ("type", .string("auto_renewable")), ("group", .string("cloud")), ("level", .integer(2)),
        ("entitlements", .array([.string("cloud")])),
      ])
    case .cloudPlusMonthly:
      return .object([
        ("type", .string("auto_renewable")), ("group", .string("cloud")), ("level", .integer(1)),
        ("entitlements", .array([.string("cloud"), .string("cloud_plus")])),
      ])
    case .proLifetime:
      return .object([
        ("type", .string("non_consumable")), ("entitlements", .array([.string("pro")])),
      ])
    case .trial14Days:
      return .object([
        ("type", .string("non_consumable")), ("entitlements", .array([.string("pro")])),
        ("expires_after", .string("P14D")),
      ])
    case .passWeek, .passMonth:
      return .object([
        ("type", .string("non_renewing")), ("entitlements", .array([.string("pro")])),
        ("duration", .string(periodText ?? "")),
      ])
    case .coins100, .coins1000:
      return .object([
        ("type", .string("consumable")), ("currency", .string("coins")),
        ("units", .integer(coinsPerUnit)),
      ])
    }
  }
}

/// An App Store storefront: the country a customer buys in and its ISO 4217 currency.
enum Storefront: UInt8, CaseIterable {
  case usa
  case gbr
  case deu
  case fra
  case ita
  case jpn
  case can
  case aus
  case bra
  case ind

  /// The ISO 3166 alpha-3 code Apple uses for storefronts.
  var code: StaticString {
    switch self {
    case .usa: return "USA"
    case .gbr: return "GBR"
    case .deu: return "DEU"
    case .fra: return "FRA"
    case .ita: return "ITA"
    case .jpn: return "JPN"
    case .can: return "CAN"
    case .aus: return "AUS"
    case .bra: return "BRA"
    case .ind: return "IND"
    }
  }

  /// The ISO 3166-1 alpha-2 code a v1.3 charge's `country` holds.
  var alpha2: StaticString {
    switch self {
    case .usa: return "US"
    case .gbr: return "GB"
    case .deu: return "DE"
    case .fra: return "FR"
    case .ita: return "IT"
    case .jpn: return "JP"
    case .can: return "CA"
    case .aus: return "AU"
    case .bra: return "BR"
    case .ind: return "IN"
    }
  }

  /// The ISO 4217 currency of its prices.
  var currency: StaticString {
    switch self {
    case .usa: return "USD"
    case .gbr: return "GBP"
    case .deu, .fra, .ita: return "EUR"
    case .jpn: return "JPY"
    case .can: return "CAD"
    case .aus: return "AUD"
    case .bra: return "BRL"
    case .ind: return "INR"
    }
  }

  /// Share of customers in percent; the shares add up to 100.
  var sharePercent: UInt64 {
    switch self {
    case .usa: return 40
    case .gbr: return 8
    case .deu: return 10
    case .fra: return 6
    case .ita: return 4
    case .jpn: return 8
    case .can: return 6
    case .aus: return 4
    case .bra: return 7
    case .ind: return 7
    }
  }

  /// Local thousandths per whole US dollar of price tier.
  private var thousandthsPerDollar: Int64 {
    switch self {
    case .usa, .gbr: return 1000
    case .deu, .fra, .ita: return 1100
    case .jpn: return 150_000
    case .can: return 1400
    case .aus: return 1600
    case .bra: return 5000
    case .ind: return 80_000
    }
  }

  /// Whether local prices end in .99 (currencies with minor units that stores use that way).
  private var endsInNinetyNine: Bool { self != .jpn && self != .ind }

  /// The local price, in thousandths, of a US price tier; `discounted` halves it (intro, promo, win-back).
  func price(dollars dollarPrice: Int64, discounted: Bool) -> Int64 {
    // Store price tiers: $4.99 is tier 5, shown as 4.99 EUR-style or 750 JPY.
    let tier = (dollarPrice + 10) / 1000
    let full = tier * thousandthsPerDollar - (endsInNinetyNine ? 10 : 0)
    return discounted ? full / 2 / 10 * 10 : full
  }

  /// Picks a storefront with the shares above from a value in `0..<100`.
  static func pick(percentile: UInt64) -> Storefront {
    var remaining = percentile
    for storefront in allCases {
      if remaining < storefront.sharePercent { return storefront }
      remaining -= storefront.sharePercent
    }
    return .usa
  }
}
