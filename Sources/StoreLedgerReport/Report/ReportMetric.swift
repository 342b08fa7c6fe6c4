import StoreLedgerCore

/// Every metric of a report, in output order; Docs/reports.md defines each one.
package enum ReportMetric: String, Sendable, CaseIterable {
  case active
  case familyShared = "family_shared"
  case grantedActive = "granted_active"
  case blocksActive = "blocks_active"
  case subscribers
  case mrr
  case mrrPricedSubscriptions = "mrr_priced_subscriptions"
  case mrrUnpricedSubscriptions = "mrr_unpriced_subscriptions"
  case mrrOpening = "mrr_opening"
  case mrrNew = "mrr_new"
  case mrrReactivation = "mrr_reactivation"
  case mrrExpansion = "mrr_expansion"
  case mrrContraction = "mrr_contraction"
  case mrrChurn = "mrr_churn"
  case newSubscriptions = "new_subscriptions"
  case reactivations
  case trialsStarted = "trials_started"
  case trialConversions = "trial_conversions"
  case trialConversionDays = "trial_conversion_days"
  case trialsConverted = "trials_converted"
  case trialConversionRate = "trial_conversion_rate"
  case paidCohortSubjects = "paid_cohort_subjects"
  case paidCohortRetained = "paid_cohort_retained"
  case churn
  case priceIncreasesAccepted = "price_increases_accepted"
  case priceIncreasesDeclined = "price_increases_declined"
  case priceIncreaseAcceptanceRate = "price_increase_acceptance_rate"
  case billingRetryEntries = "billing_retry_entries"
  case graceEntries = "grace_entries"
  case billingIssues = "billing_issues"
  case billingRecoveries = "billing_recoveries"
  case billingIssuesRecovered = "billing_issues_recovered"
  case billingRecoveryRate = "billing_recovery_rate"
  case charges
  case revenue
  case proceeds
  case storeFees = "store_fees"
  case proceedsUnknown = "proceeds_unknown"
  case proceedsUnknownRevenue = "proceeds_unknown_revenue"
  case proceedsEstimated = "proceeds_estimated"
  case storeFeesEstimated = "store_fees_estimated"
  case refunds
  case refundRate = "refund_rate"
  case refunded
  case refundReversals = "refund_reversals"
  case reversed
  case refundRequests = "refund_requests"
  case refundsDeclined = "refunds_declined"
  case refundsGranted = "refunds_granted"
  case refundGrantRate = "refund_grant_rate"
  case payingCustomers = "paying_customers"
  case arppu
  case firstPaymentCustomers = "first_payment_customers"
  case firstPaymentRevenue = "first_payment_revenue"
  case ltv
  case upgrades
  case downgrades
  case crossgrades
  case credits
  case spends
  case usageTrialsStarted = "usage_trials_started"
  case usageTrialsConvertedInTrial = "usage_trials_converted_in_trial"
  case usageTrialsEnded = "usage_trials_ended"
  case usageTrialsConvertedInGrace = "usage_trials_converted_in_grace"
  case usageTrialsConvertedAfter = "usage_trials_converted_after"
  case subscriberUses = "subscriber_uses"
  case limitHits = "limit_hits"
  case limitHitSubjects = "limit_hit_subjects"
  case limitHitConversions7d = "limit_hit_conversions_7d"
  case limitHitConversions30d = "limit_hit_conversions_30d"
  case limitHitConversionRate7d = "limit_hit_conversion_rate_7d"
  case limitHitConversionRate30d = "limit_hit_conversion_rate_30d"
  case leaks

  /// Whether it needs a catalog `policy`; reports of a catalog without one leave it out.
  package var needsPolicy: Bool {
    switch self {
    case .usageTrialsStarted, .usageTrialsConvertedInTrial, .usageTrialsEnded, .usageTrialsConvertedInGrace,
      .usageTrialsConvertedAfter, .subscriberUses, .limitHits, .limitHitSubjects, .limitHitConversions7d, .limitHitConversions30d,
      .limitHitConversionRate7d, .limitHitConversionRate30d, .leaks:
      return true
    default: return false
    }
  }

  /// Whether it needs the catalog's `store_fees`; reports of a catalog without them leave it out.
  package var needsStoreFees: Bool { self == .proceedsEstimated || self == .storeFeesEstimated }

  /// Whether it is read at the bucket's end (a stock) rather than summed over the bucket (a flow).
  package var isStock: Bool {
    self == .active || self == .familyShared || self == .grantedActive || self == .blocksActive || self == .subscribers
      || self == .mrr || self == .mrrPricedSubscriptions || self == .mrrUnpricedSubscriptions || self == .mrrOpening
  }

  /// Whether it is computed from other metrics of its bucket (`parts`) rather than summed over
  /// customers: a partial report leaves it out, and a merge computes it again from the summed parts.
  package var isDerived: Bool { self == .arppu || self == .ltv }

  /// The metrics a derived metric is computed from (empty for the others).
  package var parts: [ReportMetric] {
    switch self {
    case .arppu: return [.revenue, .payingCustomers]
    case .ltv: return [.firstPaymentRevenue, .firstPaymentCustomers]
    default: return []
    }
  }

  /// Whether its keys are `CURRENCY/K` (a currency and a cohort offset), ordered by currency then K as a number.
  package var hasCohortKeys: Bool { self == .firstPaymentRevenue || self == .ltv }

  /// The order of its keys: by bytes, or as numbers (`hasNumericKeys`), or by currency then offset (`hasCohortKeys`).
  package func keyPrecedes(_ a: String, _ b: String) -> Bool {
    if hasNumericKeys { return (Int64(a) ?? 0) < (Int64(b) ?? 0) }
    if hasCohortKeys {
      let (currencyA, offsetA) = Self.cohortKey(a)
      let (currencyB, offsetB) = Self.cohortKey(b)
      if currencyA != currencyB { return currencyA.utf8.lexicographicallyPrecedes(currencyB.utf8) }
      return offsetA < offsetB
    }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// `USD/12` → (`USD`, 12); a key without `/K` has offset 0.
  private static func cohortKey(_ key: String) -> (Substring, Int64) {
    guard let slash = key.lastIndex(of: "/") else { return (Substring(key), 0) }
    return (key[..<slash], Int64(key[key.index(after: slash)...]) ?? 0)
  }

  /// Whether its keyed values are money in thousandths of the currency unit.
  package var isMoney: Bool {
    switch self {
    case .revenue, .proceeds, .storeFees, .proceedsUnknownRevenue, .proceedsEstimated, .storeFeesEstimated, .refunded, .reversed, .mrr, .mrrOpening, .mrrNew, .mrrReactivation, .mrrExpansion, .mrrContraction,
      .mrrChurn, .arppu, .firstPaymentRevenue, .ltv:
      return true
    default: return false
    }
  }

  /// Whether its keys are whole numbers, ordered as numbers (`trial_conversion_days`, `paid_cohort_retained`).
  package var hasNumericKeys: Bool { self == .trialConversionDays || self == .paidCohortRetained }

  /// Whether its keyed values are listed even when 0 (every entitlement; every offset of the cohort triangle).
  package var keepsZeroKeys: Bool {
    self == .active || self == .familyShared || self == .grantedActive || self == .paidCohortRetained || self == .firstPaymentRevenue || self == .ltv
  }

  /// Its unit, as CSV headers name it and Docs/reports.md gives it.
  package var unit: String {
    switch self {
    case .revenue, .proceeds, .storeFees, .proceedsUnknownRevenue, .proceedsEstimated, .storeFeesEstimated, .refunded, .reversed, .mrr, .mrrOpening, .mrrNew, .mrrReactivation, .mrrExpansion, .mrrContraction,
      .mrrChurn, .arppu, .firstPaymentRevenue, .ltv:
      return "thousandths"
    case .credits, .spends: return "units"
    case .subscriberUses: return "uses"
    case .trialConversionRate, .billingRecoveryRate, .refundRate, .refundGrantRate, .priceIncreaseAcceptanceRate,
      .limitHitConversionRate7d, .limitHitConversionRate30d:
      return "ratio"
    case .active, .familyShared, .grantedActive, .blocksActive, .subscribers, .paidCohortSubjects, .paidCohortRetained, .limitHitSubjects,
      .limitHitConversions7d, .limitHitConversions30d, .usageTrialsStarted, .usageTrialsConvertedInTrial,
      .usageTrialsEnded, .usageTrialsConvertedInGrace, .usageTrialsConvertedAfter:
      return "subjects"
    case .mrrPricedSubscriptions, .mrrUnpricedSubscriptions: return "subscriptions"
    case .payingCustomers, .firstPaymentCustomers: return "customers"
    default: return "events"
    }
  }

  /// The words the HTML report uses for it: names that cannot be confused with one another.
  package var title: String {
    switch self {
    case .mrr: return "MRR"
    case .mrrPricedSubscriptions: return "paid subscriptions with a price (in MRR)"
    case .mrrUnpricedSubscriptions: return "paid subscriptions without a price (not in MRR)"
    case .mrrOpening: return "MRR at the bucket's start"
    case .mrrNew: return "MRR movement: new"
    case .mrrReactivation: return "MRR movement: reactivation"
    case .mrrExpansion: return "MRR movement: expansion"
    case .mrrContraction: return "MRR movement: contraction"
    case .mrrChurn: return "MRR movement: churn"
    case .refundGrantRate: return "share of decided refund requests granted"
    case .priceIncreasesAccepted: return "renewals charged more than the period before (increases accepted)"
    case .priceIncreasesDeclined: return "expirations for a price increase not accepted (increases declined)"
    case .priceIncreaseAcceptanceRate: return "share of decided price increases accepted"
    case .payingCustomers: return "customers with a paid charge here"
    case .arppu: return "ARPPU (net revenue per paying customer)"
    case .firstPaymentCustomers: return "customers whose first payment was here"
    case .firstPaymentRevenue: return "of them, net revenue to date (cumulative, by month after)"
    case .ltv: return "realized LTV per customer (cumulative, by month after)"
    case .newSubscriptions: return "new subscriptions (not reactivations)"
    case .reactivations: return "reactivations (back after a lapse)"
    case .trialConversions: return "paid charges ending a trial (counted when charged)"
    case .trialsConverted: return "trials started here that converted (by the report's end)"
    case .trialConversionRate: return "share of trials started here that converted"
    case .paidCohortSubjects: return "subjects whose first paid period began here"
    case .paidCohortRetained: return "of them, still paying"
    case .usageTrialsStarted: return "usage trials started here"
    case .usageTrialsConvertedInTrial: return "of them, converted during the trial"
    case .usageTrialsEnded: return "of them, trial ended by"
    case .usageTrialsConvertedInGrace: return "of them, converted during the grace after it ended"
    case .usageTrialsConvertedAfter: return "of them, converted after the grace"
    case .subscriberUses: return "uses by subscribers"
    case .grantedActive: return "of them, through a support grant (not in subscribers or MRR)"
    case .blocksActive: return "subjects blocked, by service"
    case .proceeds: return "proceeds (what the stores pay, net of refunds)"
    case .storeFees: return "store fees (price less stated proceeds)"
    case .proceedsUnknown: return "charges without stated proceeds"
    case .proceedsUnknownRevenue: return "net revenue of charges without stated or estimated proceeds"
    case .proceedsEstimated: return "estimated proceeds (from the catalog's store_fees)"
    case .storeFeesEstimated: return "estimated store fees (from the catalog's store_fees)"
    default: return rawValue.replacingUnderscores()
    }
  }
}

extension ReportBuilder {
  /// The tallies as a report, dropping the tally of events outside the window.
  func report(asOf: Timestamp?) -> Report {
    let catalog = ledger.catalog
    let features = catalog.policy?.features.map(\.name) ?? []
    let keys = ReportMetric.Keys(
      entitlements: catalog.entitlementNames,
      currencies: (0..<ledger.symbols.currencies.count).map {
        ledger.symbols.currencies.string(Symbol(rawValue: UInt32($0)))
      },
      products: catalog.products.map(\.id), reasons: ExpirationReason.allCases.map(\.name) + ["unspecified"],
      features: features, trialEnds: ["duration"] + features)
    // A segment's pass leaves out the usage policy metrics (they belong to no charge).
    let shown = ReportMetric.allCases.filter {
      ((catalog.policy != nil && segment == nil) || !$0.needsPolicy) && (catalog.storeFees != nil || !$0.needsStoreFees)
    }
    let result = (0..<buckets.count).map { index in
      ReportBucket(
        start: buckets.boundaries[index], end: buckets.boundaries[index + 1],
        metrics: shown.map { (name: $0.rawValue, value: $0.value(in: tallies[index], keys: keys)) })
    }
    let local = Array(buckets.wallClocks.dropLast())
    return Report(
      interval: buckets.interval, asOf: asOf, buckets: result,
      localStarts: local == Array(buckets.boundaries.dropLast()) ? nil : local)
  }
}

extension ReportMetric {
  /// The names keyed metrics are keyed by, in the tallies' index order.
  struct Keys {
    let entitlements: [String]
    let currencies: [String]
    let products: [String]
    let reasons: [String]
    let features: [String]
    let trialEnds: [String]
  }

  /// This metric's value in one bucket's tally.
  func value(in tally: BucketTally, keys: Keys) -> MetricValue {
    if let count = count(in: tally) { return .count(count) }
    func keyed(_ names: [String], _ values: [Int64], keepZeros: Bool = false) -> MetricValue {
      .keyed(
        zip(names, values).filter { keepZeros || $0.1 != 0 }.map { (key: $0.0, value: $0.1) }
          .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }
    switch self {
    case .active: return keyed(keys.entitlements, tally.active, keepZeros: true)
    case .familyShared: return keyed(keys.entitlements, tally.familyShared, keepZeros: true)
    case .grantedActive: return keyed(keys.entitlements, tally.grantedActive, keepZeros: true)
    case .blocksActive:
      return .keyed(
        tally.blocksActive.map { (key: $0.key, value: $0.value) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    case .mrr: return keyed(keys.currencies, tally.mrr)
    case .mrrOpening: return keyed(keys.currencies, tally.mrrOpening)
    case .mrrNew: return keyed(keys.currencies, tally.mrrNew)
    case .mrrReactivation: return keyed(keys.currencies, tally.mrrReactivation)
    case .mrrExpansion: return keyed(keys.currencies, tally.mrrExpansion)
    case .mrrContraction: return keyed(keys.currencies, tally.mrrContraction)
    case .mrrChurn: return keyed(keys.currencies, tally.mrrChurn)
    case .refundGrantRate:
      return .rate(numerator: tally.refundsGranted, denominator: tally.refundsGranted + tally.refundsDeclined)
    case .arppu:
      return ReportDerivation.arppu(revenue: keyed(keys.currencies, tally.revenue), payingCustomers: tally.payingCustomers)
    case .firstPaymentRevenue: return Self.cumulative(tally, currencies: keys.currencies)
    case .ltv:
      return ReportDerivation.ltv(
        firstPaymentRevenue: Self.cumulative(tally, currencies: keys.currencies), customers: tally.firstPaymentCustomers)
    case .newSubscriptions: return keyed(keys.products, tally.newSubscriptions)
    case .trialConversionDays:
      return .keyed(tally.trialConversionDays.sorted { $0.key < $1.key }.map { (key: String($0.key), value: $0.value) })
    case .trialConversionRate: return .rate(numerator: tally.trialsConverted, denominator: tally.trialsStarted)
    case .paidCohortRetained:
      return .keyed(tally.paidCohortRetained.enumerated().map { (key: String($0.offset), value: $0.element) })
    case .churn: return keyed(keys.reasons, tally.churn)
    case .priceIncreaseAcceptanceRate:
      return .rate(
        numerator: tally.priceIncreasesAccepted, denominator: tally.priceIncreasesAccepted + tally.priceIncreasesDeclined)
    case .billingRecoveryRate: return .rate(numerator: tally.billingIssuesRecovered, denominator: tally.billingIssues)
    case .revenue: return keyed(keys.currencies, tally.revenue)
    case .proceeds: return keyed(keys.currencies, tally.proceeds)
    case .storeFees: return keyed(keys.currencies, tally.storeFees)
    case .proceedsUnknownRevenue: return keyed(keys.currencies, tally.proceedsUnknownRevenue)
    case .proceedsEstimated: return keyed(keys.currencies, tally.proceedsEstimated)
    case .storeFeesEstimated: return keyed(keys.currencies, tally.storeFeesEstimated)
    case .refundRate: return .rate(numerator: tally.refunds, denominator: tally.charges)
    case .refunded: return keyed(keys.currencies, tally.refunded)
    case .reversed: return keyed(keys.currencies, tally.reversed)
    case .credits: return keyed(keys.currencies, tally.credits)
    case .spends: return keyed(keys.currencies, tally.spends)
    case .usageTrialsEnded: return keyed(keys.trialEnds, tally.usageTrialsEnded)
    case .subscriberUses: return keyed(keys.features, tally.subscriberUses)
    case .limitHits: return keyed(keys.features, tally.limitHits)
    case .limitHitConversionRate7d:
      return .rate(numerator: tally.limitHitConversions7d, denominator: tally.limitHitSubjects)
    case .limitHitConversionRate30d:
      return .rate(numerator: tally.limitHitConversions30d, denominator: tally.limitHitSubjects)
    case .leaks:
      return .keyed(
        tally.leaks.map { (key: $0.key, value: $0.value) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    default: preconditionFailure("\(self) is a count")
    }
  }

  /// `first_payment_revenue`: `{CURRENCY/K: N}`, the cohort's net revenue through the bucket K
  /// buckets later, for every K the row reaches, in each currency with any revenue.
  /// - Complexity: O(currencies · offsets).
  private static func cumulative(_ tally: BucketTally, currencies: [String]) -> MetricValue {
    let offsets = tally.paidCohortRetained.count
    var entries: [(key: String, value: Int64)] = []
    for (index, currency) in currencies.enumerated() {
      let row = tally.firstPaymentRevenue[index * offsets..<(index + 1) * offsets]
      guard row.contains(where: { $0 != 0 }) else { continue }
      for (k, total) in row.enumerated() { entries.append((key: currency + "/" + String(k), value: total)) }
    }
    return .keyed(entries.sorted { ReportMetric.firstPaymentRevenue.keyPrecedes($0.key, $1.key) })
  }

  /// This metric's value in one bucket's tally when it is a count; nil otherwise.
  private func count(in tally: BucketTally) -> Int64? {
    switch self {
    case .subscribers: return tally.subscribers
    case .mrrPricedSubscriptions: return tally.mrrPricedSubscriptions
    case .mrrUnpricedSubscriptions: return tally.mrrUnpricedSubscriptions
    case .reactivations: return tally.reactivations
    case .trialsStarted: return tally.trialsStarted
    case .trialConversions: return tally.trialConversions
    case .trialsConverted: return tally.trialsConverted
    case .paidCohortSubjects: return tally.paidCohortSubjects
    case .priceIncreasesAccepted: return tally.priceIncreasesAccepted
    case .priceIncreasesDeclined: return tally.priceIncreasesDeclined
    case .billingRetryEntries: return tally.billingRetryEntries
    case .graceEntries: return tally.graceEntries
    case .billingIssues: return tally.billingIssues
    case .billingRecoveries: return tally.billingRecoveries
    case .billingIssuesRecovered: return tally.billingIssuesRecovered
    case .charges: return tally.charges
    case .refunds: return tally.refunds
    case .proceedsUnknown: return tally.proceedsUnknown
    case .refundReversals: return tally.refundReversals
    case .refundRequests: return tally.refundRequests
    case .refundsDeclined: return tally.refundsDeclined
    case .refundsGranted: return tally.refundsGranted
    case .payingCustomers: return tally.payingCustomers
    case .firstPaymentCustomers: return tally.firstPaymentCustomers
    case .upgrades: return tally.upgrades
    case .downgrades: return tally.downgrades
    case .crossgrades: return tally.crossgrades
    case .usageTrialsStarted: return tally.usageTrialsStarted
    case .usageTrialsConvertedInTrial: return tally.usageTrialsConvertedInTrial
    case .usageTrialsConvertedInGrace: return tally.usageTrialsConvertedInGrace
    case .usageTrialsConvertedAfter: return tally.usageTrialsConvertedAfter
    case .limitHitSubjects: return tally.limitHitSubjects
    case .limitHitConversions7d: return tally.limitHitConversions7d
    case .limitHitConversions30d: return tally.limitHitConversions30d
    default: return nil
    }
  }
}
