import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// The timeline of `subject` with every entry whole, built from `SubjectTimeline` directly
/// (the slow twin of writing only what changed and expanding it again).
private func wholeTimeline(_ ledger: Ledger, named name: String) throws -> JSONValue {
  let timeline = try #require(ledger.timeline(named: name))
  let eventCount = ledger.subject(named: name).map { ledger.events(of: $0).count } ?? 0
  func time(_ t: Timestamp?) -> JSONValue {
    guard let t else { return .null }
    var bytes: [UInt8] = []
    t.appendRFC3339(to: &bytes)
    return .string(String(decoding: bytes, as: UTF8.self))
  }
  let balances = timeline.balances.map { currency, changes in
    (currency, JSONValue.array(changes.map { .object([("at", time($0.at)), ("balance", .integer($0.balance))]) }))
  }
  let entitlements = timeline.entitlements.map { name, intervals in
    (
      name,
      JSONValue.array(
        intervals.map {
          .object([
            ("from", time($0.from)), ("ownership", .string($0.ownership)), ("period", .string($0.period)),
            ("product", .string($0.product)), ("state", .string($0.state)), ("to", time($0.to)),
          ])
        })
    )
  }
  let subscriptions = timeline.subscriptions.map { key, changes in
    (
      key,
      JSONValue.array(
        changes.map {
          .object([
            ("at", time($0.at)), ("expires", time($0.expires)), ("product", .string($0.product)),
            ("renews_to", $0.renewsTo.map { .string($0) } ?? .null), ("state", .string($0.state)),
            ("transaction", .string($0.transaction)), ("will_renew", .bool($0.willRenew)),
          ])
        })
    )
  }
  return .object([
    ("balances", .object(balances)), ("entitlements", .object(entitlements)),
    ("events", .integer(Int64(eventCount))), ("subscriptions", .object(subscriptions)),
  ])
}

@Suite("Snapshots: the readable timeline writes only what changed, and reads back whole")
struct SnapshotTimelineTests {
  @Test("every subject's timeline, expanded, is exactly the whole timeline the fold gives", arguments: scenarios)
  func expandsToWhole(scenario: Scenario) throws {
    let catalogPath = repoPath("\(scenario.folder)/catalog.json")
    let logPath = repoPath("\(scenario.folder)/\(scenario.name).jsonl")
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (ledger, bytes) = try writtenSnapshot(of: logPath, catalogPath: catalogPath, catalog: catalog)
    let readable = try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(bytes)))
    let subjects = try #require(readable["subjects"]?.objectMembers)
    #expect(subjects.count == ledger.namedSubjectCount)
    var (shortened, longLists) = (0, 0)
    for (name, written) in subjects {
      let whole = try wholeTimeline(ledger, named: name)
      #expect(SnapshotDiff.expanded(written) == whole, "\(scenario.name) \(name)")
      if written != whole { shortened += 1 }
      for section in ["entitlements", "subscriptions"] {
        for (_, list) in whole[section]?.objectMembers ?? [] {
          if case .array(let entries) = list, entries.count > 1 { longLists += 1 }
        }
      }
    }
    // Expanding what is already whole changes nothing.
    for (_, written) in subjects {
      #expect(SnapshotDiff.expanded(SnapshotDiff.expanded(written)) == SnapshotDiff.expanded(written))
    }
    // A list of two or more intervals or changes always has a second entry to shorten.
    #expect((shortened > 0) == (longLists > 0), "\(scenario.name)")
  }

  @Test("a change to a field later entries leave out is told once, at the entry where it changed, in words")
  func diffOfLeftOutField() throws {
    let catalogPath = repoPath("Events/catalog.json")
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    func snapshot(_ text: String) throws -> JSONValue {
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let logPath = directory.appendingPathComponent("log.jsonl").path
      try text.write(toFile: logPath, atomically: true, encoding: .utf8)
      let bytes = try writtenSnapshot(of: logPath, catalogPath: catalogPath, catalog: catalog).bytes
      return try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(bytes)))
    }
    let purchase = EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")))
    let renewal = EventLines.line(.renewal(id: "r1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: ts("2026-03-01T00:00:00Z")))
    let autoRenewOff = EventLines.line(.autoRenewChanged(id: "a1", subject: "u1", at: ts("2026-01-15T00:00:00Z"), originalTransaction: "t1", autoRenew: false))
    let a = try snapshot(purchase + "\n" + renewal + "\n")
    let b = try snapshot(purchase + "\n" + autoRenewOff + "\n" + renewal + "\n")
    let lines = SnapshotDiff.compare(a, b)
    #expect(lines.contains("    subscriptions.t1 at 15 Jan 2026: added pro.monthly, active until 1 Feb 2026, does not renew (auto-renew is off) (transaction t1)"), "\(lines)")
    // The renewal turns it on again: the entry after it is whole again on both sides, so no change there.
    #expect(!lines.contains { $0.contains("at 1 Feb 2026: will_renew") }, "\(lines)")
    #expect(lines.last == "1 subject differs", "\(lines)")
  }
  @Test("a subject only a transfer's `to` names is listed among the subjects, in name order, with what it held")
  func receiverWithoutLinesListed() throws {
    let catalogPath = repoPath("Events/catalog.json")
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let logPath = directory.appendingPathComponent("log.jsonl").path
    let lines = [
      EventLines.line(.purchase(id: "p1", subject: "ana", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "l1")),
      EventLines.line(.transfer(id: "x1", subject: "ana", at: ts("2026-02-01T00:00:00Z"), to: "bo", transaction: "l1")),
      EventLines.line(.purchase(id: "p2", subject: "cy", at: ts("2026-01-05T00:00:00Z"), product: "pro.lifetime", transaction: "l2")),
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: logPath, atomically: true, encoding: .utf8)
    let bytes = try writtenSnapshot(of: logPath, catalogPath: catalogPath, catalog: catalog).bytes
    let readable = try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(bytes)))
    let subjects = try #require(readable["subjects"]?.objectMembers)
    #expect(subjects.map(\.0) == ["ana", "bo", "cy"])
    func firstPro(_ name: String) throws -> JSONValue {
      let subject = try #require(subjects.first { $0.0 == name }?.1)
      guard case .array(let intervals)? = subject["entitlements"]?["pro"], let first = intervals.first else {
        Issue.record("\(name) holds no pro interval")
        return .null
      }
      return first
    }
    #expect(subjects.first { $0.0 == "bo" }?.1["events"] == .integer(0))
    #expect(try firstPro("bo")["from"] == .string("2026-02-01T00:00:00Z"))
    #expect(try firstPro("bo")["to"] == .null)
    // ana held it until the transfer.
    #expect(try firstPro("ana")["to"] == .string("2026-02-01T00:00:00Z"))
  }
}
