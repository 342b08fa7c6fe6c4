import StoreLedgerCore
import StoreLedgerQuery

/// Every metric of a report, in output order; Docs/reports.md defines each one.
package enum ReportMetric: String, Sendable, CaseIterable {
  case active
  case familyShared = "family_shared"
  case subscribers
  case mrr
  case mrrUnpricedSubscriptions = "mrr_unpriced_subscriptions"
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
  case billingRetryEntries = "billing_retry_entries"
  case graceEntries = "grace_entries"
  case billingIssues = "billing_issues"
  case billingRecoveries = "billing_recoveries"
  case billingIssuesRecovered = "billing_issues_recovered"
  case billingRecoveryRate = "billing_recovery_rate"
  case charges
  case revenue
  case refunds
  case refundRate = "refund_rate"
  case refunded
  case refundReversals = "refund_reversals"
  case reversed
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

  /// Whether it is read at the bucket's end (a stock) rather than summed over the bucket (a flow).
  package var isStock: Bool {
    self == .active || self == .familyShared || self == .subscribers || self == .mrr
      || self == .mrrUnpricedSubscriptions
  }

  /// Whether its keyed values are money in thousandths of the currency unit.
  package var isMoney: Bool { self == .revenue || self == .refunded || self == .reversed || self == .mrr }

  /// Whether its keys are whole numbers, ordered as numbers (`trial_conversion_days`, `paid_cohort_retained`).
  package var hasNumericKeys: Bool { self == .trialConversionDays || self == .paidCohortRetained }

  /// Whether its keyed values are listed even when 0 (every entitlement; every offset of the cohort triangle).
  package var keepsZeroKeys: Bool { self == .active || self == .familyShared || self == .paidCohortRetained }

  /// Its unit, as CSV headers name it and Docs/reports.md gives it.
  package var unit: String {
    switch self {
    case .revenue, .refunded, .reversed, .mrr: return "thousandths"
    case .credits, .spends: return "units"
    case .subscriberUses: return "uses"
    case .trialConversionRate, .billingRecoveryRate, .refundRate, .limitHitConversionRate7d,
      .limitHitConversionRate30d:
      return "ratio"
    case .active, .familyShared, .subscribers, .paidCohortSubjects, .paidCohortRetained, .limitHitSubjects,
      .limitHitConversions7d, .limitHitConversions30d, .usageTrialsStarted, .usageTrialsConvertedInTrial,
      .usageTrialsEnded, .usageTrialsConvertedInGrace, .usageTrialsConvertedAfter:
      return "subjects"
    case .mrrUnpricedSubscriptions: return "subscriptions"
    default: return "events"
    }
  }

  /// The words the HTML report uses for it: names that cannot be confused with one another.
  package var title: String {
    switch self {
    case .mrr: return "MRR"
    case .mrrUnpricedSubscriptions: return "active subscriptions without a price (not in MRR)"
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
    default: return rawValue.replacingUnderscores()
    }
  }
}

