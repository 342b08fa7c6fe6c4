import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// An open store's imports learn what the log knows from the lines committed since its last
/// import (`LogPrefix`), not from the whole log each time; and they answer as a store reading
/// the whole log would, also when the log was replaced or edited where the last read ended.
@Suite("An open store's import reads only the log's lines committed since its last import")
struct StoreImportReadTests {
  static let options = StoreImportOptions(appStoreVerification: .skip)

  static func payloads(_ source: String) throws -> String {
    try String(
      contentsOfFile: repoPath(source == "appstore" ? "Events/appstore/notifications.jsonl" : "Events/googleplay/export.jsonl"),
      encoding: .utf8)
  }

  static func open(_ log: String, _ source: String) throws -> LedgerStore {
    try LedgerStore(
      logPath: log, catalog: try LedgerCatalog(contentsOfFile: repoPath("Events/\(source)/catalog.json")),
      createIfMissing: true, clock: .fixed(ts("2026-01-06T00:00:00Z")))
  }

  /// An import of the samples, with the log lines it read and the lines of them it read into
  /// typed events to learn from.
  static func importing(
    _ store: LedgerStore, _ source: String
  ) throws -> (report: ImportReport, linesRead: Int, linesLearned: Int) {
    let text = try payloads(source)
    let (report, read, learned) = try LineParses.countingLogLines {
      source == "appstore"
        ? try store.importAppStore(text, options: options) : try store.importGooglePlay(text, options: options)
    }
    return (report, read, learned)
  }

  static func lineCount(_ log: String) throws -> Int {
    try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
  }

  /// A store on a new log in a directory of its own, after two imports of the App Store samples:
  /// what it learned reaches the log's end.
  static func importedTwice() throws -> (directory: URL, log: String, store: LedgerStore) {
    let directory = try temporaryDirectory()
    let log = directory.appendingPathComponent("log.jsonl").path
    let store = try open(log, "appstore")
    _ = try importing(store, "appstore")
    _ = try importing(store, "appstore")
    return (directory, log, store)
  }

  @Test("imports again read only what was committed since, and know what a fresh store knows", arguments: ["appstore", "googleplay"])
  func readsTheTail(source: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("log.jsonl").path
    let store = try Self.open(log, source)
    let first = try Self.importing(store, source)
    #expect(first.report.append.appended > 0)
    #expect(first.linesRead == 0)
    let lines = try Self.lineCount(log)
    // The first import's own lines are new to the knowledge, then nothing is.
    let second = try Self.importing(store, source)
    #expect(second.linesRead == lines)
    // Every line is an imported event, read into its typed event once.
    #expect(second.linesLearned == lines)
    let third = try Self.importing(store, source)
    #expect(third.linesRead == 0 && third.linesLearned == 0)
    // A store that reads the whole log knows the same: nothing is imported again.
    let fresh = try Self.importing(try Self.open(log, source), source)
    #expect(fresh.linesRead == lines && fresh.linesLearned == lines)
    for again in [second, third, fresh] {
      #expect(again.report.events == 0)
      #expect(again.report.append.appended == 0)
      #expect(again.report.skipped == fresh.report.skipped)
    }
    #expect(try Self.lineCount(log) == lines)
  }

  @Test("a line another writer appended is read, and only it")
  func readsAnotherWritersLine() throws {
    let (directory, log, store) = try Self.importedTwice()
    defer { try? FileManager.default.removeItem(at: directory) }
    let other = try Self.open(log, "appstore")
    _ = try other.append([.grant(id: "g1", subject: "someone", at: ts("2026-01-02T00:00:00Z"), entitlements: ["pro"])])
    let again = try Self.importing(store, "appstore")
    #expect(again.linesRead == 1)
    // A grant tells an importer nothing: read by the load, not read again to learn from.
    #expect(again.linesLearned == 0)
  }

