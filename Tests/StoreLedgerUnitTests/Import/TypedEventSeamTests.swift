import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// The seam between the importers and the log (Docs/decisions.md, "One typed event for the
/// importers"): a mapper builds a typed `NewEvent`; the one encoder writes its line; the one
/// reader of a typed event (`NewEvent(json:)`) and the log's parser read that line back to the
/// same values, for every kind the importers write.
@Suite("Importers: each mapped event's line reads back to the same typed event")
struct TypedEventSeamTests {
  /// The kinds the importers write (Docs/import-appstore.md, Docs/import-googleplay.md).
  static let importedKinds: [EventKind] = [
    .purchase, .purchasePending, .renewal, .billingRetry, .graceEntered, .expiration, .autoRenewChanged,
    .planChanged, .renewalExtended, .revocation, .refundReversed, .refundRequested, .refundDeclined, .transfer,
    .block,
  ]

  /// The mappers' events for the stores' sample inputs and the importer tests' stories, before
  /// they are collapsed into lines, with the catalog each was mapped with.
  static let mapped: [(event: ImportedEvent, catalog: Catalog)] = {
    let googleCatalog = fixtureCatalog(file("Events/googleplay/catalog.json"))
    let appleCatalog = fixtureCatalog(file("Events/appstore/catalog.json"))
    var all: [(ImportedEvent, Catalog)] = []
    for (lines, catalog) in [
      (file("Events/googleplay/mapping-rows.jsonl").split(separator: "\n").map(String.init), googleCatalog),
      (file("Events/googleplay/export.jsonl").split(separator: "\n").map(String.init), googleCatalog),
      (GooglePlayImportLifecycleTests.story, GP.catalog), (PriceIncreaseTests.googleStory, GP.catalog),
      (GooglePlayIdentityTests.story, GooglePlayIdentityTests.catalog),
    ] {
      all += googlePlayEvents(lines.joined(separator: "\n"), catalog: catalog).map { ($0, catalog) }
    }
    let appleStories: [[String]] = [
      file("Events/appstore/notifications.jsonl").split(separator: "\n").map(String.init),
      PriceIncreaseTests.appleStory,
      AppStoreImportLifecycleTests.familySharing.map(\.decoded),
      AppStoreImportLifecycleTests.retryExpiryRefundReversed.map(\.decoded),
      refundRequestStory,
      [AppStoreIdentityTests.period(1, token: AppStoreIdentityTests.a).json, AppStoreConsentTests.rescind("704")],
    ]
    for (index, lines) in appleStories.enumerated() {
      let catalog = index == 0 ? appleCatalog : ImportFixtures.catalog
      all += appStoreEvents(lines.joined(separator: "\n"), catalog: catalog).map { ($0, catalog) }
    }
    return all
  }()

  /// A CONSUMPTION_REQUEST and a REFUND_DECLINED of one purchase (`AppStoreRefundTests`).
  static var refundRequestStory: [String] {
    var request = AppleNotification(
      notificationType: "CONSUMPTION_REQUEST", notificationUUID: "c0ffee00-0000-4000-8000-000000003502",
      signedDate: "2026-01-10T09:00:00Z", transaction: AppStoreRefundTests.first().signed(at: "2026-01-10T09:00:00Z"))
    request.consumptionRequestReason = "LEGAL"
    let declined = AppleNotification(
      notificationType: "REFUND_DECLINED", notificationUUID: "c0ffee00-0000-4000-8000-000000003503",
      signedDate: "2026-01-10T20:00:00Z", transaction: AppStoreRefundTests.first().signed(at: "2026-01-10T20:00:00Z"))
    return [request.decoded, declined.decoded]
  }

  /// A file of the repository as text.
  static func file(_ path: String) -> String {
    (try? String(contentsOfFile: repoPath(path), encoding: .utf8)) ?? ""
  }

  /// What the Google Play mapper makes of `text`, as `GooglePlayImporter.importEvents` drives it.
  static func googlePlayEvents(_ text: String, catalog: Catalog) -> [ImportedEvent] {
    var problems = ImportProblems(file: "seam.jsonl")
    let (documents, _) = ImportInput.documents(in: text, file: "seam.jsonl", acceptsJWS: false)
    let payloads = GooglePlayDocuments.payloads(in: documents, &problems)
    var mapper = GooglePlayMapper(
      catalog: catalog, options: GooglePlayImportOptions(), problems: problems, knowledge: LedgerKnowledge())
    mapper.map(payloads)
    return mapper.events
  }

