import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// How often the append and import paths parse a line of their batch: once
/// (Docs/architecture.md, "How often an appended line is parsed"). `LineParses` counts every
/// line `EventLineParser` parses one by one in the test's task; the log's own lines are read by
/// the pipelined reader, which is not counted, so the count is the batch's.
@Suite
struct AppendParseCountTests: DemoAppendFixture {
  @Test(
    "an index extended from the written lines' typed events is byte for byte the one parsing them gives"
  )
  func indexFromWrittenLines() throws {
    // A line with leading blanks and an empty line among the batch's: the offsets must still agree.
    let batch = Array(
      (EventLines.line(
        .purchase(id: "n1", subject: "dee", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "dee-1", price: 990, currency: "USD"))
        + "\n"
        + "  " + EventLines.line(.consumption(id: "n4", subject: "ann", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 60))
        + "\n\n"
        + EventLines.line(
          .purchase(
            id: "o3", subject: "cy", at: ts("2026-03-03T00:00:00Z"), product: "pro.monthly", transaction: "cy-1",
            expires: ts("2026-04-03T00:00:00Z")
          ).recordedAt("2026-03-02T12:00:00Z"))
        + "\n").utf8)
    // A line appended behind the index's back, without its newline: parsed, not written by the append.
    let behind = EventLines.line(
      .purchase(id: "t1", subject: "eve", at: ts("2026-03-06T00:00:00Z"), product: "coins.100", transaction: "eve-1"))
    var files: [[(name: String, bytes: [UInt8])]] = []
    for fromEvents in [true, false] {
      let fixture = try IndexFixture(
        log: Array(IndexAppendTests.oldLog.utf8), catalogText: exampleCatalogText)
      defer { fixture.remove() }
      try fixture.index()
      try fixture.appendBehindBack(Array(behind.utf8))
      let (outcome, parses) = try LineParses.counting {
        try LogAppender.append(
          AppendBatch(parsing: batch, catalog: fixture.catalog), inputName: "batch",
          logPath: fixture.log,
          catalog: fixture.catalog, now: ts("2026-03-10T00:00:00Z"),
          prepare: { (_, size) throws(DiagnosticList) in
            // The whole log, as an append without an index reads it.
            var builder = LedgerBuilder(catalog: fixture.catalog, file: fixture.log)
            let extent = try DiagnosticList.collecting(path: fixture.log) {
              try LedgerLoader.feed(&builder, path: fixture.log, endingAt: size)
            }
            return (builder, extent.lineCount)
          },
          afterCommit: { log, committed, written in
            IndexBuild.afterAppend(
              log: log, logPath: fixture.log, committed: committed, catalog: fixture.catalog,
              written: fromEvents ? written : WrittenLines())
          })
      }
      // The batch's 3 lines once each and the line behind the index's back once; parsing what
      // was written reads the 3 again.
      #expect(parses == (fromEvents ? 4 : 7))
      #expect(
        outcome.report.appended == 2 && outcome.report.learnedEarlier == 1
          && outcome.report.warnings.isEmpty)
      #expect(!fromEvents || outcome.written.lines.count == 3)
      let manifest = try #require(
        LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
      #expect(
        manifest.coveredBytes
          == Int64(try Data(contentsOf: URL(fileURLWithPath: fixture.log)).count))
      // The manifest names the log's identity (another file each run); the segments must be equal.
      files.append(try fixture.indexFiles().filter { !$0.name.hasPrefix("manifest") })
    }
    #expect(files[0].map(\.name) == files[1].map(\.name) && !files[0].isEmpty)
    #expect(files[0].map(\.bytes) == files[1].map(\.bytes))
  }

  @Test("an open store's append parses each line of its batch once, alone and in a commit group")
  func storeAppend() throws {
    for grouped in [false, true] {
      let place = try Self.workspace()
      defer { try? FileManager.default.removeItem(at: place.directory) }
      let store = try LedgerStore(logPath: place.log)
      store.groupsCommits = grouped
      let (report, parses) = try LineParses.counting {
        try store.append(
          lines: Array(place.batch.utf8), named: "<lines>", now: ts("2026-05-01T00:00:00Z"))
      }
      #expect(report.appended == place.batchEvents && report.stamped == place.unstamped)
      #expect(parses == place.batchEvents, "grouped: \(grouped)")
    }
  }

  @Test("an in-memory store's append parses each line of its batch once")
  func memoryAppend() throws {
    let split = try Self.demoSplit()
    let catalog = try LedgerCatalog(contentsOfFile: repoPath("Events/catalog.json"))
    let store = LedgerStore(inMemory: catalog)
    _ = try store.append(lines: Array(split.log.utf8), named: "<lines>", now: nil)
    let (report, parses) = try LineParses.counting {
      try store.append(lines: Array(split.batch.utf8), named: "<lines>", now: nil)
    }
    #expect(report.appended == split.batchEvents)
    #expect(parses == split.batchEvents)
  }
}
