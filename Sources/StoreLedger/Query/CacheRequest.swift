/// A cached answer asked for: what an offline app that last verified at V may show at T
/// (Docs/semantics.md, "Cached answers").
public struct CacheRequest: Sendable, Hashable {
  /// The default staleness budget, `PT24H`.
  public static let defaultMaxStaleness = ISODuration("PT24H")!

  /// V: when the app last verified with the server; the answer is as known then.
  public var verifiedAt: Timestamp
  /// S: how long after V the answer may still show access.
  public var maxStaleness: ISODuration

  /// A request for an answer as verified at `verifiedAt`, shown for at most `maxStaleness`.
  public init(verifiedAt: Timestamp, maxStaleness: ISODuration = CacheRequest.defaultMaxStaleness) {
    self.verifiedAt = verifiedAt
    self.maxStaleness = maxStaleness
  }

  /// Whether an answer at T is past the budget (T > V + S; exactly V + S is still fresh).
  public func isStale(at time: Timestamp) -> Bool { time > maxStaleness.added(to: verifiedAt) }
}
