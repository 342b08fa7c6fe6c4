import StoreLedgerCore

extension GooglePlayMapper {
  /// How long Google waits for a purchase to be acknowledged before it refunds and revokes it.
  static let acknowledgementWindowMilliseconds: Int64 = 3 * 86_400_000

  /// Warns, once per purchase token, about a subscription resource fetched three days or more
  /// after its start and still `ACKNOWLEDGEMENT_STATE_PENDING`: Google refunds and revokes such
  /// a purchase, and the revocation arrives as SUBSCRIPTION_REVOKED or a voided purchase.
  /// - Complexity: O(n) in the number of subscription resources.
  mutating func warnUnacknowledged() {
    var warned: Set<String> = []
    for key in subscriptions.keys.sorted() {
      for resource in subscriptions[key]!.sorted(by: { $0.line < $1.line })
      where resource.acknowledgementState == "ACKNOWLEDGEMENT_STATE_PENDING" {
        guard let start = resource.startTime, let fetched = resource.knownAt,
          fetched.millisecondsSinceEpoch - start.millisecondsSinceEpoch
            >= Self.acknowledgementWindowMilliseconds,
          warned.insert(resource.token).inserted
        else { continue }
        problems.warning(
          resource.line,
          "purchase token '\(resource.token)' was still not acknowledged when fetched at \(fetched.rfc3339), three days or more after it began (\(start.rfc3339)): Google refunds and revokes purchases not acknowledged within three days; acknowledge it (purchases.subscriptions.acknowledge) and import the voided purchases list"
        )
      }
    }
  }
}
