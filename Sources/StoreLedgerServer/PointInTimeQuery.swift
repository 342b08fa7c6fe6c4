import StoreLedger

/// The `at`, `as_of`, `cached_at` and `max_staleness` query parameters of the answer routes:
/// the CLI's `--at`, `--as-of`, `--cached-at` and `--max-staleness`, with the same forms and checks.
package struct PointInTimeQuery: Sendable {
  /// Effective time T.
  package var at: Timestamp
  /// Knowledge time R (nil: everything known).
  package var asOf: Timestamp?
  /// A cached answer asked for (`cached_at`).
  package var cache: CacheRequest?

  /// Reads the parameters of `query`; `now` is the clock's time (the default T, and `now`/`today`).
  /// - Throws: a bad parameter; `cache_after_answer` when `cached_at` is after `at`.
  package init(_ query: [String: String], now: Timestamp) throws(RequestFailure) {
    let time = TimeInput(now: now)
    func instant(_ name: String) throws(RequestFailure) -> Timestamp? {
      guard let text = query[name] else { return nil }
      guard case .success(let value) = time.parse(text) else {
        throw .server(.badParameter(name: name, value: text, expected: TimeInput.formsDescription))
      }
      return value
    }
    at = try instant("at") ?? now
    asOf = try instant("as_of")
    guard let cachedAt = try instant("cached_at") else {
      if query["max_staleness"] != nil { throw .server(.missingParameter(name: "cached_at", expected: "max_staleness needs the time the answer was last verified")) }
      cache = nil
      return
    }
    guard asOf == nil else {
      throw .server(.badParameter(name: "as_of", value: query["as_of"] ?? "", expected: "no as_of with cached_at: a cached answer is as known at cached_at"))
    }
    guard cachedAt <= at else {
      throw .ledger(DiagnosticList([Diagnostic(.cacheAfterAnswer(verifiedAt: cachedAt.rfc3339, at: at.rfc3339))]))
    }
    var staleness = CacheRequest.defaultMaxStaleness
    if let text = query["max_staleness"] {
      guard let parsed = ISODuration(text) else {
        throw .server(.badParameter(name: "max_staleness", value: text, expected: "an ISO 8601 duration such as PT24H or P3D, \(ISODuration.lengthLimitDescription)"))
      }
      staleness = parsed
    }
    cache = CacheRequest(verifiedAt: cachedAt, maxStaleness: staleness)
  }
}
