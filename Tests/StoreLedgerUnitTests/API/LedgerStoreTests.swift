import Dispatch
import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The engine's answer for the same question, from a ledger loaded in one go.
private func freshHoldings(_ ledger: Ledger, _ subject: String, _ at: Timestamp, _ asOf: Timestamp?) -> Holdings {
  var engine = QueryEngine(ledger: ledger)
  return engine.answer(subject: subject, at: at, asOf: asOf)
}

/// A directory with the Events catalog and a log holding `lines`.
private func scratchLog(_ lines: [String]) throws -> (directory: URL, log: String) {
  let directory = try temporaryDirectory()
  try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
  let log = directory.appendingPathComponent("log.jsonl").path
  try lines.map { $0 + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
  return (directory, log)
}

private func bytes(_ lines: ArraySlice<String>) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

@Suite("LedgerStore: the library API")
struct LedgerStoreTests {
  @Test(
    "an open ledger fed in small batches, some by another writer, answers like a fresh load of the log",
    arguments: [(UInt64(1), 4096), (2, 4096), (3, 8), (4, 0)])
  func batchesMatchFreshLoad(seed: UInt64, compactionFloor: Int) throws {
    let random = RandomLog(seed: seed, subjects: 12, eventsPerSubject: 30)
    let (directory, log) = try scratchLog(Array(random.lines.prefix(random.lines.count / 3)))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log)
    store.state.compactionFloor = compactionFloor
    var generator = SeededGenerator(seed: seed)
    var next = random.lines.count / 3
    var batch = 0
    while next < random.lines.count {
      let end = min(random.lines.count, next + Int.random(in: 1...6, using: &generator))
      batch += 1
      if batch % 3 == 0 {
        // Another process appends: the store must read these lines before its next append.
        _ = try LogAppender.append(
          input: bytes(random.lines[next..<end]), inputName: "other", logPath: log, catalog: store.catalog, now: nil)
        if batch % 2 == 0 { try store.refresh() }
      } else {
        let report = try store.append(lines: bytes(random.lines[next..<end]), named: "batch", now: nil)
        #expect(report.appended == end - next)
      }
      next = end
    }
    try store.refresh()
    let fresh = try LedgerLoader.load(logPath: log, catalog: store.catalog).ledger
    #expect(store.eventCount == fresh.events.count)
    for (subject, at, asOf) in random.queries(count: 300, seed: seed) {
      let expected = freshHoldings(fresh, subject, at, asOf)
      #expect(store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf) == expected)
    }
  }

  @Test("a ledger opened from a snapshot and the log's tail appends and answers like a fresh load")
  func openedFromSnapshot() throws {
    let random = RandomLog(seed: 21, subjects: 8, eventsPerSubject: 30)
    let half = random.lines.count / 2
    let (directory, log) = try scratchLog(Array(random.lines.prefix(half)))
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalogPath = directory.appendingPathComponent("catalog.json").path
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (prefix, extent) = try LedgerLoader.load(logPath: log, catalog: catalog)
    let header = try SnapshotFiles.header(for: prefix, extent: extent, logPath: log, catalogPath: catalogPath)
    let snapshot = directory.appendingPathComponent("log.snapshot.json").path
    try SnapshotFiles.write(SnapshotWriter.write(prefix, header: header), to: snapshot)
    // A tail the snapshot does not cover, then the rest through the open ledger.
    let tailEnd = half + (random.lines.count - half) / 2
    _ = try LogAppender.append(
      input: bytes(random.lines[half..<tailEnd]), inputName: "tail", logPath: log, catalog: catalog, now: nil)
    let store = try LedgerStore(logPath: log, snapshotPath: snapshot)
    for start in stride(from: tailEnd, to: random.lines.count, by: 7) {
      _ = try store.append(lines: bytes(random.lines[start..<min(random.lines.count, start + 7)]), named: "batch", now: nil)
    }
    let fresh = try LedgerLoader.load(logPath: log, catalog: catalog).ledger
    #expect(store.eventCount == random.lines.count)
    for (subject, at, asOf) in random.queries(count: 200, seed: 21) {
      #expect(store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf) == freshHoldings(fresh, subject, at, asOf))
    }
  }

  @Test("a log truncated behind an open ledger is refused with exit 65 and left as it is")
  func truncatedBehindTheLedger() throws {
    let lines = RandomLog(seed: 9, subjects: 2, eventsPerSubject: 6).lines
    let (directory, log) = try scratchLog(lines)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log)
    try lines.prefix(3).map { $0 + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    let shortened = try Data(contentsOf: URL(fileURLWithPath: log))
    #expect {
      try store.refresh()
    } throws: { error in
      let first = (error as? DiagnosticList)?.diagnostics.first
      return first?.exitCode == 65 && first?.problem == .logShrank(bytes: Int64(shortened.count), known: Int64(
        lines.map { $0.utf8.count + 1 }.reduce(0, +)))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == shortened)
    #expect(store.eventCount == lines.count)
  }

  @Test("appending events the log already holds writes nothing and reports them as duplicates")
  func reappendIsNoOp() throws {
    let lines = RandomLog(seed: 7, subjects: 3, eventsPerSubject: 10).lines
    let (directory, log) = try scratchLog(lines)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log)
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    let report = try store.append(lines: bytes(lines[3..<8]), named: "again", now: nil)
    #expect(report == AppendReport(appended: 0, duplicates: 5, stamped: 0))
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    #expect(store.eventCount == lines.count)
  }

  @Test("a batch is checked against the subjects it names, holds ids of, and charges transactions of")
  func involvedSubjects() throws {
    let (directory, log) = try scratchLog(try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log)
    // e1 is u1's purchase: the same id for u3 is a conflict.
    let conflict = EventLines.line(.consumption(id: "e1", subject: "u3", at: ts("2026-03-10T00:00:00Z"), currency: "coins", quantity: 1))
    // u1-t1 was charged by u1's purchase: u2 cannot be charged it again.
    let reuse = EventLines.line(.purchase(id: "n2", subject: "u2", at: ts("2026-03-10T00:00:00Z"), product: "coins.100", transaction: "u1-t1"))
    for line in [conflict, reuse] {
      #expect(throws: DiagnosticList.self) { _ = try store.append(lines: Array((line + "\n").utf8), named: "input", now: nil) }
    }
    // u3 holds 170 coins: spending 100 (on a line ending in spaces and CR) is covered by its history.
    let spend = EventLines.line(.consumption(id: "n3", subject: "u3", at: ts("2026-03-10T00:00:00Z"), currency: "coins", quantity: 100))
    #expect(try store.append(lines: Array((spend + " \r\n").utf8), named: "input", now: nil).appended == 1)
    #expect(store.answer(for: "u3", at: ts("2026-03-11T00:00:00Z")).balances == ["coins": 70])
    #expect(store.eventCount == 8)
  }

  @Test(
    "a clock outside the times a log can hold is refused for each line it would stamp, the log unchanged; a line with its own recorded still lands",
    arguments: [Timestamp.distantFuture, Timestamp(millisecondsSinceEpoch: 300_000_000_000_000), Timestamp(millisecondsSinceEpoch: -62_167_219_200_001)])
  func unreadableClock(_ clock: Timestamp) throws {
    let (directory, log) = try scratchLog(try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log, clock: .fixed(clock))
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    let at = ts("2026-03-15T00:00:00Z")
    var spend = NewEvent(id: "n1", kind: .consumption, subject: "u3", at: at)
    spend.currency = "coins"
    spend.quantity = 10
    #expect {
      _ = try store.append([spend])
    } throws: { error in
      let first = (error as? DiagnosticList)?.diagnostics.first
      return first?.line == 1
        && "\(first!)".contains("field 'recorded': expected \(TimeInput.rangeDescription), found the append's clock, \(clock.millisecondsSinceEpoch) ms after 1970")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    spend.recorded = at
    #expect(try store.append([spend]) == AppendReport(appended: 1, duplicates: 0, stamped: 0))
    // The log still loads as a whole.
    #expect(try LedgerStore(logPath: log).eventCount == store.eventCount)
  }

  @Test("a bad event names its position in the batch and leaves the log and the answers unchanged")
  func badBatchChangesNothing() throws {
    let (directory, log) = try scratchLog(try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init))
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log)
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    let at = ts("2026-03-15T00:00:00Z")
    let answer = store.answer(for: "u3", at: at)
    var good = NewEvent(id: "n1", kind: .consumption, subject: "u3", at: at)
    good.currency = "coins"
    good.quantity = 10
    var overdraw = good
    overdraw.id = "n2"
    overdraw.quantity = 1_000_000
    #expect {
      _ = try store.append([good, overdraw])
    } throws: { error in
      let first = (error as? DiagnosticList)?.diagnostics.first
      return first?.file == "<events>" && first?.line == 2 && "\(first!)".contains("overdraw")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    #expect(store.answer(for: "u3", at: at) == answer)
    let report = try store.append([good])
    #expect(report == AppendReport(appended: 1, duplicates: 0, stamped: 1))
    #expect(store.answer(for: "u3", at: at).balances["coins"] == answer.balances["coins"]! - 10)
  }

  @Test("holdings encode as the CLI answer (log names, snake_case, RFC 3339 times) and decode to an equal value")
  func holdingsAreCodable() throws {
    let store = try LedgerStore(logPath: repoPath("Events/demo.jsonl"))
    let holdings = store.answer(for: "u1", at: ts("2026-03-15T00:00:00Z"), asOf: ts("2026-04-01T00:00:00Z"))
    #expect(holdings.has("pro"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(holdings)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""state":"active""#) && text.contains(#""as_of":"2026-04-01T00:00:00Z""#))
    #expect(try JSONDecoder().decode(Holdings.self, from: data) == holdings)
  }

  @Test("concurrent answers during appends see whole batches and end like a fresh load")
  func concurrentAnswersAndAppends() throws {
    let random = RandomLog(seed: 11, subjects: 8, eventsPerSubject: 30)
    let (directory, log) = try scratchLog([])
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LedgerStore(logPath: log)
    store.state.compactionFloor = 16
    let lines = random.lines
    let queries = random.queries(count: 200, seed: 11)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      if worker == 0 {
        for start in stride(from: 0, to: lines.count, by: 5) {
          _ = try? store.append(lines: bytes(lines[start..<min(lines.count, start + 5)]), named: "batch", now: nil)
        }
      } else {
        for (subject, at, asOf) in queries { _ = store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf) }
      }
    }
    let fresh = try LedgerLoader.load(logPath: log, catalog: store.catalog).ledger
    #expect(fresh.events.count == lines.count)
    for (subject, at, asOf) in queries {
      #expect(store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf) == freshHoldings(fresh, subject, at, asOf))
    }
  }
}
