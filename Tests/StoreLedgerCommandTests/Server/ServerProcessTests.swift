import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// `storeledger serve` as a process of its own, on an ephemeral port read from its startup line.
private final class ServeProcess: @unchecked Sendable {
  let process = Process()
  let port: UInt16
  let output: URL
  private let errors = Pipe()
  private(set) var stderr = ""

  init(log: String, catalog: String, directory: URL) throws {
    output = directory.appendingPathComponent("access-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    process.executableURL = try storeledgerBinary()
    process.arguments = ["serve", log, "--catalog", catalog, "--listen", "127.0.0.1:0"]
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = errors
    try process.run()
    var port: UInt16? = nil
    let deadline = Date().addingTimeInterval(20)
    while port == nil && Date() < deadline && process.isRunning {
      stderr += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
      if let range = stderr.range(of: "http://127.0.0.1:") {
        port = UInt16(stderr[range.upperBound...].prefix { $0.isNumber })
      }
    }
    self.port = try #require(port, "no startup line: \(stderr)")
  }

  /// Waits at most `seconds` for the process to end (then kills it); its status, nil if it had to be killed.
  func waitForExit(seconds: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    stderr += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return process.terminationStatus
  }

  func connect() -> TestConnection? {
    let socket = PlatformSocket.connect(host: "127.0.0.1", port: port)
    return socket >= 0 ? TestConnection(socket: socket) : nil
  }
}

@Suite("storeledger serve as a process: SIGTERM and kill -9", .serialized)
struct ServerProcessTests {
  @Test("SIGTERM ends idle connections, exits 0, and the access log has one JSON line per request")
  func terminate() throws {
    let directory = try temporaryDirectory()
    let log = directory.appendingPathComponent("log.jsonl").path
    try FileManager.default.copyItem(atPath: repoPath("Events/demo.jsonl"), toPath: log)
    let server = try ServeProcess(log: log, catalog: repoPath("Events/catalog.json"), directory: directory)
    let connection = try #require(server.connect())
    defer { connection.close() }
    #expect(try connection.request("GET", "/v1/subjects/u1?at=2026-03-05").status == 200)
    #expect(try connection.request("GET", "/healthz").status == 200)
    kill(server.process.processIdentifier, SIGTERM)
    #expect(server.waitForExit(seconds: 10) == 0, "\(server.stderr)")
    #expect(server.stderr.contains("stopped"))
    let lines = try String(contentsOf: server.output, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
      let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["status"] as? Int == 200 && object["route"] != nil)
    }
  }

  @Test("after kill -9 under concurrent appends, every event answered 200 is in the log exactly once and check passes")
  func killDuringAppends() throws {
    let directory = try temporaryDirectory()
    let log = directory.appendingPathComponent("log.jsonl").path
    let catalog = directory.appendingPathComponent("catalog.json").path
    try FileManager.default.copyItem(atPath: repoPath("Events/catalog.json"), toPath: catalog)
    let server = try ServeProcess(log: log, catalog: catalog, directory: directory)
    // Client threads of their own (not tasks: they block on sockets), all connected before the load starts.
    let connections = try (0..<4).map { _ in try #require(server.connect()) }
    let stop = Date().addingTimeInterval(1.5)
    let acknowledged = LockedBox<[String]>([])
    let done = DispatchGroup()
    for (client, connection) in connections.enumerated() {
      done.enter()
      Thread.detachNewThread {
        defer {
          connection.close()
          done.leave()
        }
        for index in 0..<100_000 {
          let id = "k\(client)-\(index)"
          let body = EventLines.line(
            .purchase(id: "\(id)", subject: "s\(client)", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t-\(id)", quantity: 1))
          guard let answer = try? connection.request("POST", "/v1/events", body: body + "\n") else { return }
          if answer.status == 200 { acknowledged.update { $0.append(id) } }
          if Date() > stop && client == 0 {
            // One client kills the server mid-stream; the others are in the middle of requests.
            kill(server.process.processIdentifier, SIGKILL)
            return
          }
        }
      }
    }
    #expect(done.wait(timeout: .now() + 30) == .success)
    #expect(server.waitForExit(seconds: 10) != 0)
    let answered = acknowledged.value
    #expect(answered.count > 10, "too few appends to mean anything: \(answered.count)")
    // The batch being written when the process died (never answered) is rolled back.
    let repaired = runCLI(["repair", log])
    #expect(repaired.status == 0, "\(repaired.stderr)")
    let checked = runCLI(["check", log, "--catalog", catalog])
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    var counts: [String: Int] = [:]
    for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
      let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      counts[try #require(object["id"] as? String), default: 0] += 1
    }
    #expect(answered.allSatisfy { counts[$0] == 1 }, "acknowledged but missing or doubled")
    #expect(counts.values.allSatisfy { $0 == 1 })
  }
}
