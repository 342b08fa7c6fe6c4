import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A log in a temporary directory, its catalog, and a batch valid only as a whole.
private struct TwoNames {
  // The append-crash fixture's lines: a batch valid only as a whole, and a later, unrelated one.
  static let old = AppendFixture.oldLog
  static let batch = AppendFixture.batch
  static let later = AppendFixture.unrelated
  let space: Workspace
  let catalog: Catalog
  var real: String { space.log }
  var link: String { space.path("link.jsonl") }

  init() throws {
    space = try Workspace(log: Self.old)
    catalog = try StoreLedgerTestSupport.catalog(exampleCatalogText)
  }

  func text() throws -> String { String(decoding: try space.read(), as: UTF8.self) }

  func append(_ text: String, to path: String) throws(DiagnosticList) -> AppendReport {
    try LogAppender.append(input: Array(text.utf8), inputName: "batch", logPath: path, catalog: catalog, now: nil)
  }

  /// Appends `batch` through `path` with a crash planned after `after` bytes of the directory's writes.
  func crashingAppend(to path: String, after: Int) -> IOFault {
    let fault = IOFault(pathPrefix: space.directory.path + "/", failure: .crash, afterBytes: after)
    return IOFaults.with(fault) { _ = try? append(Self.batch, to: path) }.1
  }
}

@Suite("One log, one truth: recovery state belongs to the file, readers see only committed batches", .serialized)
struct OneLogOneTruthTests {
  @Test("an append through a symbolic link that dies mid-batch is rolled back through the real name")
  func symbolicLinkCrash() throws {
    var crashes = 0
    for after in stride(from: 0, to: 700, by: 7) {
      let fixture = try TwoNames()
      defer { try? FileManager.default.removeItem(at: fixture.space.directory) }
      try FileManager.default.createSymbolicLink(atPath: fixture.link, withDestinationPath: "log.jsonl")
      let fault = fixture.crashingAppend(to: fixture.link, after: after)
      guard fault.crashed else { break }
      crashes += 1
      // The record is found through the other name: repair leaves no part of the batch.
      _ = try LogRepair.repair(logPath: fixture.real)
      let repaired = try fixture.text()
      #expect(repaired == TwoNames.old || repaired == TwoNames.old + TwoNames.batch, "crash after \(after) bytes")
      _ = try fixture.append(TwoNames.later, to: fixture.real)
      let withLater = try fixture.text()
      // An append through the link (even an empty one) must not cut what was acknowledged.
      _ = try fixture.append("", to: fixture.link)
      #expect(try fixture.text() == withLater, "crash after \(after) bytes: the acknowledged append was lost")
      #expect(try fixture.text().hasSuffix(TwoNames.later))
    }
    #expect(crashes > 20, "the walk never crashed inside the batch")
  }

  @Test("a reader through a symbolic link sees the committed prefix of an append that died through the real name")
  func readerThroughLink() throws {
    let fixture = try TwoNames()
    defer { try? FileManager.default.removeItem(at: fixture.space.directory) }
    try FileManager.default.createSymbolicLink(atPath: fixture.link, withDestinationPath: "log.jsonl")
    // Past the intent record, inside the batch.
    let fault = fixture.crashingAppend(to: fixture.real, after: 400)
    #expect(fault.crashed)
    #expect(try fixture.text().count > TwoNames.old.count, "the crash left part of the batch")
    let (ledger, extent) = try LedgerLoader.load(logPath: fixture.link, catalog: fixture.catalog)
    #expect(ledger.events.count == TwoNames.old.split(separator: "\n").count)
    #expect(extent.completeBytes == Int64(TwoNames.old.utf8.count))
  }

  @Test("a log with two hard links is refused by every writer, naming the reason, and left unchanged")
  func hardLinkRefused() throws {
    let fixture = try TwoNames()
    defer { try? FileManager.default.removeItem(at: fixture.space.directory) }
    try FileManager.default.linkItem(atPath: fixture.real, toPath: fixture.link)
    for path in [fixture.real, fixture.link] {
      #expect {
        _ = try fixture.append(TwoNames.later, to: path)
      } throws: { error in
        guard let list = error as? DiagnosticList, case .logHasSeveralNames(2) = list.diagnostics.first?.problem else {
          return false
        }
        return list.exitCode == 65
      }
      #expect(throws: Diagnostic.self) { try LogRepair.repair(logPath: path) }
    }
    #expect(try fixture.text() == TwoNames.old)
    let result = runCLI(["append", fixture.link, "-"], stdin: TwoNames.later)
    #expect(result.status == 65)
    #expect(result.stderr.contains("2 names (hard links)"))
  }
}

