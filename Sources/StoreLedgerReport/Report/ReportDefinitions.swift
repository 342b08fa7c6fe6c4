/// The one-line definitions the HTML report prints beside its headline figures and charts.
/// Docs/reports.md ("The HTML report") holds each of them word for word (a test checks it), and each
/// names the JSON report's fields it reads.
enum ReportDefinitions {
  /// Active subscribers.
  static let subscribers =
    "Subjects with an auto-renewable subscription giving access at the bucket's end (subscribers), trials and grace included."
  /// MRR.
  static let mrr =
    "Monthly recurring revenue at the bucket's end (mrr), per currency: each paid subscription's price per month of its billing period (a yearly plan adds a twelfth); subscriptions without a price are not in it, and coverage says how many are (mrr_priced_subscriptions of mrr_priced_subscriptions + mrr_unpriced_subscriptions)."
  /// MRR change.
  static let mrrChange =
    "MRR at the bucket's end minus MRR at its start (mrr − mrr_opening, the previous bucket's mrr), per currency, and as a share of the start."
  /// Churn rate.
  static let churnRate =
    "Subscriptions ended by an expiration event in the bucket (churn, every reason) ÷ active subscribers at the bucket's start (subscribers of the bucket before)."
  /// Trial conversion.
  static let trialConversion =
    "Of the trials started in the bucket, the share converted by the report's end (trials_converted ÷ trials_started, the trial_conversion_rate); the newest buckets rise as their trials end."
  /// Refunds.
  static let refunds =
    "Charges refunded in the bucket (refunds), as a share of the bucket's charges (refund_rate), and the amounts taken back (refunded)."
  /// The totals in one currency (`--rates`).
  static let total =
    "With --rates, a money figure's currencies summed in one currency, each at the newest rate dated before the bucket's end; a currency without one leaves the total out (–)."

  // Beside each section's charts.
  /// The active section.
  static let active =
    "Subjects holding each entitlement at the bucket's end (active) and subjects with a subscription giving access there (subscribers)."
  /// The movement section.
  static let movement =
    "How MRR moved from the bucket's start to its end, customer by customer (mrr_new, mrr_reactivation, mrr_expansion, mrr_contraction, mrr_churn)."
  /// The revenue section.
  static let revenue =
    "The prices of the charges effective in the bucket minus what refunds took back (revenue), per currency, never converted; beside it what the stores pay of it, stated by the charges (proceeds) or estimated from the catalog's store_fees (proceeds_estimated)."
  /// The acquisition section.
  static let acquisition =
    "Subscriptions started, not reactivations (new_subscriptions), by product; trials started (trials_started) and paid charges ending a trial (trial_conversions)."
  /// The cohort section.
  static let cohort =
    "Of the subjects whose first paid period began in a bucket (paid_cohort_subjects), the share still paying k buckets later (paid_cohort_retained)."
  /// The lifetime section.
  static let lifetime =
    "Net revenue per paying customer of each first-payment cohort, cumulative k buckets after its first payment (ltv)."
  /// The churn section.
  static let churn =
    "Subscriptions ended by an expiration event in the bucket, by reason (churn); a lapse without an expiration event is not counted here."
  /// The price increases section.
  static let priceIncreases =
    "Renewals charged more than their subscription's previous regular-price charge of the same product and currency (price_increases_accepted), expirations because a price increase was not accepted (price_increases_declined), and the share accepted (price_increase_acceptance_rate)."
  /// The billing section.
  static let billing =
    "Subscriptions entering billing retry or grace, and those a renewal recovered (billing_retry_entries, grace_entries, billing_recoveries)."
  /// The refunds section.
  static let refundsSection =
    "Charges refunded (refunds), refunds reversed (refund_reversals), and refund requests with the stores' decisions, in the bucket each happened."
  /// The plan changes section.
  static let planChanges =
    "Changes of plan to a higher, lower or the same catalog level (upgrades, downgrades, crossgrades)."
  /// The consumables section.
  static let consumables =
    "Units of consumable currencies credited by purchases (credits) and spent (spends)."
  /// The usage section.
  static let usage =
    "Usage trials, subjects reaching a feature's limit and converting within 7 or 30 days, and uses the policy should have refused (leaks)."

  /// Every definition the report can print, for the test that Docs/reports.md holds each.
  static var all: [String] {
    [subscribers, mrr, mrrChange, churnRate, trialConversion, refunds, total] + ReportSection.all.map(\.definition)
  }
}
