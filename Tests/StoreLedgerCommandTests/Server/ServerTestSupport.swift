import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// A server on 127.0.0.1 with an ephemeral port over a copy of a log and its catalog.
final class ServerFixture: @unchecked Sendable {
  let directory: URL
  let log: String
  let catalog: String
  let store: LedgerStore
  let server: LedgerServer
  let port: UInt16

  /// Copies `log` (a repository path, or nil for an empty log) and `catalog` and serves them.
  init(
    log source: String? = "Events/demo.jsonl", catalog catalogSource: String = "Events/catalog.json",
    clock: LedgerClock = .system, configure: (inout ServerConfiguration) -> Void = { _ in }
  ) throws {
    directory = try temporaryDirectory()
    log = directory.appendingPathComponent("log.jsonl").path
    catalog = directory.appendingPathComponent("catalog.json").path
    try FileManager.default.copyItem(atPath: repoPath(catalogSource), toPath: catalog)
    if let source { try FileManager.default.copyItem(atPath: repoPath(source), toPath: log) }
    store = try LedgerStore(logPath: log, catalogPath: catalog, createIfMissing: true, clock: clock)
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.limits.pollSliceMilliseconds = 20
    configuration.changePollingMilliseconds = 50
    configure(&configuration)
    server = LedgerServer(store: store, configuration: configuration, accessLog: nil, clock: clock)
    port = try server.start()
  }

  deinit { server.stop() }

  /// A new connection to the server.
  func connect() throws -> TestConnection {
    let socket = PlatformSocket.connect(host: "127.0.0.1", port: port)
    try #require(socket >= 0, "cannot connect to 127.0.0.1:\(port)")
    return TestConnection(socket: socket)
  }

  /// One request on a connection of its own.
  func request(_ method: String, _ target: String, body: String = "", headers: [String] = []) throws -> TestResponse {
    let connection = try connect()
    defer { connection.close() }
    return try connection.request(method, target, body: body, headers: headers + ["Connection: close"])
  }

  /// The log's lines.
  func logLines() throws -> [String] {
    try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
  }
}

/// An answer as read off the wire.
struct TestResponse {
  var status: Int
  var headers: [String: String]
  var body: String

  /// The body as a JSON object.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
  }
}

/// A raw HTTP/1.1 client connection (no library between the test and the bytes).
final class TestConnection: @unchecked Sendable {
  let socket: Int32
  private var buffer: [UInt8] = []

  init(socket: Int32) { self.socket = socket }

  func close() { PlatformSocket.close(socket) }

  /// Writes raw bytes.
  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Writes raw bytes.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool { PlatformSocket.send(socket, bytes, timeoutMilliseconds: 5000) }

  /// Sends one request and reads its answer.
  func request(_ method: String, _ target: String, body: String = "", headers: [String] = []) throws -> TestResponse {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for header in headers { text += header + "\r\n" }
    if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
    send(text + "\r\n" + body)
    return try readResponse()
  }

  /// Reads one `Content-Length` answer, waiting at most `timeoutMilliseconds` in all.
  func readResponse(timeoutMilliseconds: Int = 10_000) throws -> TestResponse {
    let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    while true {
      if let end = headerEnd() {
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        var headers: [String: String] = [:]
        for line in lines where line.contains(":") {
          let name = line.prefix { $0 != ":" }
          headers[name.lowercased()] = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        if buffer.count >= end + 4 + length {
          let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
          buffer.removeFirst(end + 4 + length)
          let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
          return TestResponse(status: status, headers: headers, body: body)
        }
      }
      guard Date() < deadline else {
        throw TestConnectionError("no whole answer within \(timeoutMilliseconds) ms; got \(String(decoding: buffer, as: UTF8.self))")
      }
      guard readMore() else {
        throw TestConnectionError("the server closed the connection; got \(String(decoding: buffer, as: UTF8.self))")
      }
    }
  }

  /// Drops a `100 Continue` already read, then reads the answer.
  func readResponseAfterContinue() throws -> TestResponse {
    let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    if buffer.starts(with: interim) { buffer.removeFirst(interim.count) }
    return try readResponse()
  }

  /// Reads until the bytes received contain `marker` (an SSE stream), returning all read so far.
  func read(until marker: String, timeoutMilliseconds: Int = 10_000) throws -> String {
    let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    while !String(decoding: buffer, as: UTF8.self).contains(marker) {
      try #require(Date() < deadline, "'\(marker)' did not arrive; got \(String(decoding: buffer, as: UTF8.self))")
      try #require(readMore(), "closed before '\(marker)'; got \(String(decoding: buffer, as: UTF8.self))")
    }
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Whether the server closed the connection within `timeoutMilliseconds`.
  func isClosedByServer(timeoutMilliseconds: Int32 = 5000) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    while Date() < deadline {
      guard PlatformSocket.waitReadable(socket, milliseconds: 50) else { continue }
      let count = PlatformSocket.receive(socket, into: &chunk)
      if count <= 0 { return true }
    }
    return false
  }

  private func readMore() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    guard PlatformSocket.waitReadable(socket, milliseconds: 100) else { return true }
    let count = PlatformSocket.receive(socket, into: &chunk)
    guard count > 0 else { return false }
    buffer.append(contentsOf: chunk[..<count])
    return true
  }

  private func headerEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
      return index
    }
    return nil
  }
}

/// A connection that ended or stalled before its answer (thrown, so a test that expects an
/// answer fails, and one that kills the server can stop its client).
struct TestConnectionError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// `text` percent-encoded for a query value.
func queryEncoded(_ text: String) -> String {
  text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~:"))) ?? text
}
