import Foundation
import StoreLedger

/// `storeledger-bench --appends LOG [COUNT]`: appends per second through an open `LedgerStore`
/// against `LogAppender.append` (the CLI's `append`, which re-reads the whole log), on a copy of LOG.
///
/// Each append is one `purchase` of `coins.100` by a subject already in the log, so it
/// is checked against that subject's events; then batches of 100 such events; then answers.
enum AppendRate {
  /// Runs the measurement and prints it; returns the exit code.
  static func run(logPath: String, count: Int) -> Int32 {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeledger-appends-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let log = directory.appendingPathComponent("log.jsonl").path
      try FileManager.default.copyItem(atPath: logPath, toPath: log)
      try FileManager.default.copyItem(
        atPath: LedgerLoader.defaultCatalogPath(forLog: logPath), toPath: LedgerLoader.defaultCatalogPath(forLog: log))
      let subjects = try firstSubjects(of: logPath, count: 1000)
      var next = 0
      func line() -> [UInt8] {
        next += 1
        return purchaseLine(next, subject: subjects[next % subjects.count])
      }
      let catalog = try LedgerLoader.loadCatalog(path: LedgerLoader.defaultCatalogPath(forLog: log))
      var baseline: [Double] = []
      for _ in 0..<3 {
        let input = line()
        baseline.append(
          try seconds {
            _ = try LogAppender.append(input: input, inputName: "bench", logPath: log, catalog: catalog, now: nil)
          })
      }
      var store: LedgerStore! = nil
      let open = try seconds { store = try LedgerStore(logPath: log) }
      let singles = try seconds {
        for _ in 0..<count { _ = try store.append(lines: line(), named: "bench", now: nil) }
      }
      let batches = try seconds {
        for _ in 0..<20 { _ = try store.append(lines: (0..<100).flatMap { _ in line() }, named: "bench", now: nil) }
      }
      // The open ledger must agree with a fresh load of what it wrote.
      let fresh = try LedgerLoader.load(logPath: log, catalog: catalog).ledger
      var agrees = store.eventCount == fresh.events.count
      var engine = QueryEngine(ledger: fresh)
      let at = Timestamp(millisecondsSinceEpoch: 1_800_000_000_000)
      for subject in subjects.prefix(200) {
        agrees = agrees
          && store.answer(for: SubjectID(rawValue: subject), at: at).balances["coins"]
            == engine.answer(subject: subject, at: at, asOf: nil).balances["coins"]
      }
      let questions = 100_000
      let answering = seconds {
        for index in 0..<questions {
          _ = store.answer(for: SubjectID(rawValue: subjects[index % subjects.count]), at: at)
        }
      }
      let median = baseline.sorted()[1]
      say("log: \(logPath) (\(fresh.events.count) events after the run)")
      say("CLI append path (LogAppender.append, re-reads the log): median \(Format.seconds(median)) per 1-event append, \(Format.fixed(1 / median, 2)) appends/s")
      say("LedgerStore open: \(Format.seconds(open))")
      say("LedgerStore.append, \(count) appends of 1 event: \(Format.fixed(Double(count) / singles, 0)) appends/s (\(Format.fixed(singles / Double(count) * 1000, 3)) ms each)")
      say("LedgerStore.append, 20 appends of 100 events: \(Format.fixed(20 / batches, 0)) appends/s, \(Format.fixed(2000 / batches, 0)) events/s")
      say("LedgerStore.answer, \(questions) questions on one thread: \(Format.fixed(Double(questions) / answering, 0)) answers/s")
      say("open ledger agrees with a fresh load: \(agrees ? "yes" : "NO")")
      return agrees ? 0 : 1
    } catch {
      say("storeledger-bench: error: \(error)")
      return 1
    }
  }

  /// The `next`th appended line: one `coins.100` purchase by `subject`, a second after the last.
  private static func purchaseLine(_ next: Int, subject: String) -> [UInt8] {
    let at = Timestamp(millisecondsSinceEpoch: 1_735_689_600_000 + Int64(next) * 1000).rfc3339
    return Array(
      #"{"id":"bench-\#(next)","type":"purchase","subject":"\#(subject)","at":"\#(at)","product":"coins.100","transaction":"bench-tx-\#(next)","quantity":1}"#
        .utf8) + [10]
  }

  /// Seconds `body` took.
  private static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanos()
    try body()
    return Double(monotonicNanos() - start) / 1e9
  }

  /// Distinct subjects from the start of the log.
  private static func firstSubjects(of path: String, count: Int) throws -> [String] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let text = String(decoding: try handle.read(upToCount: 1 << 20) ?? Data(), as: UTF8.self)
    var seen: [String] = []
    var found = Set<String>()
    for piece in text.components(separatedBy: #""subject":""#).dropFirst() {
      let subject = String(piece.prefix { $0 != "\"" })
      if found.insert(subject).inserted { seen.append(subject) }
      if seen.count == count { break }
    }
    return seen
  }
}