@Suite("Intent records that do not describe the log never shorten what a reader sees", .serialized)
struct ForeignIntentTests {
  /// A record that describes `log`'s first `committed` bytes, written beside `beside`.
  private func plant(describing log: String, committed: Int64, batch: Int64, beside: String) throws {
    let file = try PlatformFile(path: log, mode: .read)
    let record = AppendIntent.Record(
      identity: try file.identityAndLinks().identity, committed: committed, batch: batch,
      tailDigest: try AppendIntent.tailDigest(of: file, committed: committed), batchDigest: "0000000000000000")
    try Data(AppendIntent.encode(record)).write(to: URL(fileURLWithPath: AppendIntent.path(forLog: beside)))
  }

  enum Mismatch: String, CaseIterable, CustomTestStringConvertible {
    case otherFile = "a record written for another file"
    case shorterLog = "a record whose committed length is past the log's end"
    case changedPrefix = "a record whose committed prefix is not the log's"
    case longerLog = "a record whose batch ends before the log does"
    var testDescription: String { rawValue }
  }

  /// Plants a record that does not fit the log at `space.log` in the way `mismatch` says.
  private func plant(_ mismatch: Mismatch, in space: Workspace) throws {
    let size = Int64(try space.read().count)
    switch mismatch {
    case .otherFile:
      try space.write("other.jsonl", String(decoding: try space.read(), as: UTF8.self))
      try plant(describing: space.path("other.jsonl"), committed: size - 40, batch: 40, beside: space.log)
    case .shorterLog:
      try space.write("other.jsonl", String(decoding: try space.read(), as: UTF8.self) + String(repeating: "x", count: 100))
      let file = try PlatformFile(path: space.log, mode: .read)
      let record = AppendIntent.Record(
        identity: try file.identityAndLinks().identity, committed: size + 50, batch: 10, tailDigest: "0000000000000000",
        batchDigest: "0000000000000000")
      try Data(AppendIntent.encode(record)).write(to: URL(fileURLWithPath: AppendIntent.path(forLog: space.log)))
    case .changedPrefix:
      let file = try PlatformFile(path: space.log, mode: .read)
      let record = AppendIntent.Record(
        identity: try file.identityAndLinks().identity, committed: size - 40, batch: 40, tailDigest: "0123456789abcdef",
        batchDigest: "0000000000000000")
      try Data(AppendIntent.encode(record)).write(to: URL(fileURLWithPath: AppendIntent.path(forLog: space.log)))
    case .longerLog:
      try plant(describing: space.log, committed: size - 200, batch: 10, beside: space.log)
    }
  }

  @Test("readers warn about the record and read the whole log; writers refuse with 65 naming it", arguments: Mismatch.allCases)
  func foreignRecord(mismatch: Mismatch) throws {
    let space = try Workspace(log: demoLogText())
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let before = try space.read()
    let full = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-05"])
    try plant(mismatch, in: space)
    let record = AppendIntent.path(forLog: space.log)
    let query = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-05"])
    #expect(query.status == 0)
    #expect(query.stdout == full.stdout, "\(mismatch): a reader answered from a prefix")
    #expect(query.stderr.contains("warning") && query.stderr.contains(record), "\(mismatch): \(query.stderr)")
    #expect(!query.stderr.contains("torn"))
    let check = runCLI(["check", space.log])
    #expect(check.status == 0 && check.stderr.contains(record))
    for command in [["append", space.log, "-"], ["repair", space.log]] {
      let refused = runCLI(command, stdin: "")
      #expect(refused.status == 65, "\(mismatch): \(command[0]) \(refused.stderr)")
      #expect(refused.stderr.contains(record) && refused.stderr.contains("--discard-intent"))
    }
    #expect(try space.read() == before, "\(mismatch): the log changed")
    let discarded = runCLI(["repair", space.log, "--discard-intent"])
    #expect(discarded.status == 0, "\(discarded.stderr)")
    #expect(PlatformFile.entryKind(record) == .missing)
    #expect(try space.read() == before)
  }

  @Test("generate --force over a log removes its recovery state, and repair never cuts the new log")
  func generateRemovesRecord() throws {
    let space = try Workspace(log: demoLogText())
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try plant(describing: space.log, committed: 100, batch: 50, beside: space.log)
    let generated = runCLI(["generate", "--subjects", "3", "--seed", "1", "--out", space.log, "--force"])
    #expect(generated.status == 0, "\(generated.stderr)")
    #expect(PlatformFile.entryKind(AppendIntent.path(forLog: space.log)) == .missing)
    let size = try space.read().count
    #expect(runCLI(["repair", space.log]).status == 0)
    #expect(try space.read().count == size)
  }
}