  @Test("a log replaced by another file is read whole again, and imports nothing it already holds")
  func readsWholeWhenReplaced() throws {
    let (directory, log, store) = try Self.importedTwice()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lines = try Self.lineCount(log)
    // A copy renamed over the log, as an erasure's switch does: same bytes, another file.
    let copy = directory.appendingPathComponent("copy.jsonl").path
    try Data(contentsOf: URL(fileURLWithPath: log)).write(to: URL(fileURLWithPath: copy))
    #expect(rename(copy, log) == 0)
    let again = try Self.importing(store, "appstore")
    #expect(again.linesRead >= lines)
    #expect(again.report.events == 0)
  }
}

/// Where a read of a log's committed lines goes on from (`LogPrefix`), at its edges.
@Suite("A log's committed lines are read on from where the last read ended only while that is still the log")
struct LogPrefixTests {
  static func read(_ path: String, after known: LogPrefix?) throws -> (text: String, fromStart: Bool, prefix: LogPrefix) {
    let read = try LedgerLoader.readCommittedLines(path, after: known)
    return (String(decoding: read.lines, as: UTF8.self), read.fromStart, read.prefix)
  }

  @Test(
    "after a read of two lines: appended, torn, cut, edited in place, replaced",
    arguments: [
      ("appended", "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n", "{\"c\":3}\n", false),
      ("torn", "{\"a\":1}\n{\"b\":2}\n{\"c\"", "", false),
      ("nothing new", "{\"a\":1}\n{\"b\":2}\n", "", false),
      ("cut", "{\"a\":1}\n", "{\"a\":1}\n", true),
      ("edited in place", "{\"a\":1}\n{\"b\":3}\n{\"c\":3}\n", "{\"a\":1}\n{\"b\":3}\n{\"c\":3}\n", true),
      ("replaced", "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n", "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n", true),
    ])
  func goesOn(change: String, then: String, expected: String, fromStart: Bool) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("log.jsonl").path
    try "{\"a\":1}\n{\"b\":2}\n".write(toFile: log, atomically: false, encoding: .utf8)
    let first = try Self.read(log, after: nil)
    #expect(first.text == "{\"a\":1}\n{\"b\":2}\n" && first.fromStart)
    if change == "replaced" {
      let copy = directory.appendingPathComponent("copy.jsonl").path
      try then.write(toFile: copy, atomically: false, encoding: .utf8)
      #expect(rename(copy, log) == 0)
    } else {
      // In place: the same file (no rename), truncated and written.
      try then.write(toFile: log, atomically: false, encoding: .utf8)
    }
    let next = try Self.read(log, after: first.prefix)
    #expect(next.text == expected)
    #expect(next.fromStart == fromStart)
    #expect(next.prefix.length == Int64(then.utf8.count - (then.hasSuffix("\n") ? 0 : then.split(separator: "\n", omittingEmptySubsequences: false).last!.utf8.count)))
  }

  @Test("an in-memory log is read on the same way: from where the last read ended, or whole when it no longer starts so")
  func inMemory() {
    let start = Array("{\"a\":1}\n".utf8)
    let first = LogPrefix.lines(of: start, after: nil)
    #expect(first.fromStart && first.lines.count == start.count)
    let grown = LogPrefix.lines(of: start + Array("{\"b\":2}\n".utf8), after: first.prefix)
    #expect(!grown.fromStart && String(decoding: grown.lines, as: UTF8.self) == "{\"b\":2}\n")
    let other = LogPrefix.lines(of: Array("{\"z\":1}\n{\"b\":2}\n".utf8), after: first.prefix)
    #expect(other.fromStart && other.lines.count == 16)
  }

  @Test("the bytes checked again span reads shorter than the check: 64 bytes, however many reads made them")
  func checkedBytesSpanReads() {
    var prefix = LogPrefix.start(of: nil)
    var all: [UInt8] = []
    for index in 0..<20 {
      let line = Array("{\"n\":\(index)}\n".utf8)
      all += line
      prefix = prefix.extended(by: line).prefix
    }
    #expect(prefix.length == Int64(all.count))
    #expect(prefix.lastBytes == Array(all.suffix(LogPrefix.checkedBytesMax)))
  }
}
