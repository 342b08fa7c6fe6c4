import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// An append scenario: a valid old log and a batch that is valid only as a whole (a spend,
/// then the purchase that funds it), so any part of it alone makes the log invalid.
struct AppendFixture {
  static let oldLog =
    EventLines.log([
      .purchase(id: "o1", subject: "ann", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "ann-1").recordedAt("2026-03-01T00:00:00Z"),
      .consumption(id: "o2", subject: "ann", at: ts("2026-03-02T00:00:00Z"), currency: "coins", quantity: 40).recordedAt("2026-03-02T00:00:00Z"),
    ]) + "\n"
  static let batch =
    EventLines.log([
      .consumption(id: "b1", subject: "bob", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 70).recordedAt("2026-03-05T00:00:00Z"),
      .purchase(id: "b2", subject: "bob", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "bob-1").recordedAt("2026-03-05T00:00:00Z"),
    ]) + "\n"
  static let unrelated =
    EventLines.line(
      .purchase(id: "u1", subject: "cy", at: ts("2026-03-06T00:00:00Z"), product: "coins.100", transaction: "cy-1").recordedAt("2026-03-06T00:00:00Z"))
    + "\n"
  let directory: URL
  let catalog: Catalog
  var log: String { directory.appendingPathComponent("log.jsonl").path }

  init() throws {
    directory = try temporaryDirectory()
    catalog = try StoreLedgerTestSupport.catalog(exampleCatalogText)
    try reset()
  }

  func reset() throws {
    try? FileManager.default.removeItem(atPath: AppendIntent.path(forLog: log))
    try Self.oldLog.write(toFile: log, atomically: false, encoding: .utf8)
  }

  func logText() throws -> String { try String(contentsOfFile: log, encoding: .utf8) }

  func append(_ text: String) throws(DiagnosticList) -> AppendReport {
    try LogAppender.append(input: Array(text.utf8), inputName: "batch", logPath: log, catalog: catalog, now: nil)
  }

