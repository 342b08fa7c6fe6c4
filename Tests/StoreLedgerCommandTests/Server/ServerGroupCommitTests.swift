import Dispatch
import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// Two purchase lines of one request, the second replaced by `second` when given.
private func requestBody(_ request: Int, second: String? = nil) -> String {
  func line(_ suffix: String) -> String {
    EventLines.line(
      .purchase(
        id: "g\(request)\(suffix)", subject: "s\(request)", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime",
        transaction: "tg\(request)\(suffix)", price: 29990, currency: "USD"))
  }
  return line("a") + "\n" + (second ?? line("b")) + "\n"
}

/// Another process holding the log's writer lock (`flock`, as a second `serve` or the CLI would).
private final class LockHoldingProcess {
  let process = Process()

  init(log: String) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(30)\n",
      log,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let said = output.fileHandleForReading.readData(ofLength: 5)
    try #require(String(decoding: said, as: UTF8.self).hasPrefix("held"), "the lock holder did not start")
  }

  func stop() {
    // SIGKILL: a child inherits the test process's blocked signals, SIGTERM among them.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

@Suite("serve's group commit and --wait", .serialized)
struct ServerGroupCommitTests {
  @Test("concurrent POSTs queued behind a held lock are written in one group, each decided alone: every 200 once and whole, every refusal absent")
  func groupOfRequests() throws {
    let fixture = try ServerFixture()
    let before = try fixture.logLines()
    let holder = try PlatformFile(path: fixture.log, mode: .readWriteCreate)
    try LogLock.acquire(holder, logPath: fixture.log, command: "test", wait: .standard, notice: nil)
    // Request 3 has a bad line, 7 reuses an id of the log, 11 one of request 0 with other values.
    let refusals: [Int: (status: Int, code: String)] = [3: (400, "invalid_json"), 7: (409, "id_conflict"), 11: (409, "id_conflict")]
    let bodies = (0..<12).map { request -> String in
      switch request {
      case 3: return requestBody(3, second: #"{"id":"g3b","type":"purchase","#)
      case 7:
        let conflicting = NewEvent.purchase(
          id: "e1", subject: "u1", at: ts("2026-02-01T10:00:00Z"), product: "pro.lifetime", transaction: "zz", price: 1, currency: "USD")
        return requestBody(7, second: EventLines.line(conflicting))
      case 11: return requestBody(11, second: requestBody(0).split(separator: "\n")[0].replacingOccurrences(of: "29990", with: "1"))
      default: return requestBody(request)
      }
    }
    let answers = AnswerBox(count: bodies.count)
    let finished = DispatchGroup()
    for (request, body) in bodies.enumerated() {
      // One at a time into the queue, so the group's order is the requests' order.
      finished.enter()
      // A thread each: Dispatch's pool may run only as many blocking clients as there are cores.
      Thread {
        defer { finished.leave() }
        answers.set(request, Result { try fixture.request("POST", "/v1/events", body: body) })
      }.start()
      // The first leads (it took its own batch and waits for the lock); the others queue.
      let deadline = Date().addingTimeInterval(10)
      while fixture.store.commitGroups.queued != (true, request) && Date() < deadline { usleep(1000) }
    }
    try #require(fixture.store.commitGroups.queued == (true, bodies.count - 1), "the requests did not queue")
    LogLock.release(holder, logPath: fixture.log)
    #expect(finished.wait(timeout: .now() + 30) == .success)
    for request in bodies.indices {
      let answer = try answers.get(request)
      if let refusal = refusals[request] {
        #expect(answer.status == refusal.status && answer.json["code"] as? String == refusal.code, "\(request): \(answer.body)")
        // Its own words: the bad line is its second, in the input it sent.
        let problem = (answer.json["problems"] as? [[String: Any]])?.first
        #expect(problem?["file"] as? String == "<lines>" && problem?["line"] as? Int == 2, "\(request): \(answer.body)")
      } else {
        #expect(answer.status == 200 && answer.json["appended"] as? Int == 2, "\(request): \(answer.body)")
      }
    }
    let ids = try fixture.logLines().dropFirst(before.count).map { line in
      try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "torn line: \(line)")["id"] as? String
    }
    let expected = bodies.indices.filter { refusals[$0] == nil }.flatMap { ["g\($0)a", "g\($0)b"] }
    #expect(ids == expected)
    // The leader's own batch, then every request that queued behind it: two writes, two fsyncs.
    #expect(fixture.store.groupCommits <= 2)
    #expect(runCLI(["check", fixture.log, "--catalog", fixture.catalog]).status == 0)
  }

  @Test("an append waits at most --wait for a lock another process holds, then answers 503 lock_busy and writes nothing")
  func lockWait() throws {
    let fixture = try ServerFixture { $0.lockWait = LogLock.Wait(limitMilliseconds: 1000) }
    let before = try String(contentsOfFile: fixture.log, encoding: .utf8)
    let holder = try LockHoldingProcess(log: fixture.log)
    let started = Date()
    let refused = try fixture.request("POST", "/v1/events", body: requestBody(1))
    let waited = Date().timeIntervalSince(started)
    #expect(refused.status == 503 && refused.json["code"] as? String == "lock_busy", "\(refused.body)")
    #expect(waited >= 0.9 && waited < 5, "waited \(waited) s")
    // Readers never wait for the lock.
    let readStarted = Date()
    #expect(try fixture.request("GET", "/v1/subjects/u1?at=2026-03-05").status == 200)
    #expect(Date().timeIntervalSince(readStarted) < 1)
    #expect(try String(contentsOfFile: fixture.log, encoding: .utf8) == before)
    holder.stop()
    let accepted = try fixture.request("POST", "/v1/events", body: requestBody(1))
    #expect(accepted.status == 200 && accepted.json["appended"] as? Int == 2, "\(accepted.body)")
  }
}

/// Answers written by client threads, read after they finished.
private final class AnswerBox: @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [Result<TestResponse, any Error>?]

  init(count: Int) { answers = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ answer: Result<TestResponse, any Error>) {
    lock.withLock { answers[index] = answer }
  }

  func get(_ index: Int) throws -> TestResponse {
    try #require(lock.withLock { answers[index] }).get()
  }
}
