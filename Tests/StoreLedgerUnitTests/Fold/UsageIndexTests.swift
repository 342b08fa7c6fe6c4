import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// Answers every query twice, through the indexed batch path (`prepareUsageIndex`, then
/// `writeAnswers`) and one query at a time by the fold that visits every use, and compares
/// the bytes.
private func expectIndexedAgrees(_ ledger: Ledger, queries: [UInt8], name: String) throws {
  let batch = try QueryBatch.parse(queries, file: name)
  var indexed = QueryEngine(ledger: ledger)
  indexed.prepareUsageIndex()
  var fast: [UInt8] = []
  indexed.writeAnswers(batch, flushBytes: 4096) { fast.append(contentsOf: $0) }
  var plain = QueryEngine(ledger: ledger)
  var slow: [UInt8] = []
  batch.forEach { subject, at, asOf, cache in
    plain.writeAnswer(subject: subject, at: at, asOf: asOf, cache: cache, into: &slow)
    slow.append(10)
  }
  #expect(batch.count > 0)
  #expect(fast.count == slow.count, "\(name): indexed answers differ in length")
  if fast != slow {
    let fastLines = fast.split(separator: 10)
    let slowLines = slow.split(separator: 10)
    let first = (0..<min(fastLines.count, slowLines.count)).first { fastLines[$0] != slowLines[$0] } ?? 0
    let fastText = String(decoding: fastLines[first], as: UTF8.self)
    let slowText = String(decoding: slowLines[first], as: UTF8.self)
    Issue.record("\(name): query \(first + 1): indexed \(fastText) vs \(slowText)")
  }
}

