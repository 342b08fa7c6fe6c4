import Foundation
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
      try JSONValue.parse(bytes: Array(golden)), try JSONValue.parse(bytes: received), nameA: "golden", nameB: "received")
    Issue.record(
      """
      scenario '\(name)': folded state differs from \(snapshots)/\(name).json (received file written beside it):
      \(differences.prefix(40).map { "  " + $0 }.joined(separator: "\n"))
      Re-record on purpose with: STORELEDGER_RECORD=1 swift test --filter GoldenSnapshotTests
      """)
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
      return try JSONValue.parse(bytes: SnapshotWriter.write(ledger, header: header))
    }
    let base = #"""
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-01-01T00:00:00Z","product":"pro.monthly","transaction":"t1","expires":"2026-02-01T00:00:00Z"}
      {"id":"p2","type":"purchase","subject":"u2","at":"2026-01-01T00:00:00Z","product":"pro.lifetime","transaction":"t2"}

      """#
    let refunded = base + #"{"id":"r1","type":"revocation","subject":"u1","at":"2026-01-10T00:00:00Z","transaction":"t1"}"# + "\n"
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
}
