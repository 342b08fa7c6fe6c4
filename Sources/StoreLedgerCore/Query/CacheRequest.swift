/// A cached answer asked for: what an offline app that last verified at V may show at T
/// (Docs/semantics.md, "Cached answers").
package struct CacheRequest: Sendable, Hashable {
  /// The default staleness budget, `PT24H`.
  package static let defaultMaxStaleness = ISODuration("PT24H")!

  /// V: when the app last verified with the server; the answer is as known then.
  package var verifiedAt: Timestamp
  /// S: how long after V the answer may still show access.
  package var maxStaleness: ISODuration

  /// A request for an answer as verified at `verifiedAt`, shown for at most `maxStaleness`.
  package init(verifiedAt: Timestamp, maxStaleness: ISODuration = CacheRequest.defaultMaxStaleness) {
    self.verifiedAt = verifiedAt
    self.maxStaleness = maxStaleness
  }

  /// Whether an answer at T is past the budget (T > V + S; exactly V + S is still fresh).
  package func isStale(at time: Timestamp) -> Bool { time > maxStaleness.added(to: verifiedAt) }
}
