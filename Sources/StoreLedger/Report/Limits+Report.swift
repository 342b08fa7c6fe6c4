extension Limits {
  /// Most buckets one report may have; a longer span is a usage error asking for longer buckets.
  ///
  /// A report's memory is the ledger plus its buckets; 20,000 days is 55 years, far beyond
  /// any store's history, while keeping a mistyped year (`--to 2206-01-01`) from exhausting memory.
  package static let reportBucketsMax = 20_000
}
