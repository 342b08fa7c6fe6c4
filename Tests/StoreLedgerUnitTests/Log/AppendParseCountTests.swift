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
@Suite struct AppendParseCountTests {
  /// The demo scenario split in two: the log as it stands and the batch appended to it (a
  /// blank line and a line with leading spaces among them, neither of which is an extra event).
  private static func demoSplit() throws -> (log: String, batch: String, batchEvents: Int, unstamped: Int) {
    let lines = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let batch = lines[3...].map { "  " + $0 + "\n\n" }.joined()
    let unstamped = lines[3...].filter { !$0.contains(#""recorded""#) }.count
    return (lines[..<3].map { $0 + "\n" }.joined(), batch, lines.count - 3, unstamped)
  }

  /// A directory with the demo log's first lines and its catalog beside it.
  private static func workspace() throws -> (directory: URL, log: String, batch: String, batchEvents: Int, unstamped: Int) {
    let directory = try temporaryDirectory()
    let split = try demoSplit()
    let log = directory.appendingPathComponent("log.jsonl").path
    try split.log.write(toFile: log, atomically: true, encoding: .utf8)
    try String(contentsOfFile: repoPath("Events/catalog.json"), encoding: .utf8)
      .write(toFile: LedgerLoader.defaultCatalogPath(forLog: log), atomically: true, encoding: .utf8)
    return (directory, log, split.batch, split.batchEvents, split.unstamped)
  }

  @Test("storeledger append parses each line of its batch once, stamping recorded on the parsed value")
  func commandAppend() throws {
    let place = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: place.directory) }
    let batchPath = place.directory.appendingPathComponent("batch.jsonl").path
    try place.batch.write(toFile: batchPath, atomically: true, encoding: .utf8)
    let (run, parses) = LineParses.counting {
      runCLI(["append", place.log, batchPath, "--recorded-at", "2026-05-01T00:00:00Z"])
    }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("appended \(place.batchEvents) events") && run.stdout.contains("\(place.unstamped) stamped"))
    #expect(parses == place.batchEvents)
  }

  @Test("beside an index, storeledger append parses its batch once and extends the index from the typed events")
  func commandAppendBesideAnIndex() throws {
    let place = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: place.directory) }
    let index = runCLI(["index", place.log])
    #expect(index.status == 0, "\(index.stderr)")
    let batchPath = place.directory.appendingPathComponent("batch.jsonl").path
    try place.batch.write(toFile: batchPath, atomically: true, encoding: .utf8)
    let (run, parses) = LineParses.counting {
      runCLI(["append", place.log, batchPath, "--recorded-at", "2026-05-01T00:00:00Z"])
    }
    #expect(run.status == 0 && !run.stderr.contains("warning"), "\(run.stderr)")
    // The index hands over the covered lines of the subjects the batch involves (u1's e1 and
    // u3's e3), which are the log's lines, read once: the rest is the batch, once.
    #expect(parses == place.batchEvents + 2)
    let manifest = try #require(LogIndex.readManifest(LogIndex.directory(forLog: place.log)).flatMap { try? $0.get() })
    #expect(manifest.coveredBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: place.log)).count))
  }

  @Test("an open store's append parses each line of its batch once, alone and in a commit group")
  func storeAppend() throws {
    for grouped in [false, true] {
      let place = try Self.workspace()
      defer { try? FileManager.default.removeItem(at: place.directory) }
      let store = try LedgerStore(logPath: place.log)
      store.groupsCommits = grouped
      let (report, parses) = try LineParses.counting {
        try store.append(lines: Array(place.batch.utf8), named: "<lines>", now: ts("2026-05-01T00:00:00Z"))
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

  @Test("a store import and import --append parse each event line they append once", arguments: ["appstore", "googleplay"])
  func imports(source: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = source == "appstore" ? "Events/appstore/notifications.jsonl" : "Events/googleplay/export.jsonl"
    let catalogPath = repoPath("Events/\(source)/catalog.json")
    let storeLog = directory.appendingPathComponent("store.jsonl").path
    let store = try LedgerStore(
      logPath: storeLog, catalog: try LedgerCatalog(contentsOfFile: catalogPath), createIfMissing: true,
      clock: .fixed(ts("2026-01-06T00:00:00Z")))
    let payloads = try String(contentsOfFile: repoPath(input), encoding: .utf8)
    let options = StoreImportOptions(appStoreVerification: .skip)
    let (report, storeParses) = try LineParses.counting {
      source == "appstore" ? try store.importAppStore(payloads, options: options) : try store.importGooglePlay(payloads, options: options)
    }
    #expect(report.append.appended == report.events && report.events > 0)
    #expect(storeParses == report.events)

    let commandLog = directory.appendingPathComponent("command.jsonl").path
    let flags = source == "appstore" ? ["--no-verify"] : ["--recorded-at", "2026-01-06T00:00:00Z"]
    let (run, commandParses) = LineParses.counting {
      runCLI(["import", source, repoPath(input), "--catalog", catalogPath, "--append", commandLog] + flags)
    }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(commandParses == report.events)
  }
}
