import Foundation

/// The store payloads of `../shared/fixtures`, for the importers' tests in process and on the
/// command line.
package protocol SharedStoreFixtures {}

extension SharedStoreFixtures {
  package static var folder: URL {
    packageRoot.appendingPathComponent("../shared/fixtures").standardizedFileURL
  }

  package static var isPresent: Bool {
    FileManager.default.fileExists(atPath: folder.path)
  }

  package static var swiftLib: String {
    "apple-app-store-server-library-swift/"
  }

  /// A catalog with the products the fixtures name.
  package static var catalogText: String {
    """
    {"products": {
      "com.example.product": {"type": "auto_renewable", "group": "55555", "entitlements": ["example"]},
      "com.example.product.2": {"type": "auto_renewable", "group": "55555", "entitlements": ["example"]},
      "pass.premium": {"type": "auto_renewable", "group": "6F3A93AB", "entitlements": ["premium"]},
      "week_premium": {"type": "auto_renewable", "group": "premium", "entitlements": ["premium"]},
      "month_premium": {"type": "auto_renewable", "group": "premium", "entitlements": ["premium"]}
    }}
    """
  }
}
