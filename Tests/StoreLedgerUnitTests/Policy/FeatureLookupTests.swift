import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Feature look-up by bytes")
struct FeatureLookupTests {
  @Test(
    "every feature is found by its own bytes and near misses are not",
    arguments: ["interaction", "pattern", "saved_trip", "weekly", "monthly", "deep_compare"])
  func findsEachFeature(name: String) throws {
    let catalog = try Catalog.parse(policyCatalogText(), file: "catalog.json")
    let policy = try #require(catalog.policy)
    let index = try #require(policy.featureIndex(of: name))
    #expect(policy.features[index].name == name)
    for miss in [name + "s", String(name.dropLast()), name.uppercased(), "", "a" + name] {
      #expect(policy.featureIndex(of: miss) == nil, "\(miss)")
    }
  }
}
