import StoreLedgerCore

extension Limits {
  /// Most buckets one report may have; a longer span is a usage error asking for longer buckets.
  ///
  /// A report's memory is the ledger plus its buckets; 20,000 days is 55 years, far beyond
  /// any store's history, while keeping a mistyped year (`--to 2206-01-01`) from exhausting memory.
  package static let reportBucketsMax = 20_000

  /// Largest magnitude of a count or amount in a report bucket (money in thousandths, units);
  /// a sum that would pass it is an error (65) naming the bucket and the metric. Half of
  /// `Int64.max` or less, so a comparison's change (after − before) cannot overflow either.
  package static let reportValueMax: Int64 = 4_000_000_000_000_000_000
  /// Largest numerator or denominator of a rate (a count of events or subjects); a rate's
  /// ten-thousandths are computed as `numerator × 20,000`, which must not overflow.
  package static let reportRatePartMax: Int64 = 400_000_000_000_000

  /// Most bucket ends a paid cohort is followed to (`paid_cohort_retained` has keys 0 to this − 1):
  /// the triangle grows with the square of the buckets, so 20,000 daily buckets would hold 2·10⁸
  /// cells; 400 offsets keep it under 8·10⁶ (33 years of months, 13 months of days).
  package static let reportCohortOffsetsMax = 400

  /// Most lines a rates file (`report --rates`) may have: a rate a day for 30 currencies over
  /// nine years, read whole into memory.
  package static let exchangeRateLinesMax = 100_000

  /// Most uses `timeline --format text` lists one by one; past it they are counted per day under
  /// USAGE only, so a heavy user's ticket is not thousands of lines (the HTML lists them folded).
  package static let timelineTextUsesMax = 20
}
