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
  let answers = max(200_000, subjects.count)
  print(
    String(
      format: "answers/s: %.0f on 1 thread, %.0f on 2 threads",
      answerRate(work, threads: 1, count: answers), answerRate(work, threads: 2, count: answers)))

  // Reader pauses: one thread answers without stop while 100-event batches re-fold enough
  // subjects that superseded events outnumber live ones twice over, so compactions run.
  let pauses = Pauses()
  let reader = Thread {
    while !pauses.stop {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = work.store.answer(for: work.subjects[pauses.answers % work.subjects.count], at: work.latest)
      pauses.worstNanoseconds = max(pauses.worstNanoseconds, DispatchTime.now().uptimeNanoseconds - start)
      pauses.answers += 1
    }
  }
  reader.start()
  let live = work.store.eventCount
  let perSubject = max(1, live / subjects.count)
  var worstAppend = 0.0
  var batches = 0
  var next = appendCount
  let churn = try seconds {
    while batches * 100 * perSubject < 2 * live {
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
      format: "during %d appends of 100 events (%.1f s; slowest append %.0f ms, compactions included): %d answers, the slowest %.1f ms",
      batches, churn, worstAppend * 1000, pauses.answers, Double(pauses.worstNanoseconds) / 1e6))
}

try run()
