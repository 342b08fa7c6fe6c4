import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `emitCatalog`: a starting catalog from payloads, with placeholders where payloads are silent.
@Suite("App Store import: starting catalog")
struct AppStoreImportCatalogTests: SharedStoreFixtures {
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

  /// One subscription's transactions (start, end, offer type, environment) and the period drafted.
  struct PeriodCase: Sendable, CustomTestStringConvertible {
    var name: String
    var transactions: [(String, String, Int64?, String)]
    var period: String?
    var testDescription: String { name }
  }

  static let periodCases: [PeriodCase] = [
    PeriodCase(name: "a 31-day month", transactions: [("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", nil, "Production")], period: "P1M"),
    PeriodCase(name: "a 28-day February is still a month", transactions: [("2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", nil, "Production")], period: "P1M"),
    PeriodCase(name: "a leap year", transactions: [("2028-01-01T00:00:00Z", "2029-01-01T00:00:00Z", nil, "Production")], period: "P1Y"),
    PeriodCase(name: "a week", transactions: [("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z", nil, "Production")], period: "P1W"),
    PeriodCase(name: "a quarter", transactions: [("2026-01-01T00:00:00Z", "2026-04-01T00:00:00Z", nil, "Production")], period: "P3M"),
    // A 7-day free trial of a monthly plan says nothing about the plan's period.
    PeriodCase(
      name: "an offer's transaction is not measured",
      transactions: [("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z", 1, "Production"), ("2026-03-08T00:00:00Z", "2026-04-08T00:00:00Z", nil, "Production")],
      period: "P1M"),
    PeriodCase(name: "only an offer: no period", transactions: [("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z", 1, "Production")], period: nil),
    PeriodCase(name: "Sandbox's accelerated month (5 minutes)", transactions: [("2026-03-01T00:00:00Z", "2026-03-01T00:05:00Z", nil, "Sandbox")], period: "P1M"),
    PeriodCase(name: "Sandbox's accelerated year (1 hour)", transactions: [("2026-03-01T00:00:00Z", "2026-03-01T01:00:00Z", nil, "Sandbox")], period: "P1Y"),
    PeriodCase(
      name: "the most frequent length wins (a short first period)",
      transactions: [
        ("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z", nil, "Production"), ("2026-03-08T00:00:00Z", "2026-04-08T00:00:00Z", nil, "Production"),
        ("2026-04-08T00:00:00Z", "2026-05-08T00:00:00Z", nil, "Production"),
      ],
      period: "P1M"),
  ]

  @Test("a subscription's drafted period is the nearest nominal period of its full-price transactions", arguments: periodCases)
  func periodFromLengths(_ test: PeriodCase) throws {
    let input = test.transactions.enumerated().map { index, item in
      var transaction = Self.transaction("\(index + 1)", "pro.plan", "Auto-Renewable Subscription")
      transaction.originalTransactionId = "1"
      transaction.purchaseDate = item.0
      transaction.expiresDate = item.1
      transaction.offerType = item.2
      transaction.environment = item.3
      return transaction.json
    }.joined(separator: "\n")
    let catalog = try JSONValue.parse(try AppStoreImporter.emitCatalog(input, file: "in.jsonl"))
    #expect(catalog["products"]?["pro.plan"]?["period"] == test.period.map(JSONValue.string))
    // The draft is a catalog the engine accepts once its placeholders are named.
    #expect(catalog["products"]?["pro.plan"]?["type"] == .string("auto_renewable"))
  }

  @Test("Apple's library transaction states its period (advancedCommerceInfo.period P1M): the draft takes it over the measured length")
  func statedPeriod() throws {
    guard Self.isPresent else { return }
    let file = Self.folder.appendingPathComponent(Self.swiftLib + "models/signedTransaction.json")
    let text = try String(contentsOfFile: file.path, encoding: .utf8)
    let catalog = try JSONValue.parse(try AppStoreImporter.emitCatalog(text, file: "in.jsonl"))
    // Its own length is 100 seconds (a week would be nearest) and it is an offer's.
    #expect(catalog["products"]?["com.example.product"]?["period"] == .string("P1M"))
  }
}
