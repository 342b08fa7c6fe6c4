import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("An append under another catalog never leaves an index claiming its own catalog over the batch")
struct IndexCatalogTests {
  /// The Events catalog with one more product: every line of demo.jsonl is valid under both.
  static let otherCatalogText = exampleCatalogText.replacingOccurrences(
    of: #""coins.500":"#, with: #""coins.1000": {"type": "consumable", "currency": "coins", "units": 1000}, "coins.500":"#)
  /// A batch only the other catalog admits.
  static let otherBatch =
    EventLines.line(.purchase(id: "b1", subject: "u3", at: ts("2026-03-02T00:00:00Z"), product: "coins.1000", transaction: "b1-t")) + "\n"
  /// A batch both catalogs admit, of a subject the first batch does not involve.
  static let plainBatch =
    EventLines.line(.purchase(id: "b2", subject: "u1", at: ts("2026-03-03T00:00:00Z"), product: "coins.100", transaction: "b2-t")) + "\n"

  /// demo.jsonl indexed under the Events catalog, with the other catalog and both batches beside it.
  static func fixture() throws -> (IndexFixture, other: String) {
    let fixture = try IndexFixture(log: Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl")))), catalogText: exampleCatalogText)
    let other = fixture.directory.appendingPathComponent("other.json").path
    try otherCatalogText.write(toFile: other, atomically: false, encoding: .utf8)
    try otherBatch.write(toFile: fixture.directory.appendingPathComponent("other-batch.jsonl").path, atomically: false, encoding: .utf8)
    try plainBatch.write(toFile: fixture.directory.appendingPathComponent("plain-batch.jsonl").path, atomically: false, encoding: .utf8)
    #expect(runCLI(["index", fixture.log]).status == 0)
    return (fixture, other)
  }

  /// The exit status of `append` of `batch` to a copy of the log without an index (a full read).
  static func fullReadAppend(_ fixture: IndexFixture, batch: String, catalog: [String]) throws -> Int32 {
    let copy = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: copy) }
    let log = copy.appendingPathComponent("log.jsonl").path
    try FileManager.default.copyItem(atPath: fixture.log, toPath: log)
    try FileManager.default.copyItem(atPath: fixture.directory.appendingPathComponent("catalog.json").path, toPath: copy.appendingPathComponent("catalog.json").path)
    return runCLI(["append", log, fixture.directory.appendingPathComponent(batch).path] + catalog).status
  }

  @Test("after 'append --catalog other.json', indexed readers answer as --no-index under either catalog, and indexed appends admit what full-read appends admit")
  func cliAppendUnderOtherCatalog() throws {
    let (fixture, other) = try Self.fixture()
    defer { fixture.remove() }
    let appended = runCLI(["append", fixture.log, fixture.directory.appendingPathComponent("other-batch.jsonl").path, "--catalog", other])
    #expect(appended.status == 0, "\(appended.stderr)")
    for catalog in [[], ["--catalog", other]] {
      for subject in ["u1", "u3"] {
        let query = ["query", fixture.log, "--subject", subject, "--at", "2026-03-05"] + catalog
        let indexed = runCLI(query)
        let plain = runCLI(query + ["--no-index"])
        #expect(indexed.status == plain.status && indexed.stdout == plain.stdout, "\(query): \(indexed.stderr)")
        // The Events catalog does not know coins.1000: the log is refused (65) both ways.
        #expect(plain.status == (catalog.isEmpty ? 65 : 0))
      }
    }
    for catalog in [[], ["--catalog", other]] {
      let expected = try Self.fullReadAppend(fixture, batch: "plain-batch.jsonl", catalog: catalog)
      #expect(expected == (catalog.isEmpty ? 65 : 0))
      let indexed = runCLI(["append", fixture.log, fixture.directory.appendingPathComponent("plain-batch.jsonl").path] + catalog)
      #expect(indexed.status == expected, "\(catalog): \(indexed.stderr)")
    }
  }

  /// How the library appends under the other catalog.
  enum Via: String, CaseIterable, CustomTestStringConvertible {
    case staticAppend, openStore
    var testDescription: String { rawValue }
  }

  @Test("the library's appends under another catalog leave the index to its own catalog: indexed answers throw as full reads throw", arguments: Via.allCases)
  func libraryAppendUnderOtherCatalog(_ via: Via) throws {
    let (fixture, other) = try Self.fixture()
    defer { fixture.remove() }
    let event = NewEvent.purchase(id: "b1", subject: "u3", at: ts("2026-03-02T00:00:00Z"), product: "coins.1000", transaction: "b1-t")
    switch via {
    case .staticAppend: _ = try LedgerStore.append([event], logPath: fixture.log, catalogPath: other)
    case .openStore: _ = try LedgerStore(logPath: fixture.log, catalogPath: other).append([event])
    }
    #expect(throws: DiagnosticList.self) { try fixture.fullLedger() }
    #expect(throws: DiagnosticList.self) { try fixture.indexedLedger(["u1"]) }
    #expect(throws: DiagnosticList.self) { try LedgerStore.answer(logPath: fixture.log, for: "u1", at: ts("2026-03-05T00:00:00Z")) }
    // Under the other catalog the answers are the full read's.
    let otherCatalog = try StoreLedgerTestSupport.catalog(Self.otherCatalogText)
    let full = try LedgerLoader.load(logPath: fixture.log, catalog: otherCatalog).ledger
    if case .loaded(let indexed, _) = try IndexedLedger.load(logPath: fixture.log, catalog: otherCatalog, subjects: ["u3"]) {
      #expect(answers(indexed, subject: "u3", at: full.latestEffective, asOf: nil) == answers(full, subject: "u3", at: full.latestEffective, asOf: nil))
    }
  }
}
