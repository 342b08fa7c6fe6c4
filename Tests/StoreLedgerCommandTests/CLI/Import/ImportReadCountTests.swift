import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// How often `import … --append` reads the log's lines: once (Docs/architecture.md, "How often an
/// appended line is parsed"). `LineParses.countingLogLines` counts the lines of a log read from
/// its file in the test's task: by the loader's blocks and by a read of the committed text whole.
@Suite struct ImportReadCountTests {
  @Test(
    "import --append reads each line of the log once, for what the importer must know and for the append, and learns from each kept line once",
    arguments: ["appstore", "googleplay"])
  func commandImport(source: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = repoPath(
      source == "appstore" ? "Events/appstore/notifications.jsonl" : "Events/googleplay/export.jsonl")
    let catalogPath = repoPath("Events/\(source)/catalog.json")
    let log = directory.appendingPathComponent("log.jsonl").path
    let flags = source == "appstore" ? ["--no-verify"] : ["--recorded-at", "2026-01-06T00:00:00Z"]
    let arguments = ["import", source, input, "--catalog", catalogPath, "--append", log] + flags
    let first = runCLI(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
    #expect(lines > 5)
    // Again: every event is known already, which only the log's lines can tell.
    let (again, read, learned) = LineParses.countingLogLines { runCLI(arguments) }
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("\(lines) already in the log, not repeated"), "\(again.stdout)")
    #expect(read == lines)
    // Each line the load kept for the importer is read into its typed event once, to learn from.
    #expect(learned == lines)
  }
}
