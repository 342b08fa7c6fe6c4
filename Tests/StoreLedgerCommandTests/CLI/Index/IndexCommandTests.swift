import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("storeledger index, --no-index and the readers' warnings")
struct IndexCommandTests {
  @Test("index builds, says up to date, and readers answer as with --no-index, also after cat >>")
  func workflow() throws {
    let fixture = try IndexFixture(log: Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl")))), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    let built = runCLI(["index", fixture.log])
    #expect(built.status == 0 && built.stderr.isEmpty)
    #expect(built.stdout.hasPrefix("index of \(fixture.log) built: covers 7 lines (1146 bytes); 1 segment, "))
    #expect(runCLI(["index", fixture.log]).stdout.contains(" up to date: covers 7 lines"))
    func same(_ arguments: [String]) {
      let indexed = runCLI(arguments)
      let plain = runCLI(arguments + ["--no-index"])
      #expect(indexed.status == plain.status && indexed.stdout == plain.stdout && indexed.stderr == plain.stderr, "\(arguments)")
    }
    for subject in ["u1", "u2", "u3", "U1"] {
      same(["query", fixture.log, "--subject", subject, "--at", "2026-03-05", "--explain"])
      same(["query", fixture.log, "--subject", subject, "--during", "2026-03-04", "--format", "text"])
      same(["query", fixture.log, "--subject", subject, "--at", "2026-03-05", "--as-of", "2026-03-06", "--format", "text"])
    }
    same(["timeline", fixture.log, "--subject", "u1"])
    let late = EventLines.line(.revocation(id: "late", subject: "u2", at: ts("2026-03-01T00:00:00Z"), transaction: "u2-t1", reason: .refund))
    try fixture.appendBehindBack(Array((late + "\n").utf8))
    same(["query", fixture.log, "--subject", "u2", "--at", "2026-03-05"])
    #expect(runCLI(["index", fixture.log]).stdout.contains(" updated ("))
  }

  @Test("a damaged index: readers warn and answer from the whole log; index rebuilds it; check verifies")
  func damaged() throws {
    let fixture = try IndexFixture(log: Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl")))), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    #expect(runCLI(["index", fixture.log]).status == 0)
    #expect(runCLI(["check", fixture.log]).stderr.isEmpty)
    let manifest = fixture.indexDirectory + "/manifest"
    try (try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(of: "covered-lines=7", with: "covered-lines=6"))
      .write(toFile: manifest, atomically: false, encoding: .utf8)
    let query = runCLI(["query", fixture.log, "--subject", "u1", "--at", "2026-03-05"])
    #expect(query.status == 0 && query.stdout == runCLI(["query", fixture.log, "--subject", "u1", "--at", "2026-03-05", "--no-index"]).stdout)
    #expect(query.stderr.contains("warning: the index beside this log was not used (damaged: "))
    #expect(runCLI(["check", fixture.log]).stderr.contains("warning: the index beside this log does not describe it"))
    let rebuilt = runCLI(["index", fixture.log])
    #expect(rebuilt.status == 0 && rebuilt.stdout.contains(" built: ") && rebuilt.stderr.contains("it was rebuilt"))
    #expect(runCLI(["query", fixture.log, "--subject", "u1", "--at", "2026-03-05"]).stderr.isEmpty)
  }

  @Test("a log with errors gets no index")
  func invalidLog() throws {
    let fixture = try IndexFixture(log: Array("{\"id\":\"x\"}\n".utf8), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    let result = runCLI(["index", fixture.log])
    #expect(result.status == 65 && result.stderr.contains(":1:"))
    #expect(!FileManager.default.fileExists(atPath: fixture.indexDirectory + "/manifest"))
  }

  @Test("import --append keeps the index current")
  func importAppend() throws {
    let fixture = try IndexFixture(log: [], catalogText: try String(contentsOfFile: repoPath("Events/appstore/catalog.json"), encoding: .utf8))
    defer { fixture.remove() }
    #expect(runCLI(["index", fixture.log]).status == 0)
    let imported = runCLI(["import", "appstore", repoPath("Events/appstore/notifications.jsonl"), "--root", repoPath("Tests/TestCA/root.pem"), "--catalog", fixture.directory.appendingPathComponent("catalog.json").path, "--append", fixture.log])
    #expect(imported.status == 0, "\(imported.stderr)")
    let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    #expect(manifest.coveredBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: fixture.log)).count) && manifest.coveredBytes > 0)
  }
}
