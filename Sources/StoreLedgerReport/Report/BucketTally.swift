import StoreLedgerCore

/// Counts for one bucket while a report is built, in arrays indexed by catalog or symbol number.
///
/// Arrays are sized once per bucket so tallying an event never allocates (the trial-day
/// histogram is the one dictionary; it grows only on conversions).
struct BucketTally {
  /// Subjects holding each entitlement at the bucket's end, by entitlement index.
  var active: [Int64]
  /// Of those, the subjects whose reported grant is family-shared.
  var familyShared: [Int64]
  /// Of `active`, the subjects whose reported grant is a support `grant` (contract v1.3, section 10).
  var grantedActive: [Int64]
  /// Subjects a service blocks at the bucket's end, by service (a subject blocked by two counts under each).
  var blocksActive: [String: Int64] = [:]
  /// Subjects with a subscription giving access at the bucket's end.
  var subscribers: Int64 = 0
  /// Monthly recurring revenue at the bucket's end in thousandths, by currency symbol.
  var mrr: [Int64]
  /// Owned subscriptions giving access at the bucket's end through a paid charge with a price (in `mrr`).
  var mrrPricedSubscriptions: Int64 = 0
  /// Owned subscriptions giving access at the bucket's end through a paid charge without a price.
  var mrrUnpricedSubscriptions: Int64 = 0
  /// MRR at the bucket's start, and its movement to the end (new, reactivation, expansion,
  /// contraction, churn), in thousandths by currency symbol, summed over customers.
  var mrrOpening: [Int64]
  var mrrNew: [Int64]
  var mrrReactivation: [Int64]
  var mrrExpansion: [Int64]
  var mrrContraction: [Int64]
  var mrrChurn: [Int64]
  /// Subjects whose first owned paid subscription period began in this bucket.
  var paidCohortSubjects: Int64 = 0
  /// Of those, the subjects paying at the end of the bucket `k` buckets later, by k.
  var paidCohortRetained: [Int64]
  /// New subscriptions by product index.
  var newSubscriptions: [Int64]
  var reactivations: Int64 = 0
  var trialsStarted: Int64 = 0
  var trialConversions: Int64 = 0
  /// Conversions by the trial day they happened on (0 = the first 24 hours).
  var trialConversionDays: [Int64: Int64] = [:]
  /// Trials started in this bucket that converted before the report's end.
  var trialsConverted: Int64 = 0
  /// Expirations by `ExpirationReason` raw value; the last slot is "unspecified".
  var churn: [Int64]
  /// Owned renewals charged more than their subscription's previous charge (`PeriodCharge.isRaised`).
  var priceIncreasesAccepted: Int64 = 0
  /// Expirations with reason `price_increase` (its slot of `churn`).
  var priceIncreasesDeclined: Int64 { churn[Int(ExpirationReason.priceIncrease.rawValue)] }
  var billingRetryEntries: Int64 = 0
  var graceEntries: Int64 = 0
  var billingIssues: Int64 = 0
  var billingRecoveries: Int64 = 0
  /// Billing issues started in this bucket that recovered before the report's end.
  var billingIssuesRecovered: Int64 = 0
  var charges: Int64 = 0
  var refunds: Int64 = 0
  var refundReversals: Int64 = 0
  var refundRequests: Int64 = 0
  var refundsDeclined: Int64 = 0
  /// Refunds (reason `refund`) of a transaction with an earlier `refund_requested`.
  var refundsGranted: Int64 = 0
  /// Customers with an owned charge of a price above 0 in the bucket.
  var payingCustomers: Int64 = 0
  /// Customers whose first owned charge of a price above 0 is in the bucket.
  var firstPaymentCustomers: Int64 = 0
  /// Their net revenue through the bucket `k` buckets later (cumulative), at `currency × cohortOffsets + k`.
  var firstPaymentRevenue: [Int64]
  var upgrades: Int64 = 0
  var downgrades: Int64 = 0
  var crossgrades: Int64 = 0
  /// Amounts in thousandths by currency symbol.
  var revenue: [Int64]
  var refunded: [Int64]
  var reversed: [Int64]
  /// Of net revenue: the stores' stated proceeds, the rest of those charges (the stores' fees), and
  /// the charges stating none; thousandths by currency symbol (their sum is `revenue`).
  var proceeds: [Int64]
  var storeFees: [Int64]
  var proceedsUnknownRevenue: [Int64]
  /// Of net revenue, for charges stating no proceeds whose store the catalog's `store_fees`
  /// rates: the estimated proceeds and the rest (the estimated fees).
  var proceedsEstimated: [Int64]
  var storeFeesEstimated: [Int64]
  /// Charges with a price and neither stated nor estimated `proceeds`.
  var proceedsUnknown: Int64 = 0
  /// Consumable units by currency symbol.
  var credits: [Int64]
  var spends: [Int64]
  // Usage policy metrics (only with a catalog policy).
  var usageTrialsStarted: Int64 = 0
  /// Of the usage trials started in this bucket: converted before maturity, ended (by
  /// `duration` at index 0, else by feature index + 1), converted in grace, converted after it.
  var usageTrialsConvertedInTrial: Int64 = 0
  var usageTrialsEnded: [Int64]
  var usageTrialsConvertedInGrace: Int64 = 0
  var usageTrialsConvertedAfter: Int64 = 0
  /// Uses (positive quantities) by subjects with a subscription giving access at the use, by feature index.
  var subscriberUses: [Int64]
  /// Limit hits by feature index.
  var limitHits: [Int64]
  var limitHitSubjects: Int64 = 0
  var limitHitConversions7d: Int64 = 0
  var limitHitConversions30d: Int64 = 0
  /// Leaks by `feature.tier` (`feature.none` when no tier offers it).
  var leaks: [String: Int64] = [:]

  /// `cohortOffsets`: how many bucket ends the cohort of this bucket is followed to (the triangle's row).
  init(entitlements: Int, products: Int, currencies: Int, features: Int, cohortOffsets: Int) {
    paidCohortRetained = Array(repeating: 0, count: cohortOffsets)
    limitHits = Array(repeating: 0, count: features)
    usageTrialsEnded = Array(repeating: 0, count: features + 1)
    subscriberUses = limitHits
    active = Array(repeating: 0, count: entitlements)
    familyShared = active
    grantedActive = active
    newSubscriptions = Array(repeating: 0, count: products)
    churn = Array(repeating: 0, count: ExpirationReason.allCases.count + 1)
    revenue = Array(repeating: 0, count: currencies)
    refunded = revenue
    reversed = revenue
    proceeds = revenue
    storeFees = revenue
    proceedsUnknownRevenue = revenue
    proceedsEstimated = revenue
    storeFeesEstimated = revenue
    credits = revenue
    spends = revenue
    mrr = revenue
    mrrOpening = revenue
    mrrNew = revenue
    mrrReactivation = revenue
    mrrExpansion = revenue
    mrrContraction = revenue
    mrrChurn = revenue
    firstPaymentRevenue = Array(repeating: 0, count: currencies * cohortOffsets)
  }
}
