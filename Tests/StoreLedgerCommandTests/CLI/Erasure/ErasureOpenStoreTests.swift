import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// Issue 38: an open `LedgerStore` learns that `erase` replaced its log. It answers from the old
/// file until its next `refresh` or `append`, which sees another file under the log's name and
/// reads the new one whole (`LedgerStore.reopenIfReplaced`); the append then lands after the new
/// file's last line and the store answers as one opened afterwards.
@Suite("An open ledger reads the log anew after an erasure replaced it")
struct ErasureOpenStoreTests {
  static let times = ["2026-02-15T00:00:00Z", "2026-03-02T00:00:00Z", "2026-03-10T00:00:00Z", "2026-05-01T00:00:00Z"].map(ts)

  /// Whether `store` answers every subject at every test instant as a ledger opened now does.
  static func answersAsOpenedNow(_ store: LedgerStore, subjects: [String], fixture: ErasureFixture) throws -> Bool {
    let now = try LedgerStore(logPath: fixture.log)
    return store.eventCount == now.eventCount
      && subjects.allSatisfy { subject in
        times.allSatisfy { store.answer(for: SubjectID(rawValue: subject), at: $0) == now.answer(for: SubjectID(rawValue: subject), at: $0) }
      }
  }

  @Test(
    "after LedgerStore.erase on its own log, a store opened before (from the log or a snapshot) refreshes or appends to the new file and answers as one opened after",
    arguments: [(false, "refresh"), (true, "refresh"), (false, "append"), (true, "append")])
  func reopens(fromSnapshot: Bool, step: String) throws {
    let text = try String(contentsOfFile: repoPath("Events/catalog.json"), encoding: .utf8)
    let fixture = try ErasureFixture(log: Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl")))), catalogText: text)
    defer { fixture.remove() }
    let snapshot = fixture.directory.appendingPathComponent("demo.snapshot").path
    if fromSnapshot { #expect(runCLI(["snapshot", fixture.log, "--out", snapshot]).status == 0) }
    let store = try LedgerStore(logPath: fixture.log, snapshotPath: fromSnapshot ? snapshot : nil)
    let u1 = SubjectID(rawValue: "u1")
    let held = Self.times.map { store.answer(for: u1, at: $0) }
    #expect(held.contains { !$0.entitlements.isEmpty })

    let report = try LedgerStore.erase([u1], logPath: store.logPath)
    let pseudonym = SubjectID(rawValue: try #require(report.pseudonyms.first))
    // Until it looks at the log again, the store answers from the file it read.
    #expect(Self.times.map { store.answer(for: u1, at: $0) } == held && store.reopenings == 0)
    if step == "refresh" {
      try store.refresh()
    } else {
      let appended = try store.append(
        lines: EventLines.line(.consumption(id: "e99", subject: "u3", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 5)) + "\n")
      #expect(appended.appended == 1)
    }
    #expect(store.reopenings == 1)
    #expect(!store.knows(u1))
    #expect(Self.times.map { store.answer(for: pseudonym, at: $0) }.map(\.entitlements) == held.map(\.entitlements))
    #expect(try Self.answersAsOpenedNow(store, subjects: ["u1", "u2", "u3", pseudonym.rawValue], fixture: fixture))
    // The new file is now the one it holds: another refresh reads nothing anew.
    try store.refresh()
    #expect(store.reopenings == 1)
    let check = runCLI(["check", fixture.log])
    #expect(check.status == 0, "\(check.stderr)")
  }
}
