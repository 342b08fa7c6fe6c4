import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// What the policy says about a generated log's uses, by the query engine's own answers.
struct PolicyTally {
  /// Distinct usage events.
  var uses = 0
  /// Leaks, as `QueryEngine.forEachLeak` finds them (a release is never one).
  var leaks = 0
  /// Leaks of a feature the subject's tier never offers (the Pro-only export, patterns on free).
  var premiumLeaks = 0
  /// Uses refused a moment later: the subject had reached its limit (free users at 5 a day...).
  var limitsReached = 0
  /// Subjects by how their trial ended or will end (`ends_by` at the end of the history).
  var trialsEndedBy: [String: Int] = [:]

  /// Loads `bytes` with `catalogJSON`, finds its leaks and asks, for every use, the answers around its instant.
  /// - Complexity: O(uses × events per subject).
  init(log bytes: [UInt8], catalogJSON: String, end: Timestamp) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storeledger-usage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("log.jsonl").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let catalog = try Catalog.parse(catalogJSON, file: "catalog.json")
    let (ledger, _) = try LedgerLoader.load(logPath: path, catalog: catalog)
    #expect(catalog.policy != nil)
    var engine = QueryEngine(ledger: ledger)
    engine.forEachLeak { leak in
      leaks += 1
      if leak.tier == nil { premiumLeaks += 1 }
    }
    for subject in 0..<ledger.subjectCount {
      let symbol = Symbol(rawValue: UInt32(subject))
      let name = ledger.symbols.subjects.string(symbol)
      for event in ledger.events(of: symbol) where event.kind == .usage {
        uses += 1
        guard event.quantity > 0 else { continue }
        // Allowed at its instant, refused a moment later: this use reached the limit.
        let at = engine.answer(subject: name, at: event.at, asOf: event.recorded)
        let after = engine.answer(
          subject: name, at: Timestamp(millisecondsSinceEpoch: event.at.millisecondsSinceEpoch + 1),
          asOf: event.recorded)
        let feature = ledger.catalog.policy?.features[Int(event.feature)].name ?? ""
        if at.policy?.usage[feature]?.allowed == true, after.policy?.usage[feature]?.allowed == false
        {
          limitsReached += 1
        }
      }
      if let trial = engine.answer(subject: name, at: end, asOf: nil).policy?.trial {
        trialsEndedBy[trial.endsBy, default: 0] += 1
      }
    }
  }
}

@Suite("Generated usage")
struct UsageGenerationTests {
  static let options = GeneratorOptions(subjects: 600, seed: 8)

  @Test("uses are most of a log, several per active customer and day, with a long tail of heavy users")
  func usageShare() {
    let sample = CheckedSample.shared
    let checker = sample.checker
    let uses = Double(checker.countsByType["usage", default: 0])
    let share = uses / Double(sample.stats.events)
    #expect(share > 0.65 && share < 0.92, "usage share \(share)")
    // Several uses per subject on each day it uses the app.
    var perDay: [String: Int] = [:]
    var perSubject: [String: Int] = [:]
    for (key, count) in checker.usageBySubjectDay {
      perDay[key.subject, default: 0] += 1
      perSubject[key.subject, default: 0] += count
    }
    let activeDays = Double(perDay.values.reduce(0, +))
    #expect(uses / activeDays > 2 && uses / activeDays < 10, "\(uses / activeDays) uses per active day")
    // A long tail: the busiest 5 % of subjects make far more than their share of the uses.
    let sorted = perSubject.values.sorted(by: >)
    let top = Double(sorted.prefix(sorted.count / 20).reduce(0, +))
    #expect(top / uses > 0.25, "top 5 % make \(top / uses) of uses")
    #expect(sorted.first ?? 0 < UsageRates.eventsPerSubjectMax)
    for feature in GeneratedFeature.allCases {
      #expect(checker.countsByValue["feature=\(feature.name)", default: 0] > 0, "no \(feature.name)")
    }
    // Bursts: uses of one subject seconds apart.
    #expect(checker.usesWithinAMinute > Int(uses) / 4)
  }

  @Test("held items are released (negative quantities), and usage lines have the pipeline's faults")
  func releasesAndFaults() {
    let checker = CheckedSample.shared.checker
    let releases = Double(checker.releases)
    let saves = Double(checker.countsByValue["feature=saved_item", default: 0]) - releases
    #expect(releases > 0.1 * saves && releases < saves, "\(releases) releases for \(saves) saves")
    #expect(checker.usageQuantityByFeature["saved_item", default: 0] > 0)
    #expect(checker.usageLateKnowledge > 0)
    #expect(checker.usageDuplicates > 0)
    #expect(checker.usageOutOfOrder > 0)
  }

  @Test("free users hit their limits, trials end every way at realistic rates, and a few uses leak")
  func policyRates() throws {
    let (bytes, _) = generatedLog(Self.options)
    let end = try #require(ISODuration("P24M")).added(to: Self.options.start)
    let tally = try PolicyTally(log: bytes, catalogJSON: LogGenerator.policyCatalogJSON, end: end)
    let uses = Double(tally.uses)
    let leakShare = Double(tally.leaks) / uses
    #expect(leakShare > 0.001 && leakShare < 0.03, "leak share \(leakShare)")
    #expect(tally.premiumLeaks > 0)
    #expect(Double(tally.limitsReached) / uses > 0.01, "\(tally.limitsReached) limits reached")
    let trials = Double(tally.trialsEndedBy.values.reduce(0, +))
    #expect(trials == Double(Self.options.subjects))
    for endsBy in ["subscription", "duration", "ai_query", "pattern"] {
      #expect(tally.trialsEndedBy[endsBy, default: 0] > 0, "no trial ended by \(endsBy)")
    }
    // Customers who buy pro at first sight or during the trial: a realistic conversion rate.
    let converted = Double(tally.trialsEndedBy["subscription", default: 0]) / trials
    #expect(converted > 0.1 && converted < 0.6, "\(converted) converted during the trial")
  }

  @Test("usage adds uses without changing the purchase story: without usage lines and ids, the logs agree")
  func purchaseStoryUnchanged() {
    let withUsage = generatedLog(GeneratorOptions(subjects: 300, seed: 5, usage: .typical)).bytes
    let without = generatedLog(GeneratorOptions(subjects: 300, seed: 5, usage: .none)).bytes
    func story(_ bytes: [UInt8]) -> [Substring] {
      String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        .filter { !$0.contains(#""type":"usage""#) }
        .map { $0.drop { $0 != "," } }
    }
    let stripped = story(withUsage)
    #expect(stripped.count > 3000)
    #expect(stripped == story(without))
    #expect(withUsage.count > 3 * without.count)
  }

  @Test("heavy usage writes more uses than typical, and none writes none", arguments: UsageLevel.allCases)
  func levels(usage: UsageLevel) {
    let stats = generatedLog(GeneratorOptions(subjects: 200, seed: 9, usage: usage)).stats
    let typical = generatedLog(GeneratorOptions(subjects: 200, seed: 9, usage: .typical)).stats
    switch usage {
    case .none: #expect(stats.count(of: .usage) == 0)
    case .typical: #expect(stats.count(of: .usage) > stats.events / 2)
    case .heavy: #expect(stats.count(of: .usage) > 2 * typical.count(of: .usage))
    }
  }
}
