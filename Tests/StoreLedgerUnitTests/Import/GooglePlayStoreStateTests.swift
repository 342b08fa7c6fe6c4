import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// Issue 35's check on captured data: imported together, a set of Google Play documents must
/// give, at every resource's `fetchTime` and as known then, the access the store's own state
/// says (ACTIVE, CANCELED and IN_GRACE_PERIOD before `expiryTime` give access; ON_HOLD, PAUSED,
/// EXPIRED and PENDING do not), and every charge the store priced (an `Order` document, or a
/// copy in the base price phase) must carry a price.
@Suite("Google Play import: the ledger's access at every fetch time is the store's own state")
struct GooglePlayStoreStateTests: SharedStoreFixtures {
  /// What one set of documents showed.
  struct Agreement {
    /// Documents that import on their own (the others are refused, see StoreFixturesTests).
    var documents = 0
    /// Subscription resources with a `fetchTime`: the instants compared.
    var fetches = 0
    /// Where the ledger's access differs from the store's state.
    var disagreements: [String] = []
    /// Charges the store priced.
    var pricedCharges = 0
    /// Of those, charges imported without a price.
    var unpriced: [String] = []
  }

  /// Imports `documents` (each one document) in one run and compares, at each fetch time.
  static func check(_ documents: [String], catalogText: String) throws -> Agreement {
    let catalog = fixtureCatalog(catalogText)
    let options = GooglePlayImportOptions(allowsTestPurchases: true)
    let usable = documents.filter {
      (try? GooglePlayImporter.importEvents($0, file: "one", catalog: catalog, options: options)) != nil
    }
    let result = try GooglePlayImporter.importEvents(
      usable.joined(separator: "\n"), file: "all", catalog: catalog, options: options)
    var engine = QueryEngine(ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: catalogText))
    let events = result.eventLines.compactMap { try? JSONValue.parse($0) }
    var agreement = Agreement(documents: usable.count)
    var pricedOrders: Set<String> = []
    for text in usable {
      guard let document = try? JSONValue.parse(text) else { continue }
      if let orderID = document["orderId"]?.stringValue, document["lineItems"] != nil {
        pricedOrders.insert(orderID)
      }
      guard let resource = document["subscriptionPurchaseV2"], let token = document["purchaseToken"]?.stringValue,
        let fetched = document["fetchTime"]?.stringValue.flatMap(Timestamp.parseRFC3339),
        case .array(let items)? = resource["lineItems"], let item = items.first,
        let expiry = item["expiryTime"]?.stringValue.flatMap(Timestamp.parseRFC3339),
        let state = resource["subscriptionState"]?.stringValue
      else { continue }
      if item["offerPhase"]?["basePrice"] != nil, let order = item["latestSuccessfulOrderId"]?.stringValue {
        pricedOrders.insert(order)
      }
      let grants = ["SUBSCRIPTION_STATE_ACTIVE", "SUBSCRIPTION_STATE_CANCELED", "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"]
      let storeAccess = grants.contains(state) && fetched < expiry
      // Whose the token's events are (every line of a purchase keeps one subject).
      let subjects = Set(
        events.filter { $0["meta"]?["purchaseToken"] == .string(token) }.compactMap { $0["subject"]?.stringValue })
      let ledgerAccess = subjects.contains {
        !engine.answer(subject: $0, at: fetched, asOf: fetched).entitlements.isEmpty
      }
      agreement.fetches += 1
      if storeAccess != ledgerAccess {
        agreement.disagreements.append("\(token.prefix(24)) at \(fetched.rfc3339): store \(state), ledger \(ledgerAccess)")
      }
    }
    for event in events where event["type"] == .string("purchase") || event["type"] == .string("renewal") {
      guard let transaction = event["transaction"]?.stringValue, pricedOrders.contains(transaction) else { continue }
      agreement.pricedCharges += 1
      if event["price"] == nil { agreement.unpriced.append(transaction) }
    }
    return agreement
  }

  /// The documents of a folder: each file one document (a Pub/Sub `message.data` file is one
  /// line of base64), in name order.
  static func documents(in folder: String) -> [String] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".b64") }.compactMap {
      (try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  @Test("the lifecycles of Events/googleplay/lifecycles: access at every fetch time is the store's state, and every priced charge has a price")
  func lifecycles() throws {
    let agreement = try Self.check(
      Self.documents(in: repoPath("Events/googleplay/lifecycles")),
      catalogText: ImportPropertyTests.Store.file("Events/googleplay/catalog.json"))
    // Nine resources carry a fetchTime (five with access: active, canceled, in grace; on hold
    // and expired without), four orders are in the base price phase.
    #expect(agreement.fetches == 9)
    #expect(agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    #expect(agreement.pricedCharges == 4)
    #expect(agreement.unpriced.isEmpty, "\(agreement.unpriced)")
  }

  @Test("a copy fetched EXPIRED after SUBSCRIPTION_REVOKED: the ledger says no access from then, as the store does")
  func revoked() throws {
    let agreement = try Self.check(GooglePlayRealShapeTests.revoked, catalogText: GP.catalogText)
    #expect(agreement.fetches == 2)
    #expect(agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    #expect(agreement.unpriced.isEmpty)
  }

  @Test(
    "the captured RTDN data of ../shared/fixtures (imdhemy-*): notifications only, no subscriptionsv2 resource, so no fetch time to compare and no charge"
  )
  func capturedFixtures() throws {
    let root = Self.folder.path
    guard Self.isPresent else { return }
    let documents = ["imdhemy-google-play-billing", "imdhemy-laravel-in-app-purchases"].flatMap {
      Self.documents(in: root + "/" + $0)
    }
    let agreement = try Self.check(documents, catalogText: GP.catalogText)
    // 4 message.data files import (2 expiries, 1 purchase, 1 test); the push whose data is not
    // JSON is refused on its own (StoreFixturesTests).
    #expect(agreement.documents == 4)
    #expect(agreement.fetches == 0)
    #expect(agreement.pricedCharges == 0)
  }

  @Test("held-out captured pairs ($STORELEDGER_GOOGLE_PAIRS: a folder of documents with its catalog.json), when given")
  func heldOut() throws {
    guard let folder = ProcessInfo.processInfo.environment["STORELEDGER_GOOGLE_PAIRS"] else { return }
    let catalogText = try String(contentsOfFile: folder + "/catalog.json", encoding: .utf8)
    let agreement = try Self.check(Self.documents(in: folder).filter { !$0.contains(#""products""#) }, catalogText: catalogText)
    print("held-out pairs: \(agreement.fetches) fetch times, \(agreement.disagreements.count) disagreements, \(agreement.pricedCharges) priced charges, \(agreement.unpriced.count) without a price")
    #expect(agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    #expect(agreement.unpriced.isEmpty, "\(agreement.unpriced)")
  }
}
