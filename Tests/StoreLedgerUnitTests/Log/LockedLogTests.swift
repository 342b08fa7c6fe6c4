import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// `LogAppender.withLockedLog` creates a missing log to take its lock; a writer that then fails
/// leaves no empty log behind, and never removes a log it did not create or one with content.
@Suite
struct LockedLogTests {
  /// A failure of the body under the lock.
  struct Refused: Error {}

  /// What is at `path` afterwards: nil when nothing is there.
  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Runs `withLockedLog` on `path` with a body that runs `first`, writes `bytes` and then fails
  /// when `fails`.
  static func lockedRun(_ path: String, writing bytes: String, fails: Bool, first: () -> Void = {}) {
    _ = try? LogAppender.withLockedLog(logPath: path, command: "test", wait: .standard, waitNotice: nil) { log in
      first()
      if !bytes.isEmpty { try log.write(Array(bytes.utf8)) }
      if fails { throw Refused() }
    }
  }

  /// A case: whether a log exists before, what the body writes, whether it fails, what is left.
  struct Case: Sendable, CustomStringConvertible {
    var existing: String?
    var writes: String
    var fails: Bool
    var left: String?
    var description: String {
      "\(existing.map { "log of \($0.count) bytes" } ?? "no log"), writes \(writes.count), \(fails ? "fails" : "succeeds")"
    }
  }

  @Test(
    "a log made to take the lock is removed when the writer fails and leaves it empty, and only then",
    arguments: [
      Case(existing: nil, writes: "", fails: true, left: nil),
      Case(existing: nil, writes: "", fails: false, left: ""),
      Case(existing: nil, writes: "x\n", fails: true, left: "x\n"),
      Case(existing: "", writes: "", fails: true, left: ""),
      Case(existing: "a\n", writes: "", fails: true, left: "a\n"),
    ])
  func createdLogRemoved(_ example: Case) throws {
    let log = try temporaryDirectory().appendingPathComponent("log.jsonl").path
    if let existing = example.existing { try Data(existing.utf8).write(to: URL(fileURLWithPath: log)) }
    Self.lockedRun(log, writing: example.writes, fails: example.fails)
    #expect(Self.contents(log) == example.left)
    #expect(PlatformFile.entryKind(LogLock.holderPath(forLog: log)) == .missing)
  }

  @Test("a created log with an intent record beside it is kept, so the record still describes its log")
  func intentKeepsLog() throws {
    let log = try temporaryDirectory().appendingPathComponent("log.jsonl").path
    _ = try? LogAppender.withLockedLog(logPath: log, command: "test", wait: .standard, waitNotice: nil) { _ in
      try Data("intent".utf8).write(to: URL(fileURLWithPath: AppendIntent.path(forLog: log)))
      throw Refused()
    }
    #expect(Self.contents(log) == "")
  }

  @Test("a writer queued on the lock of a log that is then removed opens the name again and writes there")
  func queuedWriterReopens() throws {
    let log = try temporaryDirectory().appendingPathComponent("log.jsonl").path
    let finished = DispatchSemaphore(value: 0)
    Self.lockedRun(log, writing: "", fails: true) {
      // The second writer opens the created log and waits for its lock while the first still holds it.
      DispatchQueue.global().async {
        Self.lockedRun(log, writing: "y\n", fails: false)
        finished.signal()
      }
      Thread.sleep(forTimeInterval: 0.2)
    }
    finished.wait()
    #expect(Self.contents(log) == "y\n")
  }

}

extension LockedLogTests {
  @Test("a log path that is a symbolic link to nothing gets its target made, and a refused writer keeps it")
  func danglingLink() throws {
    let directory = try temporaryDirectory()
    let log = directory.appendingPathComponent("log.jsonl").path
    let target = directory.appendingPathComponent("target.jsonl").path
    try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: target)
    var created = true
    _ = try PlatformFile(readWriteCreating: log, created: &created)
    #expect(!created)
    #expect(Self.contents(target) == "")
    try FileManager.default.removeItem(atPath: target)
    Self.lockedRun(log, writing: "", fails: true)
    #expect(Self.contents(target) == "")
  }
}