/// Queries at every event's instant and a millisecond either side, at full knowledge and as
/// known at each of those instants (thinned to `knowledgeTimes`), for every subject.
private func edgeQueries(_ ledger: Ledger, knowledgeTimes: Int) -> [UInt8] {
  var instants = Set<Int64>()
  for event in ledger.events {
    for time in [event.at, event.recorded] {
      for delta: Int64 in [-1, 0, 1] { instants.insert(time.millisecondsSinceEpoch + delta) }
    }
  }
  let times = instants.sorted().map { Timestamp(millisecondsSinceEpoch: $0) }
  let knowledge: [Timestamp?] =
    [nil] + stride(from: 0, to: times.count, by: max(1, times.count / knowledgeTimes)).map { times[$0] }
  var out: [UInt8] = []
  for s in 0..<ledger.subjectCount {
    let subject = ledger.symbols.subjects.string(Symbol(rawValue: UInt32(s)))
    for at in times {
      for asOf in knowledge {
        out.append(contentsOf: #"{"subject":"\#(subject)","at":"\#(at.rfc3339)""#.utf8)
        if let asOf { out.append(contentsOf: #","as_of":"\#(asOf.rfc3339)""#.utf8) }
        out.append(contentsOf: "}\n".utf8)
      }
    }
  }
  return out
}

/// A log of a few subjects with purchases, consumables and their refunds, and many uses of every feature of the
/// policy scenarios' catalog: quantities up to a release below zero, uses recorded before
/// their `at`, on time and long after, several at one instant, and trial thresholds crossed.
private func hostileUsageLog(seed: UInt64, subjects: Int) -> String {
  var random = SeededGenerator(seed: seed)
  let features = ["decision_session", "deep_compare", "interaction", "pattern", "saved_trip"]
  let start = Timestamp.parseRFC3339("2026-04-01T00:00:00Z")!.millisecondsSinceEpoch
  let hour: Int64 = 3_600_000
  var events: [NewEvent] = []
  func time(_ ms: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: ms) }
  for s in 0..<subjects {
    var at = start + Int64.random(in: 0..<(48 * hour), using: &random)
    for n in 0..<Int.random(in: 20..<70, using: &random) {
      let id: EventID = "e\(s)-\(n)"
      // Several events at one instant now and then.
      if Int.random(in: 0..<4, using: &random) > 0 { at += Int64.random(in: 1..<(30 * hour), using: &random) }
      var recorded: Timestamp?
      switch Int.random(in: 0..<6, using: &random) {
      case 0: recorded = time(at + Int64.random(in: 1..<(400 * hour), using: &random))
      case 1: recorded = time(at - Int64.random(in: 1..<(200 * hour), using: &random))
      default: break
      }
      var event: NewEvent
      if n % 17 == 5 {
        event = .purchase(
          id: id, subject: "s\(s)", at: time(at), product: "plus.monthly", transaction: "t\(s)-\(n)", expires: time(at + 240 * hour))
      } else if n % 17 == 9 {
        // A one-time purchase among the uses, and a refund of it (items are kept by position).
        event = .purchase(id: id, subject: "s\(s)", at: time(at), product: "coins.100", transaction: "c\(s)-\(n)")
      } else if n % 17 == 13 {
        event = .revocation(id: id, subject: "s\(s)", at: time(at), transaction: "c\(s)-\(n - 4)", reason: .refund)
      } else {
        let feature = features[Int.random(in: 0..<features.count, using: &random)]
        let quantity: Int64 = [1, 1, 1, 2, 5, 20, -1, -3][Int.random(in: 0..<8, using: &random)]
        event = .usage(id: id, subject: "s\(s)", at: time(at), feature: FeatureID(rawValue: feature), quantity: quantity)
      }
      event.recorded = recorded
      events.append(event)
    }
  }
  return EventLines.log(events)
}

/// A log whose runs sit on the edges of their summaries: a first subject whose first event is a
/// use (so the index's sample sees uses), a subject without uses, runs of one use (on time,
/// recorded late, recorded before its `at`), an early use recorded after later ones, several
/// uses at one instant, a release, and pattern uses crossing the trial's threshold.
private func summaryEdgeLog() -> String {
  let start = Timestamp.parseRFC3339("2026-04-01T00:00:00Z")!.millisecondsSinceEpoch
  let hour: Int64 = 3_600_000
  func time(_ hours: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: start + hours * hour) }
  var events: [NewEvent] = []
  var n = 0
  func use(_ subject: SubjectID, _ feature: FeatureID, at: Int64, recorded: Int64? = nil, quantity: Int64 = 1) {
    n += 1
    var event = NewEvent.usage(id: "u\(n)", subject: subject, at: time(at), feature: feature, quantity: quantity)
    event.recorded = recorded.map(time)
    events.append(event)
  }
  use("first", "interaction", at: 1)
  use("first", "interaction", at: 30, recorded: 31)
  events.append(.purchase(id: "p1", subject: "none", at: time(2), product: "plus.monthly", transaction: "t1", expires: time(700)))
  use("one", "pattern", at: 10)
  use("one-late", "saved_trip", at: 10, recorded: 200)
  use("one-early", "deep_compare", at: 50, recorded: 20)
  // An early use known only after the later ones, which are on time.
  use("late-first", "interaction", at: 5, recorded: 400)
  use("late-first", "interaction", at: 6)
  use("late-first", "interaction", at: 8, quantity: 3)
  use("late-first", "decision_session", at: 9, recorded: 9)
  // Several at one instant, a release, and the trial's pattern threshold (3) crossed by the third.
  for _ in 0..<2 { use("same-instant", "pattern", at: 12) }
  use("same-instant", "saved_trip", at: 12, quantity: -1)
  use("same-instant", "pattern", at: 40, recorded: 90)
  use("same-instant", "pattern", at: 41)
  return EventLines.log(events)
}

/// Queries at each run's first and last `at` ±1 ms (and, for a subject without uses, its events'
/// instants ±1 ms), at full knowledge and as known at the run's earliest and latest `recorded`
/// and every use's `recorded` ±1 ms: where a run's summary decides whether it is searched.
/// Computed from the events, not from the index.
private func summaryEdgeQueries(_ ledger: Ledger) -> [UInt8] {
  var out: [UInt8] = []
  for s in 0..<ledger.subjectCount {
    let symbol = Symbol(rawValue: UInt32(s))
    let subject = ledger.symbols.subjects.string(symbol)
    let events = Array(ledger.events(of: symbol))
    var times = Set<Int64>()
    var knowledge = Set<Int64>()
    func around(_ instant: Timestamp, into set: inout Set<Int64>) {
      for delta: Int64 in [-1, 0, 1] { set.insert(instant.millisecondsSinceEpoch + delta) }
    }
    for feature in Set(events.filter { $0.kind == .usage }.map(\.feature)) {
      let run = events.filter { $0.kind == .usage && $0.feature == feature }
      around(run.first!.at, into: &times)
      around(run.last!.at, into: &times)
      for use in run { around(use.recorded, into: &knowledge) }
    }
    if times.isEmpty { for event in events { around(event.at, into: &times) } }
    let knownBy: [Int64?] = [nil] + knowledge.sorted()
    for at in times.sorted() {
      for asOf in knownBy {
        out.append(contentsOf: #"{"subject":"\#(subject)","at":"\#(Timestamp(millisecondsSinceEpoch: at).rfc3339)""#.utf8)
        if let asOf { out.append(contentsOf: #","as_of":"\#(Timestamp(millisecondsSinceEpoch: asOf).rfc3339)""#.utf8) }
        out.append(contentsOf: "}\n".utf8)
      }
    }
  }
  return out
}

/// The index of `ledger`'s uses under its catalog's policy (the tests' logs always have one).
private func usageIndex(_ ledger: Ledger, capacityGuess: Int? = nil) throws -> UsageIndex {
  let policy = try #require(ledger.catalog.policy)
  return try #require(
    ledger.events.withUnsafeBufferPointer {
      UsageIndex(events: $0, subjectStarts: ledger.subjectStarts, policy: policy, capacityGuess: capacityGuess)
    })
}

@Suite("Usage index")
struct UsageIndexTests {
  @Test(
    "indexed usage answers equal the fold over every use for every policy scenario",
    arguments: [
      "policy/decide-daily", "policy/intelligence-trial", "policy/late-refund", "policy/local-week",
      "policy/offline-budget", "policy/premium-leak", "policy/saved-trips", "policy/store-grace",
      "policy-east/month-window", "policy-examples/policy-examples", "policy-nograce/trial-no-grace",
    ])
  func scenarios(name: String) throws {
    let directory = repoPath("Events/" + name.split(separator: "/")[0])
    let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
    let ledger = try LedgerLoader.load(logPath: repoPath("Events/\(name).jsonl"), catalog: catalog).ledger
    var queries = Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/\(name).queries.jsonl"))))
    queries += edgeQueries(ledger, knowledgeTimes: 12)
    try expectIndexedAgrees(ledger, queries: queries, name: name)
  }

  @Test("indexed usage answers equal the fold over every use for hostile usage logs", arguments: testSeeds([1, 2, 3]))
  func hostile(seed: UInt64) throws {
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let ledger = try ledger(hostileUsageLog(seed: seed, subjects: 4), catalogText: catalogText)
    #expect(ledger.events.contains { $0.kind == .usage && $0.recorded < $0.at })
    #expect(ledger.events.contains { $0.kind == .usage && $0.recorded > $0.at })
    try expectIndexedAgrees(ledger, queries: edgeQueries(ledger, knowledgeTimes: 25), name: "hostile-\(seed)")
  }

  @Test("indexed usage answers equal the fold over every use for a generated log with heavy usage")
  func generated() throws {
    let bytes = generatedLog(GeneratorOptions(subjects: 3, seed: 4, usage: .heavy)).bytes
    let ledger = try ledger(String(decoding: bytes, as: UTF8.self), catalogText: LogGenerator.policyCatalogJSON)
    try expectIndexedAgrees(ledger, queries: edgeQueries(ledger, knowledgeTimes: 3), name: "generated")
  }

  @Test("indexed usage answers equal the fold over every use for generated v1.3 logs (grants, blocks, transfers)", arguments: testSeeds([1, 2]))
  func generatedV13(seed: UInt64) throws {
    var options = GeneratorOptions(subjects: 150, seed: seed, usage: .typical)
    options.contract = .v1_3
    options.transfers = true
    let bytes = generatedLog(options).bytes
    let ledger = try ledger(String(decoding: bytes, as: UTF8.self), catalogText: LogGenerator.policyCatalogJSON)
    // The subjects with a v1.3 line, asked at each such line's edges, as known then and now.
    var queries: [UInt8] = []
    var kinds = Set<EventKind>()
    ledger.forEachEvent { event, subject in
      guard [.grant, .grantRevoked, .block, .unblock, .transfer].contains(event.kind) else { return }
      kinds.insert(event.kind)
      let name = ledger.symbols.subjects.string(subject)
      for delta: Int64 in [-1, 0, 1] {
        let at = Timestamp(millisecondsSinceEpoch: event.at.millisecondsSinceEpoch + delta)
        for asOf in [nil, event.recorded] {
          queries += Array(#"{"subject":"\#(name)","at":"\#(at.rfc3339)""#.utf8)
          if let asOf { queries += Array(#","as_of":"\#(asOf.rfc3339)""#.utf8) }
          queries += Array("}\n".utf8)
        }
      }
    }
    #expect(kinds.isSuperset(of: [.grant, .block, .transfer]), "\(kinds)")
    try expectIndexedAgrees(ledger, queries: queries, name: "generated-v13-\(seed)")
  }

  @Test("a grant after a use has its item in the indexed fold (a use, then a grant, asked 4,096 times)")
  func grantAfterUse() throws {
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let ledger = try ledger(
      EventLines.line(.usage(id: "u1", subject: "a", at: ts("2026-01-01T00:00:00Z"), feature: "interaction")) + "\n"
        + EventLines.line(.grant(id: "g1", subject: "a", at: ts("2026-01-02T00:00:00Z"), entitlements: ["plus"], expires: ts("2026-01-03T00:00:00Z")))
        + "\n", catalogText: catalogText)
    let queries = [UInt8](String(repeating: #"{"subject":"a","at":"2026-01-02T12:00:00Z"}"# + "\n", count: 8).utf8)
    try expectIndexedAgrees(ledger, queries: queries, name: "grant-after-use")
  }

  @Test("indexed usage answers equal the fold over every use at the edges of every run's summary", arguments: [0] + testSeeds([1, 2, 3]))
  func summaryEdges(seed: UInt64) throws {
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let log = seed == 0 ? summaryEdgeLog() : hostileUsageLog(seed: seed, subjects: 3)
    let ledger = try ledger(log, catalogText: catalogText)
    _ = try usageIndex(ledger)
    try expectIndexedAgrees(ledger, queries: summaryEdgeQueries(ledger), name: "summary-edges-\(seed)")
  }

  @Test("a run's summary says none or every only when no use or every use counts", arguments: [0] + testSeeds([4, 5]))
  func share(seed: UInt64) throws {
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let ledger = try ledger(seed == 0 ? summaryEdgeLog() : hostileUsageLog(seed: seed, subjects: 3), catalogText: catalogText)
    let index = try usageIndex(ledger)
    let view = index.view
    var seen: [UsageIndex.Share: Int] = [:]
    for s in 0..<ledger.subjectCount {
      let events = Array(ledger.events(of: Symbol(rawValue: UInt32(s))))
      for feature in 0..<index.featureCount {
        let uses = events.filter { $0.kind == .usage && Int($0.feature) == feature }
        guard !uses.isEmpty else { continue }
        let summary = view.summary(of: s, feature: feature)
        let instants = Set(uses.flatMap { [$0.at, $0.recorded] }.flatMap { instant in
          [-1, 0, 1].map { Timestamp(millisecondsSinceEpoch: instant.millisecondsSinceEpoch + $0) }
        }).sorted()
        for time in instants {
          for knownBy in instants + [.distantFuture] {
            let share = summary.share(at: time, knownBy: knownBy)
            seen[share, default: 0] += 1
            switch share {
            case .none: #expect(!uses.contains { $0.at <= time && $0.recorded <= knownBy }, "subject \(s), feature \(feature)")
            case .every: #expect(uses.allSatisfy { $0.at < time && $0.recorded <= knownBy }, "subject \(s), feature \(feature)")
            case .some: break
            }
          }
        }
      }
    }
    #expect(seen.count == 3, "each of none, every and some occurs: \(seen)")
  }

  @Test("the index copies every event that is not a use and every use with its running sums", arguments: [nil, 1])
  func layout(capacityGuess: Int?) throws {
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let ledger = try ledger(hostileUsageLog(seed: 9, subjects: 3), catalogText: catalogText)
    let policy = ledger.catalog.policy!
    let index = try #require(
      ledger.events.withUnsafeBufferPointer {
        UsageIndex(events: $0, subjectStarts: ledger.subjectStarts, policy: policy, capacityGuess: capacityGuess)
      })
    let view = index.view
    for s in 0..<ledger.subjectCount {
      let events = Array(ledger.events(of: Symbol(rawValue: UInt32(s))))
      #expect(Array(view.others(of: s)) == events.filter { $0.kind != .usage })
      // Items are filled by one-time purchases at their own position, and read by refunds of them.
      let itemSlots = events.filter { event in
        let product = event.kind.isRefund ? event.targetProduct : event.product
        guard event.kind == .purchase || event.kind.isRefund, product.isSome else { return false }
        return ledger.catalog.kind(product) != .autoRenewable
      }.map { Int($0.slot) }
      #expect(itemSlots.allSatisfy { $0 < view.itemCount(of: s) })
      let lastPurchase = events.indices.last { events[$0].kind == .purchase && Int(events[$0].slot) == $0 }
      #expect(view.itemCount(of: s) == lastPurchase.map { $0 + 1 } ?? 0)
      for feature in 0..<index.featureCount {
        let uses = events.filter { $0.kind == .usage && Int($0.feature) == feature }
        let run = view.run(of: s, feature: feature)
        #expect(run.uses.count == uses.count)
        #expect(run.isRecordedFromAt == uses.allSatisfy { $0.recorded >= $0.at })
        var sum: Int64 = 0
        var recordedMax = Timestamp.distantPast
        var reach: Int? = nil
        for (n, use) in uses.enumerated() {
          sum &+= use.quantity
          recordedMax = max(recordedMax, use.recorded)
          if reach == nil, let count = view.thresholdCount(feature), sum >= count { reach = run.uses.lowerBound + n }
          let indexed = view.uses[run.uses.lowerBound + n]
          #expect(
            [indexed.at, indexed.recordedMax, indexed.recorded] == [use.at, recordedMax, use.recorded]
              && indexed.sum == sum)
        }
        #expect(run.reach == reach)
        if let firstUse = uses.first, let lastUse = uses.last {
          let summary = view.summary(of: s, feature: feature)
          #expect(
            [summary.firstAt, summary.lastAt, summary.recordedMin, summary.recordedMax]
              == [firstUse.at, lastUse.at, uses.map(\.recorded).min()!, recordedMax])
          #expect(summary.total == sum)
          #expect(summary.reachAt == reach.map { view.uses[$0].at } ?? .distantFuture)
        }
      }
    }
  }

  @Test(
    "the index's search finds the first use failing a condition, as a scan does",
    arguments: [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 64, 100])
  func partition(length: Int) throws {
    // One subject whose only feature's run is `length` uses at instants 10, 20, 30...
    var lines: [String] = []
    let start = Timestamp.parseRFC3339("2026-04-01T00:00:00Z")!.millisecondsSinceEpoch
    for n in 0..<max(length, 1) {
      let at = Timestamp(millisecondsSinceEpoch: start + Int64(10 * (n + 1)))
      lines.append(EventLines.line(.usage(id: "u\(n)", subject: "s", at: at, feature: "pattern", quantity: 1)))
    }
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let ledger = try ledger(lines.joined(separator: "\n"), catalogText: catalogText)
    let policy = ledger.catalog.policy!
    let index = try #require(
      ledger.events.withUnsafeBufferPointer {
        UsageIndex(events: $0, subjectStarts: ledger.subjectStarts, policy: policy)
      })
    let view = index.view
    let run = view.run(of: 0, feature: try #require(policy.featureIndex(of: "pattern")))
    // Every bound from before the first use to after the last, each instant and ±1 ms.
    for offset in stride(from: Int64(0), through: Int64(10 * length + 11), by: 1) {
      let bound = Timestamp(millisecondsSinceEpoch: start + offset)
      let empty = run.uses.lowerBound..<run.uses.lowerBound
      for range in [run.uses, run.uses.dropFirst(length / 3), run.uses.dropLast(length / 4), empty] {
        let scanned = range.first { !(view.uses[$0].at < bound) } ?? range.upperBound
        #expect(view.partition(range) { $0.at < bound } == scanned, "length \(length), bound +\(offset), \(range)")
      }
    }
  }
}
