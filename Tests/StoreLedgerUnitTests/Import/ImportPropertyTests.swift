import Foundation
import StoreLedgerTestSupport
import Synchronization
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// The property that defines a correct import (Docs/import-googleplay.md and
/// Docs/import-appstore.md, "Importing as data arrives"): documents imported with `--append`
/// in successive runs, with redeliveries, give the answers one import of all of them in order
/// gives, at every instant; no run is refused for what an earlier one said; importing
/// everything again adds nothing.
@Suite("Importers: incremental, redelivered and reordered imports against one import")
struct ImportPropertyTests: EventLineTimes {
  /// One store's importer, as the property drives it.
  struct Store: Sendable {
    /// Names the store in messages.
    var name: String
    /// The catalog of its scenarios.
    var catalogText: String
    /// Imports documents given what the log knows and the documents kept beside it.
    var run: @Sendable (String, LedgerKnowledge, [UInt8]) throws -> ImportResult

    static let googlePlay = Store(name: "googleplay", catalogText: GP.catalogText) {
      text, known, store in
      try GooglePlayImporter.importEvents(
        text, file: "batch.jsonl", catalog: GP.catalog, options: GooglePlayImportOptions(),
        knowledge: known, documentStore: store)
    }
    static let googlePlaySamples = Store(
      name: "googleplay", catalogText: Self.file("Events/googleplay/catalog.json")
    ) { text, known, store in
      try GooglePlayImporter.importEvents(
        text, file: "batch.jsonl", catalog: fixtureCatalog(Self.file("Events/googleplay/catalog.json")),
        options: GooglePlayImportOptions(), knowledge: known, documentStore: store)
    }
    static let googlePlayIdentity = Store(
      name: "googleplay", catalogText: GooglePlayIdentityTests.catalogText
    ) { text, known, store in
      try GooglePlayImporter.importEvents(
        text, file: "batch.jsonl", catalog: GooglePlayIdentityTests.catalog, options: GooglePlayImportOptions(),
        knowledge: known, documentStore: store)
    }
    static let appStore = Store(name: "appstore", catalogText: ImportFixtures.catalogText) {
      text, known, _ in
      try AppStoreImporter.importEvents(
        text, file: "batch.jsonl", catalog: ImportFixtures.catalog, options: AppStoreImportOptions(verification: .skip),
        knowledge: known)
    }
    static let appStoreSamples = Store(
      name: "appstore", catalogText: Self.file("Events/appstore/catalog.json")
    ) { text, known, _ in
      try AppStoreImporter.importEvents(
        text, file: "batch.jsonl", catalog: fixtureCatalog(Self.file("Events/appstore/catalog.json")),
        options: AppStoreImportOptions(verification: .skip), knowledge: known)
    }

    /// A file of the repository as text.
    static func file(_ path: String) -> String {
      (try? String(contentsOfFile: repoPath(path), encoding: .utf8)) ?? ""
    }
  }

  /// A scenario: documents in the order they were produced, grouped into deliveries (what a
  /// server stores together: a notification with the resources it fetched after it).
  struct Scenario: CustomTestStringConvertible, Sendable {
    var name: String
    var store: Store
    var deliveries: [[String]]
    var testDescription: String { "\(store.name): \(name)" }

    /// Every non-empty line of a file, a delivery of its own.
    static func lines(_ name: String, _ store: Store, _ path: String) -> Scenario {
      let lines = Store.file(path).split(separator: "\n").map(String.init)
      return Scenario(name: name, store: store, deliveries: lines.map { [$0] })
    }