  /// What the App Store mapper makes of `text`, as `AppStoreImporter.importEvents` drives it.
  static func appStoreEvents(_ text: String, catalog: Catalog) -> [ImportedEvent] {
    var problems = ImportProblems(file: "seam.jsonl")
    let (documents, _) = ImportInput.documents(in: text, file: "seam.jsonl")
    let payloads = AppStoreDocuments(verifier: nil).payloads(in: documents, &problems)
    var mapper = AppStoreMapper(
      catalog: catalog, options: AppStoreImportOptions(verification: .skip), problems: problems)
    for payload in payloads { mapper.map(payload) }
    mapper.settleOwners(LedgerKnowledge())
    mapper.blockWithdrawnConsents()
    return mapper.events
  }

  @Test(
    "a mapped event's line, written by the one encoder, reads back through NewEvent(json:) to the same typed event",
    arguments: importedKinds)
  func roundTrip(kind: EventKind) throws {
    let events = Self.mapped.filter { $0.event.kind == kind }
    try #require(!events.isEmpty, "no importer input of the seam maps to a \(kind.name)")
    for (imported, _) in events {
      let line = imported.logLine
      let read = try NewEvent(json: try JSONValue.parse(line))
      #expect(read == imported.event, "\(line)")
      #expect(read.logLine == line)
      #expect(imported.recorded != imported.at, "recorded is left out when it equals at: \(line)")
    }
  }

  @Test(
    "a mapped event's line is read by the log's parser to the same kind, times and values", arguments: importedKinds)
  func logParser(kind: EventKind) throws {
    let events = Self.mapped.filter { $0.event.kind == kind }
    try #require(!events.isEmpty, "no importer input of the seam maps to a \(kind.name)")
    for (imported, catalog) in events {
      let event = imported.event
      let line = Array(imported.logLine.utf8)
      var parser = EventLineParser(catalog: catalog)
      var symbols = LedgerSymbols()
      let result = line.withUnsafeBufferPointer { parser.parseDetailed($0, lineNumber: 1, symbols: &symbols) }
      guard case .success(let parsed) = result else {
        Issue.record("the log's parser refuses \(imported.logLine): \(result)")
        continue
      }
      #expect(parsed.event.kind == event.kind)
      #expect(parsed.event.at == event.at)
      #expect(parsed.event.hasRecorded == (event.recorded != nil))
      if let recorded = event.recorded { #expect(parsed.event.recorded == recorded) }
      if let expires = event.expires ?? event.graceExpires { #expect(parsed.event.expires == expires) }
      if let offer = event.offer { #expect(parsed.event.hasOffer && parsed.event.offer == offer) }
      if let ownership = event.ownership { #expect(parsed.event.hasOwnership && parsed.event.ownership == ownership) }
      if let autoRenew = event.autoRenew { #expect(parsed.event.autoRenew == autoRenew) }
      if let price = event.price { #expect(parsed.details.price == price) }
    }
  }

  @Test("meta keeps the JSON values the importers write that are not strings, through the line and back")
  func metaValues() throws {
    let withValues = Self.mapped.map(\.event).filter { imported in
      imported.event.metaValues.values.contains { $0.stringValue == nil }
    }
    let names = Set(withValues.flatMap { $0.event.metaValues.filter { $0.value.stringValue == nil }.keys })
    let expected: Set<String> = ["priceIncreaseStatus", "renewalPrice", "paused", "revocationReason"]
    #expect(names.isSuperset(of: expected), "\(names.sorted())")
    for imported in withValues {
      let read = try NewEvent(json: try JSONValue.parse(imported.logLine))
      #expect(read.metaValues == imported.event.metaValues)
      // The public view shows such a value as its JSON text.
      for (name, value) in imported.event.metaValues where value.stringValue == nil {
        #expect(read.meta[name] == JSONWriter.compact(value))
      }
    }
  }
}