@Suite("Readers see exactly the committed prefix, never part of a batch", .serialized)
struct CommittedPrefixTests {
  /// A log whose last append died inside its batch: the intent record and part of the batch remain.
  private func crashedLog() throws -> (Workspace, committed: String) {
    let space = try Workspace(log: demoLogText())
    let catalog = try StoreLedgerTestSupport.catalog(exampleCatalogText)
    let batch = (0..<50).map { i in
      EventLines.line(.purchase(id: "x\(i)", subject: "z\(i)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "zt\(i)"))
    }.joined(separator: "\n") + "\n"
    let fault = IOFault(pathPrefix: space.directory.path + "/", failure: .crash, afterBytes: 2000)
    _ = IOFaults.with(fault) {
      _ = try? LogAppender.append(input: Array(batch.utf8), inputName: "b", logPath: space.log, catalog: catalog, now: nil)
    }
    return (space, demoLogText())
  }

  @Test("split, snapshot, report, audit and check after a crashed append see only the committed lines")
  func crashedBatchIsInvisible() throws {
    let (space, committed) = try crashedLog()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let committedLines = committed.split(separator: "\n").count
    #expect(try space.read().count > committed.utf8.count, "the crash left part of the batch in the file")
    let split = runCLI(["split", space.log, "--shards", "2", "--out", space.path("shards")])
    #expect(split.status == 0, "\(split.stderr)")
    let shardLines = try FileManager.default.contentsOfDirectory(atPath: space.path("shards"))
      .filter { $0.hasPrefix("shard-") }
      .map { try String(contentsOfFile: space.path("shards/" + $0), encoding: .utf8).split(separator: "\n").count }
      .reduce(0, +)
    #expect(shardLines == committedLines)
    let check = runCLI(["check", space.log])
    #expect(check.status == 0 && check.stdout.contains("\(committedLines) lines"), "\(check.stdout)")
    let snapshot = runCLI(["snapshot", space.log, "--out", space.path("s.snap")])
    #expect(snapshot.status == 0, "\(snapshot.stderr)")
    let whole = try Workspace(log: committed)
    defer { try? FileManager.default.removeItem(at: whole.directory) }
    let expected = runCLI(["report", whole.log, "--format", "json"])
    let report = runCLI(["report", space.log, "--format", "json"])
    #expect(report.stdout == expected.stdout.replacingOccurrences(of: whole.log, with: space.log))
    let queries = #"{"subject":"z1","at":"2026-03-02T00:00:00Z"}"#
    let audit = runCLI(["audit", space.log, "--queries", "-"], stdin: queries)
    #expect(audit.stdout.contains(#""entitlements":{}"#), "\(audit.stdout)")
  }

  @Test("a reader racing appends that commit while it reads sees whole batches only")
  func racingReaders() throws {
    let space = try Workspace(log: "")
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let catalog = try StoreLedgerTestSupport.catalog(exampleCatalogText)
    let batchLines = 40
    let rounds = 60
    let writer = Thread {
      for round in 0..<rounds {
        // A spend first, then the purchase that funds it: any part of a batch alone is invalid.
        var lines = [
          EventLines.line(.consumption(id: "r\(round)-spend", subject: "s\(round)", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 100))
        ]
        for i in 1..<batchLines {
          lines.append(
            EventLines.line(
              .purchase(id: "r\(round)-\(i)", subject: "s\(round)", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "r\(round)-t\(i)")))
        }
        _ = try? LogAppender.append(
          input: Array((lines.joined(separator: "\n") + "\n").utf8), inputName: "b", logPath: space.log, catalog: catalog, now: nil)
      }
    }
    writer.start()
    var reads = 0
    while !writer.isFinished || reads < 5 {
      let (ledger, extent) = try LedgerLoader.load(logPath: space.log, catalog: catalog)
      #expect(extent.lineCount % batchLines == 0, "a reader saw \(extent.lineCount) lines")
      #expect(ledger.events.count % batchLines == 0)
      let split = runCLI(["split", space.log, "--catalog", space.path("catalog.json"), "--shards", "1", "--out", space.path("s"), "--force"])
      let shard = try String(contentsOfFile: space.path("s/shard-00-of-01.jsonl"), encoding: .utf8)
      #expect(split.status == 0 && shard.split(separator: "\n").count % batchLines == 0)
      reads += 1
    }
    #expect(reads >= 5)
  }
}

@Suite("A last line saved without its newline is a line like any other (contract v1.2 §1)")
struct MissingNewlineTests {
  static let purchase = EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"))
  static let refund = EventLines.line(.revocation(id: "r1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1", reason: .refund))

  @Test("a refund on the last line without a newline counts, check is ok, repair leaves it")
  func completeLastLineCounts() throws {
    let space = try Workspace(log: Self.purchase + "\n" + Self.refund)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let query = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-03"])
    #expect(query.status == 0 && query.stdout.contains(#""entitlements":{}"#), "\(query.stdout)")
    #expect(!query.stderr.contains("torn"))
    let check = runCLI(["check", space.log])
    #expect(check.status == 0 && check.stdout.contains("2 events"), "\(check.stdout)")
    let repair = runCLI(["repair", space.log])
    #expect(repair.status == 0)
    #expect(PlatformFile.entryKind(space.log + ".torn") == .missing)
    #expect(String(decoding: try space.read(), as: UTF8.self) == Self.purchase + "\n" + Self.refund)
  }

  @Test("append writes the missing newline before its batch")
  func appendAddsNewline() throws {
    let space = try Workspace(log: Self.purchase)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["append", space.log, "-", "--recorded-as-at"], stdin: Self.refund + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(String(decoding: try space.read(), as: UTF8.self) == Self.purchase + "\n" + Self.refund + "\n")
  }

  @Test("an invalid complete last line is an error, and a JSON array on one line gets the JSON Lines hint")
  func invalidLastLine() throws {
    let space = try Workspace(log: Self.purchase + "\n" + #"{"id":"x","type":"purchse"}"#)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let check = runCLI(["check", space.log])
    #expect(check.status == 65 && check.stderr.contains(":2: error"), "\(check.stderr)")
    try space.write("log.jsonl", "[" + Self.purchase + "]")
    let array = runCLI(["check", space.log])
    #expect(array.status == 65 && array.stderr.contains("JSON Lines"), "\(array.stderr)")
  }

  @Test("a last line cut inside a string or object is still a torn write", arguments: [
    #"{"id":"p2","type":"purch"#, #"{"id":"p2","meta":{"a":1}"#, #"{"id":"p2\"}"#,
  ])
  func tornIsTorn(tail: String) throws {
    let space = try Workspace(log: Self.purchase + "\n" + tail)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let check = runCLI(["check", space.log])
    #expect(check.status == 0 && check.stderr.contains("torn"), "\(check.stderr)")
    #expect(runCLI(["append", space.log, "-"], stdin: Self.refund).status == 65)
  }
}

@Suite("Writers wait for the lock with a limit; readers never wait", .serialized)
struct LockWaitTests {
  @Test("a held lock makes append exit 75 after --wait, naming the holder, while query answers at once")
  func heldLock() throws {
    let space = try Workspace(log: demoLogText())
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let holder = try PlatformFile(path: space.log, mode: .readWriteCreate)
    try LogLock.acquire(holder, logPath: space.log, command: "append", wait: .standard, notice: nil)
    defer { LogLock.release(holder, logPath: space.log) }
    let binary = try storeledgerBinary()
    let started = Date()
    let query = try runProcess(binary.path, ["query", space.log, "--subject", "u1", "--at", "2026-03-05"])
    #expect(query.status == 0)
    #expect(Date().timeIntervalSince(started) < 5, "a reader waited for the writer's lock")
    let appendStarted = Date()
    let append = try runProcess(binary.path, ["append", space.log, "-", "--wait", "1.5"], stdin: "")
    let waited = Date().timeIntervalSince(appendStarted)
    #expect(append.status == 75, "\(append.stderr)")
    #expect(waited >= 1.4 && waited < 10)
    #expect(append.stderr.contains("waiting for the lock") && append.stderr.contains("pid \(getpid())"), "\(append.stderr)")
    let repair = try runProcess(binary.path, ["repair", space.log, "--wait", "0"])
    #expect(repair.status == 75)
  }

  @Test("a stopped appender (SIGSTOP) holding the lock blocks no reader, and writers give up with 75")
  func stoppedAppender() throws {
    let space = try Workspace(log: demoLogText())
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let binary = try storeledgerBinary()
    // A real appender with a large batch, stopped while it holds the lock (it takes the lock
    // before validating, which takes a while for 20,000 lines).
    let lines = (0..<20_000).map { i in
      EventLines.line(.purchase(id: "big\(i)", subject: "b\(i)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "bt\(i)"))
    }
    try space.write("batch.jsonl", lines.joined(separator: "\n") + "\n")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["append", space.log, space.path("batch.jsonl")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait until it holds the lock (its holder record appears), then stop it.
    let holderRecord = LogLock.holderPath(forLog: space.log)
    let deadline = Date().addingTimeInterval(20)
    while PlatformFile.entryKind(holderRecord) == .missing && Date() < deadline && process.isRunning { usleep(200) }
    kill(process.processIdentifier, SIGSTOP)
    defer {
      kill(process.processIdentifier, SIGCONT)
      process.waitUntilExit()
    }
    guard PlatformFile.entryKind(holderRecord) == .regular else {
      Issue.record("the appender finished before it could be stopped")
      return
    }
    let started = Date()
    let query = try runProcess(binary.path, ["query", space.log, "--subject", "u1", "--at", "2026-03-05"])
    #expect(query.status == 0)
    #expect(Date().timeIntervalSince(started) < 5)
    let append = try runProcess(binary.path, ["append", space.log, "-", "--wait", "1"], stdin: "")
    #expect(append.status == 75)
    #expect(append.stderr.contains("pid \(process.processIdentifier)"), "\(append.stderr)")
  }
}

@Suite("Exit statuses tell the truth about the log", .serialized)
struct HonestExitTests {
  @Test("append whose summary cannot be printed after the commit exits 0 with a warning, and the batch is there")
  func committedThenStdoutFails() throws {
    let space = try Workspace(log: demoLogText())
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let binary = try storeledgerBinary()
    let line = EventLines.line(.purchase(id: "late1", subject: "w", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "wt1"))
    let result = try runProcess(binary.path, ["append", space.log, "-"], stdin: line + "\n", stdoutPath: "/dev/full")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning") && result.stderr.contains("committed"))
    #expect(String(decoding: try space.read(), as: UTF8.self).contains("late1"))
  }

  @Test("writers under ulimit -f exit 74 and leave no temporary file, intent record or partial log")
  func fileSizeLimit() throws {
    let space = try Workspace(log: demoLogText())
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let binary = try storeledgerBinary()
    let before = try space.read()
    let lines = (0..<3000).map { i in
      EventLines.line(.purchase(id: "u\(i)", subject: "b\(i)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "ut\(i)"))
    }
    try space.write("batch.jsonl", lines.joined(separator: "\n") + "\n")
    // 64 blocks of 512 bytes: the log may grow a little, the batch does not fit.
    let limit = "ulimit -f \(before.count / 512 + 8); "
    let append = try runProcess("/bin/sh", ["-c", limit + "exec \"$0\" append \"$1\" \"$2\"", binary.path, space.log, space.path("batch.jsonl")])
    #expect(append.status == 74, "\(append.stderr)")
    #expect(try space.read() == before)
    #expect(PlatformFile.entryKind(AppendIntent.path(forLog: space.log)) == .missing)
    try FileManager.default.createDirectory(atPath: space.path("gen"), withIntermediateDirectories: false)
    let generate = try runProcess(
      "/bin/sh", ["-c", "ulimit -f 16; exec \"$0\" generate --subjects 2000 --seed 3 --out \"$1\"", binary.path, space.path("gen/g.jsonl")])
    #expect(generate.status == 74, "\(generate.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: space.path("gen"))
    #expect(!left.contains { $0.contains(".tmp-") || $0 == "g.jsonl" }, "\(left)")
  }

  @Test("repair refuses a LOG.torn that is a symbolic link and leaves its target alone")
  func symlinkedTorn() throws {
    let space = try Workspace(log: MissingNewlineTests.purchase + "\n" + #"{"id":"cut"#)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try space.write("victim.json", "{}\n")
    try FileManager.default.createSymbolicLink(atPath: space.log + ".torn", withDestinationPath: space.path("victim.json"))
    let before = try space.read()
    let repair = runCLI(["repair", space.log])
    #expect(repair.status == 74, "\(repair.stderr)")
    #expect(repair.stderr.contains("symbolic link"))
    #expect(try space.read("victim.json") == Data("{}\n".utf8))
    #expect(try space.read() == before)
  }
}

/// The demo log of Events/ (u1's monthly plan, renewed and refunded), as text.
func demoLogText() -> String {
  (try? String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)) ?? ""
}
