/// The Google Play lifecycle story, for the importer's tests in process and on the command line.
package protocol GooglePlayLifecycleStory {}

extension GooglePlayLifecycleStory {
  /// Buy monthly, renew, grace, recover, upgrade to annual on a new token linking the old one
  /// (the old one expires by replacement), cancel, expire; notifications both pushed and
  /// decoded.
  package static var story: [String] {
    [
      GP.push(GP.notification(4, at: "2026-01-01T10:00:00Z"), messageID: "1"),
      GP.subscription(expiry: "2026-02-01T10:00:00Z"),
      GP.push(GP.notification(2, at: "2026-02-01T10:00:03Z"), messageID: "2"),
      GP.subscription(order: GP.orderA + "..0", expiry: "2026-03-01T10:00:03Z"),
      GP.notification(6, at: "2026-03-01T10:00:06Z"),
      GP.subscription(
        state: "IN_GRACE_PERIOD", order: GP.orderA + "..0", expiry: "2026-03-08T10:00:03Z"),
      GP.notification(1, at: "2026-03-03T12:00:00Z"),
      GP.subscription(order: GP.orderA + "..1", expiry: "2026-04-03T12:00:00Z"),
      GP.push(GP.notification(4, GP.tokenB, at: "2026-03-15T09:00:00Z"), messageID: "3"),
      GP.subscription(
        GP.tokenB, order: GP.orderB, start: "2026-03-15T09:00:00Z", expiry: "2027-03-15T09:00:00Z",
        plan: "annual", linked: GP.tokenA),
      GP.notification(13, at: "2026-03-15T09:00:01Z"),
      GP.subscription(
        state: "EXPIRED", order: GP.orderA + "..1", expiry: "2026-03-15T09:00:01Z",
        cancel: #"{"replacementCancellation":{}}"#, autoRenew: false),
      GP.notification(3, GP.tokenB, at: "2026-05-01T00:00:00Z"),
      GP.subscription(
        GP.tokenB, state: "CANCELED", order: GP.orderB, start: "2026-03-15T09:00:00Z",
        expiry: "2027-03-15T09:00:00Z", plan: "annual", linked: GP.tokenA,
        cancel: GP.userCancel(at: "2026-05-01T00:00:00Z"), autoRenew: false),
      GP.notification(13, GP.tokenB, at: "2027-03-15T09:00:05Z"),
      GP.subscription(
        GP.tokenB, state: "EXPIRED", order: GP.orderB, start: "2026-03-15T09:00:00Z",
        expiry: "2027-03-15T09:00:00Z", plan: "annual", linked: GP.tokenA,
        cancel: GP.userCancel(at: "2026-05-01T00:00:00Z"), autoRenew: false),
      GP.product(productID: "lifetime", at: "2026-04-01T00:00:00Z"),
      GP.voidedList(
        GP.tokenC, order: "GPA.3301-0001-0002-00003", at: "2026-04-05T00:00:00Z", reason: 1),
    ]
  }
}
