import Dispatch
import Foundation
import StoreLedger

// StoreLedgerLibraryBench LOG [APPENDS]: appends and answers per second of an open
// LedgerStore on 1 and 2 threads, and the longest any reader waited while appends ran
// (compactions included). Works on a copy of LOG and its catalog.json in a temporary
// directory. Build with -c release; Docs/library.md gives the command and the figures.

/// The subjects of the log and what the benchmark appends for them.
struct Workload: Sendable {
  let store: LedgerStore
  let subjects: [SubjectID]
  /// The latest effective time in the log: appends and answers happen then.
  let latest: Timestamp

  /// A one-event append: a consumable bought by an existing subject (new id and transaction).
  func purchase(_ n: Int) -> NewEvent {
    .purchase(
      id: "bench-\(n)", subject: subjects[n * 7919 % subjects.count], at: latest, product: "coins.100",
      transaction: "bench-t\(n)")
  }
}

/// Wall-clock seconds of `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// One-event appends per second, `count` of them spread over `threads`.
func appendRate(_ work: Workload, threads: Int, first: Int, count: Int) -> Double {
  Double(count)
    / seconds {
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for i in stride(from: thread, to: count, by: threads) { _ = try! work.store.append([work.purchase(first + i)]) }
      }
    }
}

/// Answers per second, `count` of them spread over `threads`.
func answerRate(_ work: Workload, threads: Int, count: Int) -> Double {
  Double(count)
    / seconds {
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var held = 0
        for i in stride(from: thread, to: count, by: threads) {
          held += work.store.answer(for: work.subjects[i * 104_729 % work.subjects.count], at: work.latest).entitlements.count
        }
        precondition(held >= 0)
      }
    }
}

/// What the reader thread saw.
final class Pauses: @unchecked Sendable {
  var worstNanoseconds: UInt64 = 0
  /// Answers that took more than 10 ms and more than 100 ms.
  var over10ms = 0
  var over100ms = 0
  var answers = 0
  var stop = false
}

func run() throws {
  let arguments = CommandLine.arguments
  guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StoreLedgerLibraryBench LOG [APPENDS]\n".utf8))
    exit(64)
  }
  let source = URL(fileURLWithPath: arguments[1])
  let appendCount = arguments.count > 2 ? Int(arguments[2])! : 2000
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeledger-library-bench-\(UUID())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  for name in [source.lastPathComponent, "catalog.json"] {
    try FileManager.default.copyItem(
      at: source.deletingLastPathComponent().appendingPathComponent(name), to: directory.appendingPathComponent(name))
  }
  let log = directory.appendingPathComponent(source.lastPathComponent).path
  var opened: LedgerStore? = nil
  let openSeconds = try seconds { opened = try LedgerStore(logPath: log) }
  var subjects: [SubjectID] = []
  var seen = Set<String>()
  var latest = Timestamp(millisecondsSinceEpoch: 0)
  for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
    guard let event = try? JSONDecoder().decode(NewEvent.self, from: Data(line.utf8)) else { continue }
    if seen.insert(event.subject.rawValue).inserted { subjects.append(event.subject) }
    latest = max(latest, event.at)
  }
  let work = Workload(store: opened!, subjects: subjects, latest: latest)
  print("log: \(work.store.eventCount) events, \(subjects.count) subjects, opened in \(String(format: "%.2f", openSeconds)) s")

  let half = appendCount / 2
  print(
    String(
      format: "appends/s, 1 event each: %.0f on 1 thread, %.0f on 2 threads",
      appendRate(work, threads: 1, first: 0, count: half), appendRate(work, threads: 2, first: half, count: half)))
  // The CPU cost of an append without the disk: an in-memory ledger, one event per call.
  let memory = LedgerStore(inMemory: try LedgerCatalog(contentsOfFile: directory.appendingPathComponent("catalog.json").path))
  let memoryAppends = 5000
  let memorySeconds = seconds {
    for n in 0..<memoryAppends {
      _ = try! memory.append([
        .purchase(id: "m-\(n)", subject: "m-\(n % 500)", at: latest, product: "coins.100", transaction: "mt-\(n)")
      ])
    }
  }
  print(String(format: "in-memory appends/s, 1 event each (no disk): %.0f", Double(memoryAppends) / memorySeconds))
  let answers = max(200_000, subjects.count)
  print(
    String(
      format: "answers/s: %.0f on 1 thread, %.0f on 2 threads",
      answerRate(work, threads: 1, count: answers), answerRate(work, threads: 2, count: answers)))

  // fsyncs of the same disk, the floor under every durable append.
  let probe = directory.appendingPathComponent("fsync-probe").path
  _ = FileManager.default.createFile(atPath: probe, contents: nil)
  let handle = FileHandle(forWritingAtPath: probe)!
  let syncs = 200
  let syncSeconds = try seconds {
    for _ in 0..<syncs {
      try handle.write(contentsOf: Data("x\n".utf8))
      try handle.synchronize()
    }
  }
  try handle.close()
  print(String(format: "baseline: %.0f write+fsync per second on the same disk (an append makes four)", Double(syncs) / syncSeconds))

  // Reader pauses: one thread answers without stop, first alone, then while 100-event
  // batches re-fold enough subjects that superseded events outnumber live ones (a
  // compaction), with compaction beside the readers and then under the lock (the baseline).
  var next = appendCount
  func readerPauses(_ label: String, appending: Bool) throws {
    let pauses = Pauses()
    let reader = Thread {
      while !pauses.stop {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = work.store.answer(for: work.subjects[pauses.answers % work.subjects.count], at: work.latest)
        let took = DispatchTime.now().uptimeNanoseconds - start
        pauses.worstNanoseconds = max(pauses.worstNanoseconds, took)
        if took > 10_000_000 { pauses.over10ms += 1 }
        if took > 100_000_000 { pauses.over100ms += 1 }
        pauses.answers += 1
      }
    }
    reader.start()
    work.store.longestWriteNanoseconds = 0
    let live = work.store.eventCount
    let perSubject = max(1, live / work.subjects.count)
    var worstAppend = 0.0
    var batches = 0
    let elapsed = try seconds {
      if !appending {
        usleep(10_000_000)
        return
      }
      while batches * 100 * perSubject < live + live / 5 {
        let batch = (0..<100).map { work.purchase(next + $0) }
        next += 100
        worstAppend = max(worstAppend, try seconds { _ = try work.store.append(batch) })
        batches += 1
      }
    }
    pauses.stop = true
    while !reader.isFinished { usleep(1000) }
    print(
      String(
        format: "%@: %d appends of 100 events in %.1f s (slowest %.0f ms, write lock held at most %.1f ms); %d answers, the slowest %.1f ms, %d over 10 ms, %d over 100 ms",
        label, batches, elapsed, worstAppend * 1000, Double(work.store.longestWriteNanoseconds) / 1e6, pauses.answers,
        Double(pauses.worstNanoseconds) / 1e6, pauses.over10ms, pauses.over100ms))
  }
  try readerPauses("reader alone (baseline)", appending: false)
  try readerPauses("compaction beside the readers", appending: true)
  work.store.compactsBesideReaders = false
  try readerPauses("compaction under the lock (baseline)", appending: true)
}

try run()
