import Dispatch
import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The library API: test doubles, time, events, errors, streams, imports")
struct LibraryAPICommandTests {
  @Test("a store import writes what import --append writes and names the subjects whose access changed")
  func imports() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for (source, input) in [("appstore", "Events/appstore/notifications.jsonl"), ("googleplay", "Events/googleplay/export.jsonl")] {
      let catalogPath = repoPath("Events/\(source)/catalog.json")
      let apiLog = directory.appendingPathComponent("\(source)-api.jsonl").path
      let cliLog = directory.appendingPathComponent("\(source)-cli.jsonl").path
      let clock = LedgerClock.fixed(ts("2026-01-06T00:00:00Z"))
      let store = try LedgerStore(
        logPath: apiLog, catalog: try LedgerCatalog(contentsOfFile: catalogPath), createIfMissing: true, clock: clock)
      let payloads = try String(contentsOfFile: repoPath(input), encoding: .utf8)
      // The samples are signed by the repository's test CA; the CLI verifies against the same root.
      let root = Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Tests/TestCA/root.pem"))))
      let options = StoreImportOptions(appStoreVerification: .verify(rootCertificates: [root]))
      let report =
        source == "appstore"
        ? try store.importAppStore(payloads, options: options) : try store.importGooglePlay(payloads, options: options)
      let flags =
        source == "appstore" ? ["--root", repoPath("Tests/TestCA/root.pem")] : ["--recorded-at", "2026-01-06T00:00:00Z"]
      let run = runCLI(["import", source, repoPath(input), "--catalog", catalogPath, "--append", cliLog] + flags)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(try String(contentsOfFile: apiLog, encoding: .utf8) == String(contentsOfFile: cliLog, encoding: .utf8))
      if source == "googleplay" {
        // Both keep the same documents beside the log (Docs/import-googleplay.md).
        let kept = ".googleplay-documents.jsonl"
        #expect(
          try !String(contentsOfFile: apiLog + kept, encoding: .utf8).isEmpty
            && String(contentsOfFile: apiLog + kept, encoding: .utf8)
              == String(contentsOfFile: cliLog + kept, encoding: .utf8))
      }
      #expect(report.append.appended == report.events && report.events > 0)
      #expect(!report.subjects.isEmpty && Set(report.accessChanged).isSubset(of: Set(report.subjects)))
      // Every subject that holds something on the clock's day had nothing before the import.
      let holding = report.subjects.filter { !store.answer(for: $0, at: clock.now()).entitlements.isEmpty }
      #expect(Set(holding).isSubset(of: Set(report.accessChanged)) && !holding.isEmpty)
      // Importing again adds nothing and changes nobody's access.
      let again =
        source == "appstore"
        ? try store.importAppStore(payloads, options: options) : try store.importGooglePlay(payloads, options: options)
      #expect(again.append.appended == 0 && again.accessChanged.isEmpty)
    }
  }

  @Test("check --format json prints one object per problem with its stable code, the same problems as text")
  func checkJSON() throws {
    let workspace = try Workspace(
      log: EventLines.log([
        .purchase(id: "a", subject: "s", at: ts("2026-01-01T00:00:00Z"), product: "nope", transaction: "t"),
        .purchase(id: "b", subject: "s", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "t"),
      ]) + "\n"
        + "{\n")
    let json = runCLI(["check", workspace.log, "--format", "json"])
    let text = runCLI(["check", workspace.log])
    #expect(json.status == 65 && text.status == 65)
    let problems = try json.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    let textLines = text.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }
    #expect(problems.count == textLines.count && !problems.isEmpty)
    for (problem, line) in zip(problems, textLines) {
      let diagnostic = Diagnostic(
        code: DiagnosticCode(rawValue: try #require(problem["code"]?.stringValue)),
        message: try #require(problem["message"]?.stringValue), file: problem["file"]?.stringValue,
        line: problem["line"].flatMap { if case .integer(let n) = $0 { Int(n) } else { nil } },
        column: problem["column"].flatMap { if case .integer(let n) = $0 { Int(n) } else { nil } },
        severity: problem["severity"]?.stringValue == "warning" ? .warning : .error)
      #expect(diagnostic.description == line)
    }
    let codes = problems.compactMap { $0["code"]?.stringValue }
    #expect(codes.contains("unknown_product") && codes.contains("invalid_json"))
    let missing = runCLI(["check", workspace.path("absent.jsonl"), "--format", "json"])
    let missingProblem = try JSONValue.parse(missing.stdout)
    #expect(missing.status == 66 && missingProblem["code"]?.stringValue == "file_not_found")
  }
}