    /// One delivery per file of a folder, in the order of the file names (the order the
    /// documents were produced, as a server stores them: one file per document).
    static func files(_ name: String, _ store: Store, _ folder: String) -> Scenario {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: repoPath(folder))) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()
      let documents = names.map {
        Store.file(folder + "/" + $0).trimmingCharacters(in: .whitespacesAndNewlines)
      }
      return Scenario(name: name, store: store, deliveries: documents.map { [$0] })
    }

    /// Google Play documents grouped as a webhook stores them: each notification with the
    /// resources and lists that follow it.
    static func googlePlay(_ name: String, _ store: Store, _ lines: [String]) -> Scenario {
      var deliveries: [[String]] = []
      for line in lines {
        let isNotification = !line.contains("subscriptionPurchaseV2")
          && !line.contains("productPurchase") && !line.contains("voidedPurchases")
        if isNotification || deliveries.isEmpty {
          deliveries.append([line])
        } else {
          deliveries[deliveries.count - 1].append(line)
        }
      }
      return Scenario(name: name, store: store, deliveries: deliveries)
    }
  }

  static let scenarios: [Scenario] = [
    .googlePlay(
      "Events/googleplay/export.jsonl", .googlePlaySamples,
      Store.file("Events/googleplay/export.jsonl").split(separator: "\n").map(String.init)),
    .googlePlay(
      "Events/googleplay/mapping-rows.jsonl", .googlePlaySamples,
      Store.file("Events/googleplay/mapping-rows.jsonl").split(separator: "\n").map(String.init)),
    .googlePlay("the lifecycle story", .googlePlay, GooglePlayImportLifecycleTests.story),
    Scenario(
      name: "one-time products with purchase options (ProductPurchaseV2)", store: .googlePlay,
      deliveries: GooglePlayProductV2Tests.story.map { [$0] }),
    .files(
      "Events/googleplay/lifecycles (one file per document)", .googlePlaySamples,
      "Events/googleplay/lifecycles"),
    Scenario(
      name: "identity: a new account, a deferred plan change, a one-time purchase moved, a Play Store resubscription",
      store: .googlePlayIdentity, deliveries: GooglePlayIdentityTests.story.map { [$0] }),
    .googlePlay("price increases awaiting consent, and the plans", .googlePlay, PriceIncreaseTests.googleStory),
    .googlePlay(
      "a price increase never accepted: Google cancels at the renewal", .googlePlay, GooglePlayDeclinedIncreaseTests.story),
    .lines("Events/appstore/notifications.jsonl", .appStoreSamples, "Events/appstore/notifications.jsonl"),
    Scenario(
      name: "price increases awaiting consent", store: .appStore,
      deliveries: PriceIncreaseTests.appleStory.map { [$0] }),
    Scenario(
      name: "renewals and grace", store: .appStore,
      deliveries: AppStoreImportLifecycleTests.renewalsAndGrace.map { [$0.decoded] }),
    Scenario(
      name: "resubscribe and expire", store: .appStore,
      deliveries: AppStoreImportLifecycleTests.resubscribeAndExpire.map { [$0.decoded] }),
    Scenario(
      name: "upgrade and downgrade", store: .appStore,
      deliveries: AppStoreImportLifecycleTests.upgradeDowngrade.map { [$0.decoded] }),
    Scenario(
      name: "refund of an older period", store: .appStore,
      deliveries: AppStoreImportLifecycleTests.refundOfOlderPeriod.map { [$0.decoded] }),
    Scenario(
      name: "family sharing", store: .appStore,
      deliveries: AppStoreImportLifecycleTests.familySharing.map { [$0.decoded] }),
    Scenario(
      name: "billing retry, expiry, refund and reversal", store: .appStore,
      deliveries: AppStoreImportLifecycleTests.retryExpiryRefundReversed.map { [$0.decoded] }),
  ]

  /// Seeds of the shuffled Google Play runs (`STORELEDGER_SHUFFLE_SEEDS` runs more).
  static let shuffleSeeds: UInt64 =
    ProcessInfo.processInfo.environment["STORELEDGER_SHUFFLE_SEEDS"].flatMap { UInt64($0) } ?? 24

  /// The App Store's scenarios: every payload stands alone, so any order works.
  static var appStoreScenarios: [Scenario] { scenarios.filter { $0.store.name == "appstore" } }

  @Test(
    "split into successive imports in the order produced, with redeliveries: the same answers at every instant, as known now and as known at every recorded time",
    arguments: scenarios)
  func inOrder(scenario: Scenario) throws {
    let reference = try referenceEngine(scenario)
    for seed in 1...12 as ClosedRange<UInt64> {
      var random = SplitMix64(state: seed)
      var deliveries = scenario.deliveries
      // Redeliveries: a store retries; a copy arrives again later.
      for _ in 0..<(deliveries.count / 3) {
        let original = Int.random(in: 0..<deliveries.count, using: &random)
        let at = Int.random(in: (original + 1)...deliveries.count, using: &random)
        deliveries.insert(deliveries[original], at: at)
      }
      let imported = try incremental(scenario, batches: split(deliveries, &random), seed: seed)
      Self.compareAnswers(reference, imported, label: scenario.testDescription, seed: seed, asOf: true)
    }
  }

  @Test(
    "App Store: shuffled, redelivered and split into successive imports: the same answers at every instant",
    arguments: appStoreScenarios)
  func appStoreShuffled(scenario: Scenario) throws {
    let reference = try referenceEngine(scenario)
    for seed in 1...12 as ClosedRange<UInt64> {
      var random = SplitMix64(state: seed &* 7919)
      let deliveries = (scenario.deliveries + scenario.deliveries.filter { _ in
        Bool.random(using: &random)
      }).shuffled(using: &random)
      let imported = try incremental(scenario, batches: split(deliveries, &random), seed: seed)
      Self.compareAnswers(reference, imported, label: scenario.testDescription, seed: seed, asOf: true)
    }
  }

  @Test(
    "Google Play: shuffled, redelivered and split into successive imports: the same answers at every instant, and a re-import adds nothing",
    arguments: scenarios.filter { $0.store.name == "googleplay" })
  func googlePlayShuffled(scenario: Scenario) throws {
    let reference = try referenceEngine(scenario)
    for seed in 1...Self.shuffleSeeds {
      var random = SplitMix64(state: seed &* 104_729)
      let deliveries = (scenario.deliveries + scenario.deliveries.filter { _ in
        Bool.random(using: &random)
      }).shuffled(using: &random)
      let imported = try incremental(scenario, batches: split(deliveries, &random), seed: seed)
      Self.compareAnswers(reference, imported, label: scenario.testDescription, seed: seed, asOf: true)
    }
  }

  @Test(
    "Google Play, every document on its own (a notification apart from the resource fetched after it), shuffled, redelivered and split: the same answers at every instant",
    arguments: scenarios.filter { $0.store.name == "googleplay" })
  func googlePlayDocumentsShuffled(scenario: Scenario) throws {
    let reference = try referenceEngine(scenario)
    let documents = scenario.deliveries.joined().map { [$0] }
    for seed in 1...Self.shuffleSeeds {
      var random = SplitMix64(state: seed &* 15_485_863)
      let deliveries = (documents + documents.filter { _ in Bool.random(using: &random) })
        .shuffled(using: &random)
      let imported = try incremental(scenario, batches: split(deliveries, &random), seed: seed)
      Self.compareAnswers(reference, imported, label: scenario.testDescription, seed: seed, asOf: true)
    }
  }

  @Test("a transaction keeps the kind its reason gives, whichever payload carried it first")
  func appStoreKindIndependentOfCarrier() throws {
    // The same renewal: a copy with transactionReason, and an older copy without it whose ids
    // alone would make it a purchase.
    var stated = AppleTransaction(
      transactionId: "3000002", originalTransactionId: "3000002", productId: "pro.monthly",
      purchaseDate: "2026-02-01T10:00:00Z", expiresDate: "2026-03-01T10:00:00Z",
      signedDate: "2026-02-01T10:00:05Z")
    stated.transactionReason = "RENEWAL"
    var bare = stated
    bare.transactionReason = nil
    bare.signedDate = "2026-02-01T10:00:01Z"
    let oneRun = try Store.appStore.run(
      bare.json + "\n" + stated.json, LedgerKnowledge(), [])
    #expect(oneRun.eventLines.count == 1)
    #expect(oneRun.eventLines.first?.contains(#""type":"renewal""#) == true)
    // The bare copy first, then the stated one, in two runs into one log: nothing refused,
    // nothing added twice.
    let space = try Workspace()
    let first = try Store.appStore.run(stated.json, LedgerKnowledge(), [])
    _ = try LogAppender.append(
      input: Array((first.eventLines.joined(separator: "\n") + "\n").utf8), inputName: "a",
      logPath: space.log, catalog: ImportFixtures.catalog, now: nil)
    let second = try Store.appStore.run(
      bare.json, LedgerKnowledge.read(log: Array(try Data(contentsOf: URL(fileURLWithPath: space.log)))),
      [])
    #expect(second.eventLines.isEmpty)
    #expect(second.alreadyKnown == 1)
  }

  @Test(
    "a copy learned earlier than the log knew its event is written again with its recorded (the log then knows it from then); a later copy adds nothing"
  )
  func earlierCopyLowersKnowledgeTime() throws {
    let late = AppleTransaction(
      transactionId: "3000009", originalTransactionId: "3000009", productId: "pro.monthly",
      purchaseDate: "2026-02-01T10:00:00Z", expiresDate: "2026-03-01T10:00:00Z",
      signedDate: "2026-02-03T00:00:00Z")
    var early = late
    early.signedDate = "2026-02-01T10:00:05Z"
    var later = late
    later.signedDate = "2026-02-05T00:00:00Z"
    let space = try Workspace()
    func known() throws -> LedgerKnowledge {
      LedgerKnowledge.read(log: Array(try Data(contentsOf: URL(fileURLWithPath: space.log))))
    }
    func append(_ result: ImportResult) throws -> AppendReport {
      try LogAppender.append(
        input: Array(result.eventLines.map { $0 + "\n" }.joined().utf8), inputName: "a",
        logPath: space.log, catalog: ImportFixtures.catalog, now: nil)
    }
    _ = try append(try Store.appStore.run(late.json, LedgerKnowledge(), []))
    let id = try #require(try known().knownAt.keys.first)
    #expect(try known().knownAt[id] == Timestamp.parseRFC3339("2026-02-03T00:00:00Z"))
    let again = try Store.appStore.run(later.json, try known(), [])
    #expect(again.eventLines.isEmpty)
    #expect(again.alreadyKnown == 1)
    let earlier = try Store.appStore.run(early.json, try known(), [])
    #expect(earlier.eventLines.count == 1)
    _ = try append(earlier)
    #expect(try known().knownAt[id] == Timestamp.parseRFC3339("2026-02-01T10:00:05Z"))
    #expect(try Store.appStore.run(early.json, try known(), []).eventLines.isEmpty)
  }

  @Test(
    "two open stores importing overlapping documents into one log at once leave the answers of one import (the library takes the import lock too)",
    .timeLimit(.minutes(2)))
  func concurrentStores() throws {
    let scenario = try #require(Self.scenarios.first { $0.name.hasPrefix("Events/googleplay/lifecycles") })
    let reference = try referenceEngine(scenario)
    let documents = scenario.deliveries.joined().map { $0 }
    let catalog = try LedgerCatalog(contentsOfFile: repoPath("Events/googleplay/catalog.json"))
    for round in 1...3 as ClosedRange<UInt64> {
      let space = try Workspace()
      var random = SplitMix64(state: round &* 7)
      let shuffled = documents.shuffled(using: &random)
      let halves = [shuffled[0..<14].joined(separator: "\n"), shuffled[6...].joined(separator: "\n")]
      let stores = try halves.map { _ in
        try LedgerStore(logPath: space.log, catalog: catalog, createIfMissing: true, clock: .fixed(ts("2027-01-01T00:00:00Z")))
      }
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        do { _ = try stores[index].importGooglePlay(halves[index]) } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty)
      let text = try String(contentsOfFile: space.log, encoding: .utf8)
      let imported = try ImportedAnswers(lines: text.split(separator: "\n").map(String.init), catalogText: scenario.store.catalogText)
      Self.compareAnswers(reference, imported, label: scenario.testDescription, seed: round, asOf: false)
    }
  }

  // MARK: - The property's machinery

  /// One import of every delivery in order.
  private func referenceEngine(_ scenario: Scenario) throws -> ImportedAnswers {
    let result = try scenario.store.run(
      scenario.deliveries.joined().joined(separator: "\n"), LedgerKnowledge(), [])
    return try ImportedAnswers(lines: result.eventLines, catalogText: scenario.store.catalogText)
  }

  /// Deliveries cut into 1 to n consecutive batches.
  private func split(_ deliveries: [[String]], _ random: inout SplitMix64) -> [[String]] {
    var batches: [[String]] = [[]]
    for delivery in deliveries {
      if !batches[batches.count - 1].isEmpty && Int.random(in: 0..<3, using: &random) == 0 {
        batches.append([])
      }
      batches[batches.count - 1] += delivery
    }
    return batches
  }

  /// Imports the batches one run after another into a new log, as `import --append` does;
  /// then all of them again, which must add nothing when `requiresNothingNew` (and, with
  /// `passes`, again as often). Returns the engine of the log.
  private func incremental(
    _ scenario: Scenario, batches: [[String]], seed: UInt64, requiresNothingNew: Bool = true,
    passes: Int = 2
  ) throws -> ImportedAnswers {
    let space = try Workspace()
    let catalog = fixtureCatalog(scenario.store.catalogText)
    // The documents kept beside the log, as `import --append` keeps them.
    var store: [UInt8] = []
    func run(_ batch: [String], index: Int) throws -> AppendReport {
      let known = LedgerKnowledge.read(
        log: (try? Array(Data(contentsOf: URL(fileURLWithPath: space.log)))) ?? [])
      do {
        let result = try scenario.store.run(batch.joined(separator: "\n"), known, store)
        let input = Array(result.eventLines.map { $0 + "\n" }.joined().utf8)
        let report = try LogAppender.append(
          input: input, inputName: "batch \(index)", logPath: space.log, catalog: catalog,
          now: nil)
        store += Array(result.documentLines.map { $0 + "\n" }.joined().utf8)
        return report
      } catch let error as DiagnosticList {
        Issue.record(
          "\(scenario.testDescription), seed \(seed): batch \(index) of \(batches.count) was refused: \(error.diagnostics.map(\.description))"
        )
        throw error
      }
    }
    for (index, batch) in batches.enumerated() { _ = try run(batch, index: index) }
    for (index, batch) in (1..<passes).flatMap({ _ in batches }).enumerated() {
      let again = try run(batch, index: index)
      if requiresNothingNew {
        #expect(again.appended == 0, "\(scenario.testDescription), seed \(seed): re-import added events")
      }
    }
    let text = (try? String(contentsOfFile: space.log, encoding: .utf8)) ?? ""
    return try ImportedAnswers(lines: text.split(separator: "\n").map(String.init), catalogText: scenario.store.catalogText)
  }
}
