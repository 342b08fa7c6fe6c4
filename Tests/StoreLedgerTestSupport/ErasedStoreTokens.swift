import Foundation

@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// What an erasure of a subject must remove from store data, for the erasure tests in process and
/// on the command line.
package protocol ErasedStoreTokens {}

extension ErasedStoreTokens {
  /// The values an erasure of `subject` must remove: the subject, and every store token of its
  /// lines (under a token or account key of `meta`, and Google Play's first purchase token as
  /// `original_transaction`).
  package static func tokens(of subject: String, log: String) throws -> Set<String> {
    var found: Set<String> = []
    for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
      let value = try JSONValue.parse(String(line))
      guard value["subject"]?.stringValue == subject, let meta = value["meta"] else { continue }
      found.formUnion(ErasureRewrite.tokenValues(in: meta, underTokenKey: false))
    }
    return found
  }
}
