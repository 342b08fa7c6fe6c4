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
}