extension ReportBuilder {
  /// The tallies as a report, dropping the tally of events outside the window.
  func report(asOf: Timestamp?) -> Report {
    let catalog = ledger.catalog
    let currencyNames = (0..<ledger.symbols.currencies.count).map {
      ledger.symbols.currencies.string(Symbol(rawValue: UInt32($0)))
    }
    let productNames = catalog.products.map(\.id)
    let reasonNames = ExpirationReason.allCases.map(\.name) + ["unspecified"]
    func keyed(_ names: [String], _ values: [Int64], keepZeros: Bool = false) -> MetricValue {
      .keyed(
        zip(names, values).filter { keepZeros || $0.1 != 0 }.map { (key: $0.0, value: $0.1) }
          .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }
    var result: [ReportBucket] = []
    for index in 0..<buckets.count {
      let tally = tallies[index]
      let days = tally.trialConversionDays.sorted { $0.key < $1.key }
      var metrics: [(name: String, value: MetricValue)] = []
      for metric in ReportMetric.allCases where catalog.policy != nil || !metric.needsPolicy {
        let value: MetricValue
        switch metric {
        case .active: value = keyed(catalog.entitlementNames, tally.active, keepZeros: true)
        case .familyShared: value = keyed(catalog.entitlementNames, tally.familyShared, keepZeros: true)
        case .subscribers: value = .count(tally.subscribers)
        case .mrr: value = keyed(currencyNames, tally.mrr)
        case .mrrUnpricedSubscriptions: value = .count(tally.mrrUnpricedSubscriptions)
        case .newSubscriptions: value = keyed(productNames, tally.newSubscriptions)
        case .reactivations: value = .count(tally.reactivations)
        case .trialsStarted: value = .count(tally.trialsStarted)
        case .trialConversions: value = .count(tally.trialConversions)
        case .trialConversionDays:
          value = .keyed(days.map { (key: String($0.key), value: $0.value) })
        case .trialsConverted: value = .count(tally.trialsConverted)
        case .trialConversionRate: value = .rate(numerator: tally.trialsConverted, denominator: tally.trialsStarted)
        case .paidCohortSubjects: value = .count(tally.paidCohortSubjects)
        case .paidCohortRetained:
          value = .keyed(tally.paidCohortRetained.enumerated().map { (key: String($0.offset), value: $0.element) })
        case .churn: value = keyed(reasonNames, tally.churn)
        case .billingRetryEntries: value = .count(tally.billingRetryEntries)
        case .graceEntries: value = .count(tally.graceEntries)
        case .billingIssues: value = .count(tally.billingIssues)
        case .billingRecoveries: value = .count(tally.billingRecoveries)
        case .billingIssuesRecovered: value = .count(tally.billingIssuesRecovered)
        case .billingRecoveryRate:
          value = .rate(numerator: tally.billingIssuesRecovered, denominator: tally.billingIssues)
        case .charges: value = .count(tally.charges)
        case .revenue: value = keyed(currencyNames, tally.revenue)
        case .refunds: value = .count(tally.refunds)
        case .refundRate: value = .rate(numerator: tally.refunds, denominator: tally.charges)
        case .refunded: value = keyed(currencyNames, tally.refunded)
        case .refundReversals: value = .count(tally.refundReversals)
        case .reversed: value = keyed(currencyNames, tally.reversed)
        case .upgrades: value = .count(tally.upgrades)
        case .downgrades: value = .count(tally.downgrades)
        case .crossgrades: value = .count(tally.crossgrades)
        case .credits: value = keyed(currencyNames, tally.credits)
        case .spends: value = keyed(currencyNames, tally.spends)
        case .usageTrialsStarted: value = .count(tally.usageTrialsStarted)
        case .usageTrialsConvertedInTrial: value = .count(tally.usageTrialsConvertedInTrial)
        case .usageTrialsEnded:
          value = keyed(["duration"] + (catalog.policy?.features.map(\.name) ?? []), tally.usageTrialsEnded)
        case .usageTrialsConvertedInGrace: value = .count(tally.usageTrialsConvertedInGrace)
        case .usageTrialsConvertedAfter: value = .count(tally.usageTrialsConvertedAfter)
        case .subscriberUses: value = keyed(catalog.policy?.features.map(\.name) ?? [], tally.subscriberUses)
        case .limitHits: value = keyed(catalog.policy?.features.map(\.name) ?? [], tally.limitHits)
        case .limitHitSubjects: value = .count(tally.limitHitSubjects)
        case .limitHitConversions7d: value = .count(tally.limitHitConversions7d)
        case .limitHitConversions30d: value = .count(tally.limitHitConversions30d)
        case .limitHitConversionRate7d:
          value = .rate(numerator: tally.limitHitConversions7d, denominator: tally.limitHitSubjects)
        case .limitHitConversionRate30d:
          value = .rate(numerator: tally.limitHitConversions30d, denominator: tally.limitHitSubjects)
        case .leaks:
          value = .keyed(
            tally.leaks.map { (key: $0.key, value: $0.value) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
        }
        metrics.append((metric.rawValue, value))
      }
      result.append(
        ReportBucket(start: buckets.boundaries[index], end: buckets.boundaries[index + 1], metrics: metrics))
    }
    return Report(interval: buckets.interval, asOf: asOf, buckets: result)
  }
}
