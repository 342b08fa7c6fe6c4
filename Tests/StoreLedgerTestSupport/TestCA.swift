import Foundation
import StoreLedgerCore
import StoreLedgerImport

/// Signed App Store input made by the project's test CA (Tests/TestCA/testca.py): the samples,
/// a valid notification, and chains that each break one rule.
package enum TestCA {
  package static let root = repoPath("Tests/TestCA/root.pem")
  package static let catalog = repoPath("Events/appstore/catalog.json")
  package static let cases: [String: String] = {
    let data = try! Data(contentsOf: URL(fileURLWithPath: repoPath("Tests/TestCA/cases.json")))
    return try! JSONSerialization.jsonObject(with: data) as! [String: String]
  }()

  /// A notification line as Apple POSTs it.
  package static func line(_ jws: String) -> String { #"{"signedPayload":""# + jws + #""}"# }

  /// The root certificate of the test CA.
  package static func rootCertificate() throws -> X509Certificate {
    try AppStoreTrust.certificate(fromFile: Array(Data(contentsOf: URL(fileURLWithPath: root)))).get()
  }
}
