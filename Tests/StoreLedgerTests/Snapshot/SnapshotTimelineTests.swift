import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// The timeline of `subject` with every entry whole, built from `SubjectTimeline` directly
/// (the slow twin of writing only what changed and expanding it again).
private func wholeTimeline(_ ledger: Ledger, subject: Symbol) -> JSONValue {
  let timeline = ledger.timeline(subject: subject)
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
    ("events", .integer(Int64(ledger.events(of: subject).count))), ("subscriptions", .object(subscriptions)),
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
    #expect(subjects.count == ledger.subjectCount)
    var (shortened, longLists) = (0, 0)
    for (name, written) in subjects {
      let symbol = try #require(ledger.symbols.subjects.lookup(name))
      let whole = wholeTimeline(ledger, subject: symbol)
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
    let purchase = #"{"id":"p1","type":"purchase","subject":"u1","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"t1","expires":"2026-02-01T00:00:00Z"}"#
    let renewal = #"{"id":"r1","type":"renewal","subject":"u1","at":"2026-02-01T00:00:00Z","product":"pro.monthly","transaction":"t2","original_transaction":"t1","expires":"2026-03-01T00:00:00Z"}"#
    let autoRenewOff = #"{"id":"a1","type":"auto_renew_changed","subject":"u1","at":"2026-01-15T00:00:00Z","original_transaction":"t1","auto_renew":false}"#
    let a = try snapshot(purchase + "\n" + renewal + "\n")
    let b = try snapshot(purchase + "\n" + autoRenewOff + "\n" + renewal + "\n")
    let lines = SnapshotDiff.compare(a, b)
    #expect(lines.contains("    subscriptions.t1 at 15 Jan 2026: added pro.monthly, active until 1 Feb 2026, does not renew (auto-renew is off) (transaction t1)"), "\(lines)")
    // The renewal turns it on again: the entry after it is whole again on both sides, so no change there.
    #expect(!lines.contains { $0.contains("at 1 Feb 2026: will_renew") }, "\(lines)")
    #expect(lines.last == "1 subject differs", "\(lines)")
  }
}
