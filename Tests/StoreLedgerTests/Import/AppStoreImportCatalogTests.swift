import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `emitCatalog`: a starting catalog from payloads, with placeholders where payloads are silent.
@Suite("App Store import: starting catalog")
struct AppStoreImportCatalogTests {
  static func transaction(_ id: String, _ product: String, _ type: String, group: String = "pro")
    -> AppleTransaction
  {
    AppleTransaction(
      transactionId: id, originalTransactionId: id, productId: product,
      purchaseDate: "2026-03-01T00:00:00Z", signedDate: "2026-03-01T00:00:00Z", type: type,
      subscriptionGroupIdentifier: group)
  }

  @Test("every product type gets its entry; family sharing seen once marks the product shareable")
  func everyType() throws {
    var shared = Self.transaction("2", "pro.monthly", "Auto-Renewable Subscription")
    shared.inAppOwnershipType = "FAMILY_SHARED"
    let input = [
      Self.transaction("1", "pro.monthly", "Auto-Renewable Subscription").json, shared.json,
      Self.transaction("3", "coins.100", "Consumable").json,
      Self.transaction("4", "pro.lifetime", "Non-Consumable").json,
      Self.transaction("5", "pass.week", "Non-Renewing Subscription").json,
    ].joined(separator: "\n")
    let catalog = try AppStoreImporter.emitCatalog(input, file: "in.jsonl")
    #expect(
      catalog == """
        {
          "products": {
            "coins.100": {
              "type": "consumable"
            },
            "pass.week": {
              "duration": "TODO:duration",
              "entitlements": [
                "TODO:entitlement-for-pass.week"
              ],
              "type": "non_renewing"
            },
            "pro.lifetime": {
              "entitlements": [
                "TODO:entitlement-for-pro.lifetime"
              ],
              "type": "non_consumable"
            },
            "pro.monthly": {
              "entitlements": [
                "TODO:entitlement-for-group-pro"
              ],
              "family_shareable": true,
              "group": "pro",
              "type": "auto_renewable"
            }
          }
        }

        """)
    // The invented duration is invalid on purpose: the catalog cannot be used until it is set.
    do {
      _ = try Catalog.parse(catalog, file: "catalog.json")
      Issue.record("a catalog with TODO:duration was accepted")
    } catch {
      #expect(
        error.diagnostics.map(\.message).contains {
          $0.contains("'pass.week'") && $0.contains("duration")
        })
    }
  }

  @Test("a product seen with two types, or without a type, is an error")
  func conflicts() {
    var untyped = Self.transaction("3", "pro.annual", "Auto-Renewable Subscription").json
    untyped = AppStoreImportErrorTests.edited(untyped, "type", nil)
    let input = [
      Self.transaction("1", "pro.monthly", "Auto-Renewable Subscription").json,
      Self.transaction("2", "pro.monthly", "Non-Consumable").json,
      untyped,
    ].joined(separator: "\n")
    do {
      let catalog = try AppStoreImporter.emitCatalog(input, file: "in.jsonl")
      Issue.record("conflicting types were accepted: \(catalog)")
    } catch {
      #expect(
        error.diagnostics.map(\.description) == [
          "in.jsonl:2: error: product 'pro.monthly' is non_consumable here but auto_renewable in group 'pro' on line 1",
          "in.jsonl:3: error: field 'type' is missing; it is needed to tell the type of product 'pro.annual'",
        ])
    }
  }
}