  /// Appends the batch with `fault` armed for this directory; the error if it failed.
  func appendBatch(with failure: IOFault.Failure, after: Int) -> (DiagnosticList?, IOFault) {
    let fault = IOFault(pathPrefix: directory.path + "/", failure: failure, afterBytes: after)
    let (error, ended) = IOFaults.with(fault) { () -> DiagnosticList? in
      do throws(DiagnosticList) {
        _ = try append(Self.batch)
        return nil
      } catch {
        return error
      }
    }
    return (error, ended)
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// How the log is brought back after a failed append.
enum Recovery: String, CaseIterable, CustomTestStringConvertible {
  case nextAppend = "the next append"
  case repair = "repair"
  case reader = "a reader"
  var testDescription: String { rawValue }
}

@Suite("Append is all or nothing across crashes, full disks and failed fsyncs", .serialized)
struct AppendCrashTests {
  static let old = AppendFixture.oldLog
  static let whole = AppendFixture.oldLog + AppendFixture.batch

  /// Checks what recovery leaves: the old log or the old log plus the whole batch, never a part.
  private func recoverAndCheck(_ fixture: AppendFixture, by recovery: Recovery, context: String) throws {
    switch recovery {
    case .nextAppend:
      let report = try fixture.append(AppendFixture.unrelated)
      #expect(report.appended == 1, "\(context)")
      let text = try fixture.logText()
      #expect(text == Self.old + AppendFixture.unrelated || text == Self.whole + AppendFixture.unrelated, "\(context): \(text)")
    case .repair:
      _ = try LogRepair.repair(logPath: fixture.log)
      let text = try fixture.logText()
      #expect(text == Self.old || text == Self.whole, "\(context): \(text)")
    case .reader:
      let before = try fixture.logText()
      let (ledger, extent) = try LedgerLoader.load(logPath: fixture.log, catalog: fixture.catalog)
      #expect(ledger.events.count == 2 || ledger.events.count == 4, "\(context)")
      #expect(extent.tornBytes == 0, "\(context): the reader saw part of the batch")
      #expect(try fixture.logText() == before, "\(context): a reader changed the log")
    }
    #expect(PlatformFile.entryKind(AppendIntent.path(forLog: fixture.log)) == .missing || recovery == .reader, "\(context)")
  }

  @Test("a crash after every byte of an append's writes is rolled back or kept whole", arguments: Recovery.allCases)
  func crashAtEveryByte(recovery: Recovery) throws {
    let fixture = try AppendFixture()
    defer { fixture.remove() }
    var crashes = 0
    var after = 0
    while true {
      try fixture.reset()
      let (error, ended) = fixture.appendBatch(with: .crash, after: after)
      guard ended.crashed else {
        // The budget outlasted every write: the append completed.
        #expect(error == nil)
        #expect(try fixture.logText() == Self.whole)
        break
      }
      crashes += 1
      #expect(error != nil, "crash after \(after) bytes was reported as success")
      try recoverAndCheck(fixture, by: recovery, context: "crash after \(after) bytes")
      // Every byte for repair; every third for the others (each step costs real fsyncs).
      after += recovery == .repair ? 1 : 3
    }
    #expect(crashes > AppendFixture.batch.utf8.count / 3, "the walk did not cover the batch")
  }

  @Test(
    "a write error (full disk, I/O error) at any byte leaves exactly the old log and exit 74",
    arguments: [ENOSPC, EIO])
  func writeErrorAtEveryByte(code: Int32) throws {
    let fixture = try AppendFixture()
    defer { fixture.remove() }
    for after in stride(from: 0, through: AppendFixture.batch.utf8.count + 200, by: code == ENOSPC ? 1 : 4) {
      try fixture.reset()
      let (error, ended) = fixture.appendBatch(with: .writeError(code), after: after)
      if ended.bytesWritten <= after {
        #expect(error == nil)
        #expect(try fixture.logText() == Self.whole)
        break
      }
      #expect(error?.exitCode == 74, "error after \(after) bytes: \(String(describing: error))")
      #expect(try fixture.logText() == Self.old, "error after \(after) bytes")
      #expect(PlatformFile.entryKind(AppendIntent.path(forLog: fixture.log)) == .missing, "error after \(after) bytes")
    }
  }

  @Test("a failed fsync at any point of an append leaves the old log, or the whole batch once recovered")
  func fsyncFailureAtEveryPoint() throws {
    let fixture = try AppendFixture()
    defer { fixture.remove() }
    var failures = 0
    for sync in 0..<16 {
      try fixture.reset()
      let (error, ended) = fixture.appendBatch(with: .syncError(EIO), after: sync)
      guard ended.syncs > sync else {
        #expect(error == nil)
        break
      }
      failures += 1
      #expect(error?.exitCode == 74, "fsync \(sync)")
      #expect(try fixture.logText() == Self.old, "fsync \(sync): a failed append changed the log")
      try recoverAndCheck(fixture, by: .repair, context: "fsync \(sync)")
    }
    #expect(failures >= 4, "intent, directory, log and removal fsyncs should each have failed once")
  }

  @Test("short writes of every size still append the whole batch")
  func shortWrites() throws {
    let fixture = try AppendFixture()
    defer { fixture.remove() }
    for size in [1, 2, 3, 7, 64, 100] {
      try fixture.reset()
      let (error, _) = fixture.appendBatch(with: .shortWrites, after: size)
      #expect(error == nil, "short writes of \(size)")
      #expect(try fixture.logText() == Self.whole, "short writes of \(size)")
    }
  }

  /// A record that describes `log` (its identity, the bytes before `committed`) and a batch of `batch` bytes.
  static func record(forLog log: String, committed: Int64, batch: Int64, batchDigest: String = "0000000000000000") throws
    -> AppendIntent.Record
  {
    let file = try PlatformFile(path: log, mode: .read)
    return AppendIntent.Record(
      identity: try file.identityAndLinks().identity, committed: committed, batch: batch,
      tailDigest: try AppendIntent.tailDigest(of: file, committed: committed), batchDigest: batchDigest)
  }

  @Test("an intent record that is itself torn is discarded: the log was not touched yet")
  func tornIntentIsDiscarded() throws {
    let fixture = try AppendFixture()
    defer { fixture.remove() }
    let record = AppendIntent.encode(try Self.record(forLog: fixture.log, committed: 5, batch: 10))
    for cut in 0..<record.count {
      try fixture.reset()
      try Data(record[0..<cut]).write(to: URL(fileURLWithPath: AppendIntent.path(forLog: fixture.log)))
      let (ledger, _) = try LedgerLoader.load(logPath: fixture.log, catalog: fixture.catalog)
      #expect(ledger.events.count == 2, "record cut at \(cut)")
      _ = try LogRepair.repair(logPath: fixture.log)
      #expect(try fixture.logText() == Self.old, "record cut at \(cut)")
    }
  }

  @Test("an intent record that does not fit the log (something else wrote to it) is an error, and nothing is cut")
  func foreignWritesAreNotCut() throws {
    let fixture = try AppendFixture()
    defer { fixture.remove() }
    let size = Int64(Self.old.utf8.count)
    try Data(AppendIntent.encode(try Self.record(forLog: fixture.log, committed: size - 50, batch: 10))).write(
      to: URL(fileURLWithPath: AppendIntent.path(forLog: fixture.log)))
    #expect(throws: Diagnostic.self) { try LogRepair.repair(logPath: fixture.log) }
    #expect(try fixture.logText() == Self.old)
  }

  @Test("append processes killed with SIGKILL at random moments leave only whole batches (time-bounded)")
  func killLoop() throws {
    let binary = try storeledgerBinary()
    let space = try Workspace(log: "")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    var random = SeededGenerator(seed: testSeeds([7])[0])
    let batchLines = 60
    let started = Date()
    var attempt = 0
    var committed = 0
    while Date().timeIntervalSince(started) < 4, attempt < 40 {
      // Each batch spends before it buys: any part of it alone is an invalid log.
      let pad = String(repeating: "k\(attempt)", count: 300)
      var lines = [
        EventLines.line(
          .consumption(id: "k\(attempt)-spend", subject: "s\(attempt)", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 100)
            .recordedAt("2026-03-05T00:00:00Z"))
      ]
      for i in 1..<batchLines {
        lines.append(
          EventLines.line(
            .purchase(id: "k\(attempt)-\(i)", subject: "s\(attempt)", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "k\(attempt)-\(i)")
              .recordedAt("2026-03-05T00:00:00Z").withMeta(["pad": pad])))
      }
      try space.write("batch.jsonl", lines.joined(separator: "\n") + "\n")
      let process = Process()
      process.executableURL = binary
      process.arguments = ["append", space.log, space.path("batch.jsonl")]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32.random(in: 0...40_000, using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .exit && process.terminationStatus == 0 { committed += 1 }
      // Readers see only whole batches, before and after repair.
      #expect(runCLI(["check", space.log]).status == 0, "attempt \(attempt): a reader saw part of a batch")
      #expect(runCLI(["repair", space.log]).status == 0)
      let text = String(decoding: try space.read(), as: UTF8.self)
      let count = text.split(separator: "\n").count
      #expect(count % batchLines == 0, "attempt \(attempt): \(count) lines is not whole batches")
      #expect(count / batchLines >= committed, "attempt \(attempt): an acknowledged batch was lost")
      attempt += 1
    }
    #expect(runCLI(["check", space.log]).status == 0)
  }
}
