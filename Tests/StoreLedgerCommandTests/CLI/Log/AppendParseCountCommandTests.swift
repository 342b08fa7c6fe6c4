import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// The command-line half of `AppendParseCountTests` (Tests/StoreLedgerUnitTests/): the same questions asked of
/// `storeledger`.
@Suite
struct AppendParseCountCommandTests: DemoAppendFixture {
  @Test(
    "storeledger append parses each line of its batch once, stamping recorded on the parsed value")
  func commandAppend() throws {
    let place = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: place.directory) }
    let batchPath = place.directory.appendingPathComponent("batch.jsonl").path
    try place.batch.write(toFile: batchPath, atomically: true, encoding: .utf8)
    let (run, parses) = LineParses.counting {
      runCLI(["append", place.log, batchPath, "--recorded-at", "2026-05-01T00:00:00Z"])
    }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.contains("appended \(place.batchEvents) events")
        && run.stdout.contains("\(place.unstamped) stamped"))
    #expect(parses == place.batchEvents)
  }

  @Test(
    "beside an index, storeledger append parses its batch once and extends the index from the typed events"
  )
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
    let manifest = try #require(
      LogIndex.readManifest(LogIndex.directory(forLog: place.log)).flatMap { try? $0.get() })
    #expect(
      manifest.coveredBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: place.log)).count))
  }

  @Test(
    "a store import and import --append parse each event line they append once",
    arguments: ["appstore", "googleplay"])
  func imports(source: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input =
      source == "appstore"
      ? "Events/appstore/notifications.jsonl" : "Events/googleplay/export.jsonl"
    let catalogPath = repoPath("Events/\(source)/catalog.json")
    let storeLog = directory.appendingPathComponent("store.jsonl").path
    let store = try LedgerStore(
      logPath: storeLog, catalog: try LedgerCatalog(contentsOfFile: catalogPath),
      createIfMissing: true,
      clock: .fixed(ts("2026-01-06T00:00:00Z")))
    let payloads = try String(contentsOfFile: repoPath(input), encoding: .utf8)
    let options = StoreImportOptions(appStoreVerification: .skip)
    let (report, storeParses) = try LineParses.counting {
      source == "appstore"
        ? try store.importAppStore(payloads, options: options)
        : try store.importGooglePlay(payloads, options: options)
    }
    #expect(report.append.appended == report.events && report.events > 0)
    #expect(storeParses == report.events)

    let commandLog = directory.appendingPathComponent("command.jsonl").path
    let flags = source == "appstore" ? ["--no-verify"] : ["--recorded-at", "2026-01-06T00:00:00Z"]
    let (run, commandParses) = LineParses.counting {
      runCLI(
        ["import", source, repoPath(input), "--catalog", catalogPath, "--append", commandLog]
          + flags)
    }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(commandParses == report.events)
  }
}
