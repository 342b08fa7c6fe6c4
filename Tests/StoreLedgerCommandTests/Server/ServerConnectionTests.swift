import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

@Suite("serve's connections: keep-alive, limits, slow clients, the connection cap and stopping")
struct ServerConnectionTests {
  @Test("several requests on one kept-alive connection are answered in order, pipelined ones too")
  func keepAlive() throws {
    let fixture = try ServerFixture()
    let connection = try fixture.connect()
    defer { connection.close() }
    let first = try connection.request("GET", "/v1/subjects/u1?at=2026-03-05")
    let second = try connection.request("GET", "/healthz")
    let third = try connection.request("GET", "/v1/subjects/u2?at=2026-03-05")
    #expect(first.status == 200 && first.json["subject"] as? String == "u1" && first.headers["connection"] == "keep-alive")
    #expect(second.status == 200 && second.body == "{\"status\":\"ok\"}\n")
    #expect(third.status == 200 && third.json["subject"] as? String == "u2")
    // Two requests in one write: two answers, in order.
    connection.send("GET /v1/subjects/u3?at=2026-03-05 HTTP/1.1\r\n\r\nGET /v1/subjects/u1?at=2026-03-05 HTTP/1.1\r\n\r\n")
    #expect(try connection.readResponse().json["subject"] as? String == "u3")
    #expect(try connection.readResponse().json["subject"] as? String == "u1")
    let last = try connection.request("GET", "/healthz", headers: ["Connection: close"])
    #expect(last.headers["connection"] == "close" && connection.isClosedByServer())
  }

  @Test(
    "an oversized or malformed request is answered with its status, as JSON, and the connection closed",
    arguments: [
      ("GET /healthz HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n", 431, "headers_too_large"),
      ("POST /v1/events HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", 413, "body_too_large"),
      ("POST /v1/events HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411, "length_required"),
      ("HELLO\r\n\r\n", 400, "malformed_request"),
      ("GET /v1/subjects/u1 HTTP/1.1\r\nHost x\r\n\r\n", 400, "malformed_request"),
    ])
  func refused(request: String, status: Int, code: String) throws {
    let fixture = try ServerFixture { $0.limits.bodyBytesMax = 4096 }
    let connection = try fixture.connect()
    defer { connection.close() }
    connection.send(request)
    let answer = try connection.readResponse()
    #expect(answer.status == status && answer.json["code"] as? String == code, "\(answer.body)")
    #expect(answer.headers["connection"] == "close" && connection.isClosedByServer())
  }

  @Test("a client that expects 100 Continue gets it once the headers are accepted, then its answer")
  func expectContinue() throws {
    let fixture = try ServerFixture()
    let connection = try fixture.connect()
    defer { connection.close() }
    let body = EventLines.line(
      .purchase(id: "x100", subject: "w9", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t100", price: 1, currency: "USD"))
    connection.send("POST /v1/events HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
    let interim = try connection.read(until: "\r\n\r\n", timeoutMilliseconds: 2000)
    #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
    connection.send(body)
    let answer = try connection.readResponseAfterContinue()
    #expect(answer.status == 200 && answer.json["appended"] as? Int == 1, "\(answer.body)")
  }

  @Test("a request body over the limit is refused with 413 before it is read, and writes nothing")
  func bodyTooLarge() throws {
    let fixture = try ServerFixture { $0.limits.bodyBytesMax = 1024 }
    let before = try String(contentsOfFile: fixture.log, encoding: .utf8)
    let body = String(repeating: " ", count: 2000)
    let answer = try fixture.request("POST", "/v1/events", body: body)
    #expect(answer.status == 413 && answer.json["code"] as? String == "body_too_large")
    #expect(try String(contentsOfFile: fixture.log, encoding: .utf8) == before)
  }

  @Test("a client that sends its request too slowly gets 408 and is closed, while others are answered at once")
  func slowClient() throws {
    let fixture = try ServerFixture { $0.limits.requestMilliseconds = 400 }
    let slow = try fixture.connect()
    defer { slow.close() }
    slow.send("GET /v1/subjects/u1 HTTP/1.1\r\nHost: x\r\n")
    let started = Date()
    for _ in 0..<5 {
      #expect(try fixture.request("GET", "/healthz").status == 200)
    }
    #expect(Date().timeIntervalSince(started) < 0.4, "other clients waited for the slow one")
    let answer = try slow.readResponse(timeoutMilliseconds: 3000)
    #expect(answer.status == 408 && answer.json["code"] as? String == "request_timeout")
    #expect(slow.isClosedByServer())
  }

  @Test("an idle kept-alive connection is closed after the idle limit")
  func idle() throws {
    let fixture = try ServerFixture { $0.limits.idleMilliseconds = 200 }
    let connection = try fixture.connect()
    defer { connection.close() }
    #expect(try connection.request("GET", "/healthz").status == 200)
    #expect(connection.isClosedByServer(timeoutMilliseconds: 3000))
  }

  @Test("past the connection cap a new connection is answered 503 and closed; one that ends frees its place")
  func connectionCap() throws {
    let fixture = try ServerFixture { $0.limits.connectionsMax = 2 }
    let first = try fixture.connect()
    let second = try fixture.connect()
    defer { second.close() }
    #expect(try first.request("GET", "/healthz").status == 200 && second.request("GET", "/healthz").status == 200)
    let third = try fixture.connect()
    defer { third.close() }
    let refused = try third.readResponse()
    #expect(refused.status == 503 && refused.json["code"] as? String == "too_many_connections")
    first.close()
    // The server notices the close within a poll slice.
    var status = 0
    for _ in 0..<50 where status != 200 {
      Thread.sleep(forTimeInterval: 0.05)
      status = (try? fixture.request("GET", "/healthz").status) ?? 0
    }
    #expect(status == 200)
  }

  @Test("stop ends idle connections, lets a request under way finish with Connection: close, and stops accepting")
  func stop() throws {
    let fixture = try ServerFixture()
    let idle = try fixture.connect()
    defer { idle.close() }
    #expect(try idle.request("GET", "/healthz").status == 200)
    let busy = try fixture.connect()
    defer { busy.close() }
    // Half a request: under way when the stop begins.
    let body = EventLines.line(
      .purchase(id: "late1", subject: "z", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "tz", price: 1, currency: "USD"))
    busy.send("POST /v1/events HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
    Thread.sleep(forTimeInterval: 0.1)
    let stopped = DispatchSemaphore(value: 0)
    let result = LockedBox(false)
    Thread.detachNewThread {
      result.value = fixture.server.stop()
      stopped.signal()
    }
    Thread.sleep(forTimeInterval: 0.1)
    busy.send(body)
    let answer = try busy.readResponse()
    #expect(answer.status == 200 && answer.headers["connection"] == "close")
    #expect(stopped.wait(timeout: .now() + 5) == .success && result.value)
    #expect(idle.isClosedByServer(timeoutMilliseconds: 1000))
    #expect(try fixture.logLines().last?.contains("late1") == true)
    #expect(PlatformSocket.connect(host: "127.0.0.1", port: fixture.port) < 0)
  }
}

/// A value shared with another thread.
final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  /// Changes the value in one step (a get then a set could lose another thread's change).
  func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
