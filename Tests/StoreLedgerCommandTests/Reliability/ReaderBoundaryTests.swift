import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The log reader across block boundaries and long lines")
struct ReaderBoundaryTests {
  /// Loads `path` through the pipelined reader with `blockBytes`-byte blocks.
  private func load(_ path: String, catalog: Catalog, blockBytes: Int) throws -> (Result<Ledger, DiagnosticList>, LogExtent) {
    var builder = LedgerBuilder(catalog: catalog, file: path)
    let extent = try PipelinedLogReader.feed(&builder, path: path, catalog: catalog, blockBytes: blockBytes)
    return (builder.finish(), extent)
  }

  @Test(
    "every scenario log and a generated one read in 4 KiB blocks answer exactly as in 1 MiB blocks",
    arguments: scenarioNames + ["generated"])
  func smallBlocks(scenario: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("log.jsonl").path
    let catalog: Catalog
    if scenario == "generated" {
      // About 500 lines: many 4 KiB boundaries fall inside lines (the carry branch).
      #expect(runCLI(["generate", "--subjects", "40", "--seed", "3", "--out", path]).status == 0)
      catalog = try LedgerLoader.loadCatalog(path: directory.appendingPathComponent("catalog.json").path)
    } else {
      catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
      let text = try String(contentsOfFile: repoPath("Events/\(scenario).jsonl"), encoding: .utf8)
      try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
    let (small, smallExtent) = try load(path, catalog: catalog, blockBytes: 4096)
    let (large, largeExtent) = try load(path, catalog: catalog, blockBytes: PipelinedLogReader.blockBytes)
    #expect(smallExtent == largeExtent)
    guard case .success(let a) = small, case .success(let b) = large else {
      Issue.record("\(scenario) did not load")
      return
    }
    #expect(a.events == b.events)
    var engineA = QueryEngine(ledger: a)
    var engineB = QueryEngine(ledger: b)
    for subject in (0..<b.subjectCount).map({ b.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }).prefix(12) {
      for event in b.events.prefix(200) {
        #expect(engineA.answer(subject: subject, at: event.at, asOf: event.recorded, explain: true)
          == engineB.answer(subject: subject, at: event.at, asOf: event.recorded, explain: true))
      }
    }
  }

  @Test("a line over the limit in the middle is an error naming its line; as the torn last line it is the warning",
    arguments: [4096, PipelinedLogReader.blockBytes])
  func longLines(blockBytes: Int) throws {
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
    let good = EventLines.line(.purchase(id: "a", subject: "u", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t"))
    let other = EventLines.line(.purchase(id: "b", subject: "u", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t2"))
    let long = String(repeating: "x", count: Limits.lineBytesMax + 5000)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("log.jsonl").path

    try (good + "\n" + long + "\n" + other + "\n")
      .write(toFile: path, atomically: false, encoding: .utf8)
    let (middle, _) = try load(path, catalog: catalog, blockBytes: blockBytes)
    guard case .failure(let list) = middle else {
      Issue.record("a long line in the middle was accepted")
      return
    }
    #expect(list.diagnostics.count == 1)
    #expect(list.diagnostics[0].line == 2)
    #expect(list.diagnostics[0].problem == .lineTooLong(bytes: long.utf8.count, limit: Limits.lineBytesMax))

    try (good + "\n" + long).write(toFile: path, atomically: false, encoding: .utf8)
    var builder = LedgerBuilder(catalog: catalog, file: path)
    let extent = try LedgerLoader.feed(&builder, path: path)
    #expect(extent.tornBytes == Int64(long.utf8.count))
    #expect(extent.lineCount == 1)
    guard case .success(let ledger) = builder.finish() else {
      Issue.record("a torn last line over the limit made the log invalid")
      return
    }
    #expect(ledger.events.count == 1)
    #expect(ledger.warnings.contains { $0.problem == .tornLastLine(bytes: long.utf8.count) })
  }
}
