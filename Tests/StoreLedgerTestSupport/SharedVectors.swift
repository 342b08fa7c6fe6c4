import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The shared test vectors (Wycheproof, SHA-384 answers, Apple's certificates and real
/// payloads), read at test time from `../shared/vectors` beside the package; never copied in.
package enum SharedVectors {
  /// The folder, found relative to the package root.
  package static let folder = packageRoot.appendingPathComponent("../shared/vectors").standardizedFileURL

  /// Whether the folder is there (tests that need it are skipped, with this message, otherwise).
  package static let present = FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path)

  /// Why the tests that need the vectors did not run.
  package static let absentMessage: Comment = "../shared/vectors is absent beside the package: vector tests skipped"

  /// The bytes of a file under the folder.
  package static func bytes(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: folder.appendingPathComponent(relative)))
  }

  /// A file's text, without surrounding whitespace.
  package static func text(_ relative: String) throws -> String {
    String(decoding: try bytes(relative), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A file parsed as JSON.
  package static func json(_ relative: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(try bytes(relative)))
  }
}

/// Bytes of a hexadecimal string (test data).
package func hexBytes(_ hex: String) -> [UInt8] {
  let digits = Array(hex.utf8)
  var out: [UInt8] = []
  var index = 0
  while index + 1 < digits.count {
    out.append(UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)!)
    index += 2
  }
  return out
}

/// Lower-case hexadecimal of bytes.
package func hexString(_ bytes: some Sequence<UInt8>) -> String {
  bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

extension SharedVectors {
  /// One of Apple's real payloads (`apple/real/`), by file name.
  package static func appleRealPayload(_ file: String) throws -> String { try text("apple/real/" + file) }
}
