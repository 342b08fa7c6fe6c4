import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Whether this run re-records golden files: only when asked, and never on CI.
private let isRecording: Bool = {
  let environment = ProcessInfo.processInfo.environment
  return environment["STORELEDGER_RECORD"] == "1" && environment["CI"] == nil
}()

@Suite("Golden snapshots of the scenario logs")
struct GoldenSnapshotTests {
  @Test("every scenario's folded state matches its golden file in Snapshots/", arguments: scenarios)
  func golden(scenario: Scenario) throws {
    let (name, snapshots) = (scenario.name, scenario.goldenFolder)
    let catalogPath = repoPath("\(scenario.folder)/catalog.json")
    let logPath = repoPath("\(scenario.folder)/\(name).jsonl")
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
    let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: catalogPath)
    let received = SnapshotWriter.write(ledger, header: header)
    let goldenPath = repoPath("\(snapshots)/\(name).json")
    let receivedPath = repoPath("\(snapshots)/\(name).received.json")
    if isRecording {
      try Data(received).write(to: URL(fileURLWithPath: goldenPath))
      try? FileManager.default.removeItem(atPath: receivedPath)
      return
    }
    guard let golden = FileManager.default.contents(atPath: goldenPath) else {
      try Data(received).write(to: URL(fileURLWithPath: receivedPath))
      Issue.record(
        "\(snapshots)/\(name).json is missing; wrote \(name).received.json. Review it, then record with STORELEDGER_RECORD=1 swift test.")
      return
    }
    if Array(golden) == received {
      try? FileManager.default.removeItem(atPath: receivedPath)
      return
    }
    try Data(received).write(to: URL(fileURLWithPath: receivedPath))
    let differences = SnapshotDiff.compare(
      try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(Array(golden)))),
      try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(received))), nameA: "golden", nameB: "received")
    Issue.record(
      """
      scenario '\(name)': folded state differs from \(snapshots)/\(name).json (received file written beside it):
      \(differences.prefix(40).map { "  " + $0 }.joined(separator: "\n"))
      Re-record on purpose with: STORELEDGER_RECORD=1 swift test --filter GoldenSnapshotTests
      """)
  }

  @Test(
    "every golden snapshot restores to a ledger that answers like a fresh fold of its log, at every edge instant",
    arguments: scenarios)
  func goldenRestoresLikeFold(scenario: Scenario) throws {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("\(scenario.folder)/catalog.json"))
    let (fold, _) = try scenario.load()
    let golden = try LedgerLoader.readFile(repoPath("\(scenario.goldenFolder)/\(scenario.name).json"))
    let (base, header) = try SnapshotReader.read(golden, file: scenario.name, catalog: catalog)
    #expect(header.events == fold.events.count && header.duplicatesSkipped == fold.duplicatesSkipped)
    var builder = LedgerBuilder(restoring: base, file: "log.jsonl")
    let restored = try builder.finish().get()
    #expect(restored.events.count == fold.events.count)
    var expected = QueryEngine(ledger: fold)
    var actual = QueryEngine(ledger: restored)
    let subjects = (0..<fold.subjectCount).map { fold.symbols.subjects.string(Symbol(rawValue: UInt32($0))) } + ["nobody"]
    // Each instant an answer can change at, and the millisecond before it (T < expires is active, T == expires not).
    let edges = Set(fold.events.flatMap { e in
      [e.at, e.recorded] + (e.hasExpires ? [e.expires] : [])
    }).flatMap { [$0, $0.adding(milliseconds: -1)] }.sorted()
    let knowledge: [Timestamp?] = [nil] + Set(fold.events.map(\.recorded)).sorted().map { Optional($0) }
    var compared = 0
    for subject in subjects {
      for at in edges {
        for asOf in knowledge.prefix(6) {
          let want = expected.answer(subject: subject, at: at, asOf: asOf, explain: true)
          #expect(actual.answer(subject: subject, at: at, asOf: asOf, explain: true) == want, "\(scenario): \(subject) at \(at) as of \(String(describing: asOf))")
          compared += 1
        }
      }
    }
    #expect(compared >= subjects.count * 2)
  }

  @Test("the readable diff names the subject and the interval that changed")
  func diffIsReadable() throws {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
    func snapshot(_ lines: String) throws -> JSONValue {
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let logPath = directory.appendingPathComponent("log.jsonl").path
      try lines.write(toFile: logPath, atomically: true, encoding: .utf8)
      let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
      let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: repoPath("Events/catalog.json"))
      return try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(SnapshotWriter.write(ledger, header: header))))
    }
    let base =
      EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")),
        .purchase(id: "p2", subject: "u2", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "t2"),
      ]) + "\n"
    let refunded = base + EventLines.line(.revocation(id: "r1", subject: "u1", at: ts("2026-01-10T00:00:00Z"), transaction: "t1")) + "\n"
    let lines = SnapshotDiff.compare(try snapshot(base), try snapshot(refunded))
    #expect(lines.contains("  subject \"u1\":"))
    #expect(lines.contains("    entitlements.pro from 1 Jan 2026: to 1 Feb 2026 → 10 Jan 2026"), "\(lines)")
    // The plan's change at the refund, worded as query --format text words a plan.
    #expect(
      lines.contains(
        "    subscriptions.t1 at 10 Jan 2026: added pro.monthly, revoked; its period would have run until 1 Feb 2026 (transaction t1)"),
      "\(lines)")
    #expect(lines.contains("    events: 1 → 2 records"))
    #expect(!lines.contains { $0.contains("\"u2\"") })
    #expect(lines.last == "1 subject differs")
    #expect(SnapshotDiff.compare(try snapshot(base), try snapshot(base)).isEmpty)
  }

  @Test("snapshots whose timelines are equal but whose event records differ are told apart")
  func recordsOnlyDiffer() throws {
    let catalogPath = repoPath("Events/catalog.json")
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    func snapshot(_ line: String) throws -> [UInt8] {
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let logPath = directory.appendingPathComponent("log.jsonl").path
      try (line + "\n").write(toFile: logPath, atomically: true, encoding: .utf8)
      let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
      return SnapshotWriter.write(ledger, header: try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: catalogPath))
    }
    let line = EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"))
    let a = try snapshot(line)
    let b = try snapshot(line.replacingOccurrences(of: "\"p1\"", with: "\"q1\""))
    let readable = { (bytes: [UInt8]) in try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(bytes))) }
    // Only the log's digest differs in the readable part; the note says what else does.
    let (readableA, readableB) = (try readable(a), try readable(b))
    let lines = SnapshotDiff.compare(readableA, readableB)
    #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("log.tree_xxh64") }, "\(lines)")
    let note = SnapshotDiff.restoreSectionNote(a, b, readableA: readableA, readableB: readableB)
    #expect(note?.contains("event records differ") == true)
    #expect(SnapshotDiff.restoreSectionNote(a, a, readableA: readableA, readableB: readableA) == nil)
  }
}
