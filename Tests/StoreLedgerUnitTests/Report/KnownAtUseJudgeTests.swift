import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

@Suite("Report: uses judged as known at an earlier time agree with the point-in-time answer")
struct KnownAtUseJudgeTests {
  /// Judges every use of every subject as known at each of `times(event)` (in a scrambled
  /// order) and compares each outcome with `query --at AT --as-of R`'s answer for its feature.
  /// Returns how many outcomes were compared and how many of them were not allowed.
  static func compare(_ ledger: Ledger, times: (Event, Int) -> [Timestamp], label: String) -> (Int, Int) {
    guard let policy = ledger.catalog.policy else { return (0, 0) }
    var engine = QueryEngine(ledger: ledger)
    var judge = KnownAtUseJudge()
    var compared = 0
    var refused = 0
    for s in 0..<ledger.subjectCount {
      let subject = Symbol(rawValue: UInt32(s))
      let extent = ledger.extent(of: subject)
      let name = ledger.symbols.subjects.string(subject)
      var requests: [KnownAtUseJudge.Request] = []
      ledger.events.withUnsafeBufferPointer { all in
        let events = UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
        for (position, event) in events.enumerated() where event.kind == .usage && event.quantity > 0 {
          for time in times(event, position) { requests.append(.init(position: position, knownBy: time)) }
        }
        // The judge must not depend on the order requests come in.
        requests.reverse()
        var judged = [FeatureOutcome?](repeating: nil, count: requests.count)
        judge.judge(
          events, subscriptionCount: extent.subscriptions, context: ledger.context, policy: policy, requests: requests
        ) { index, outcome in judged[index] = outcome }
        for (request, outcome) in zip(requests, judged) {
          let event = events[request.position]
          let feature = policy.features[Int(event.feature)].name
          let answer = engine.answer(subject: name, at: event.at, asOf: request.knownBy).policy?.usage[feature]
          let tier = outcome.flatMap { $0.tier >= 0 ? policy.tiers[$0.tier].name : nil }
          let same =
            outcome != nil && answer != nil && outcome!.allowed == answer!.allowed && tier == answer!.tier
            && outcome!.used == answer!.used && outcome!.limit == answer!.limit
          #expect(same, "\(label): \(name) line \(event.line) as of \(request.knownBy.rfc3339)")
          compared += 1
          if answer?.allowed == false { refused += 1 }
        }
      }
    }
    return (compared, refused)
  }

  @Test("seeded logs with late uses, releases, a late refund and a backfilled purchase, each use as known at several times")
  func seededLogs() throws {
    for seed in testSeeds([61, 62, 63]) {
      var lines = PolicySnapshotTests.usageLog(seed: seed)
      lines.append(
        EventLines.line(.purchase(id: "life", subject: "s3", at: ts("2026-04-03T00:00:00Z"), product: "plus.lifetime", transaction: "l3")))
      lines.append(
        EventLines.line(.revocation(id: "refund", subject: "s3", at: ts("2026-04-05T00:00:00Z"), transaction: "l3").recordedAt("2026-04-20T00:00:00Z")))
      lines.append(
        EventLines.line(.purchase(id: "late-buy", subject: "s1", at: ts("2026-04-01T00:00:00Z"), product: "plus.monthly", transaction: "t4", expires: ts("2026-05-01T00:00:00Z")).recordedAt("2026-04-10T00:00:00Z")))
      let ledger = try policyLedger(lines, offset: "-05:00")
      let (compared, refused) = Self.compare(ledger, times: { event, position in
        [event.recorded, event.at, event.recorded.adding(milliseconds: Int64(position % 7) * 3_600_000 * 24),
         .distantFuture]
      }, label: "seed \(seed)")
      #expect(compared > 300 && refused > 0, "seed \(seed): \(compared) compared, \(refused) refused")
    }
  }

  @Test("a generated log with typical usage: every use as known at its own recording and at two cuts")
  func generatedLog() throws {
    var bytes: [UInt8] = []
    LogGenerator(options: GeneratorOptions(subjects: 60, seed: 7, usage: .typical)).generate { bytes.append(contentsOf: $0) }
    let ledger = try ledger(
      String(decoding: bytes, as: UTF8.self), catalogText: LogGenerator.catalogJSON(for: .typical))
    let cuts = [ts("2024-09-01T00:00:00Z"), ts("2025-06-15T12:00:00Z")]
    let (compared, refused) = Self.compare(
      ledger, times: { event, _ in [event.recorded] + cuts.filter { $0 >= event.recorded } }, label: "generated")
    #expect(compared > 1_000 && refused > 0, "\(compared) compared, \(refused) refused")
  }
}
