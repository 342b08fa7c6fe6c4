import Foundation

/// The catalog and the refetched subscription of the Google Play identity tests, in process and on
/// the command line.
package protocol GooglePlayIdentityFixture {}

extension GooglePlayIdentityFixture {
  /// The test catalog with a second plan of the `pro` group a deferred replacement can name.
  package static var catalogText: String {
    GP.catalogText.replacingOccurrences(
      of: #""plus":"#,
      with: #""max:monthly": {"type": "auto_renewable", "group": "pro", "level": 3, "entitlements": ["pro"]}, "plus":"#)
  }

  /// Token A bought by user-42 on 1 January; the copy fetched on 10 January names user-77.
  package static var refetched: [String] {
    [
      GP.subscription(expiry: "2026-02-01T10:00:00Z", fetched: "2026-01-01T10:00:01Z"),
      GP.subscription(expiry: "2026-02-01T10:00:00Z", account: "user-77", fetched: "2026-01-10T00:00:00Z"),
    ]
  }
}
