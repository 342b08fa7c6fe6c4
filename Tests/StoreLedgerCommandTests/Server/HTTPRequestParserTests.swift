import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerServer

@Suite("HTTP/1.1 request framing within the limits")
struct HTTPRequestParserTests {
  static var limits: ServerLimits {
    var limits = ServerLimits()
    limits.headerBytesMax = 256
    limits.bodyBytesMax = 64
    return limits
  }

  @Test(
    "a request that is not HTTP/1.1 as the server reads it is refused with its status",
    arguments: [
      ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Pad: 0123456789\r\n", count: 20) + "\r\n", 431),
      ("GET /" + String(repeating: "a", count: 400), 431),
      ("POST /v1/events HTTP/1.1\r\nContent-Length: 65\r\n\r\n", 413),
      ("POST /v1/events HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
      ("get / HTTP/1.1\r\n\r\n", 400),
      ("GET / HTTP/2.0\r\n\r\n", 400),
      ("GET http://example.com/ HTTP/1.1\r\n\r\n", 400),
      ("GET /a%zz HTTP/1.1\r\n\r\n", 400),
      ("GET /?a=%C3 HTTP/1.1\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\n folded: x\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nNoColon\r\n\r\n", 400),
      ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
      ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
      ("POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", 400),
    ])
  func refused(request: String, status: Int) {
    guard case .failure(let problem) = HTTPRequestParser.parse(Array(request.utf8), limits: Self.limits) else {
      Issue.record("not refused: \(request.debugDescription)")
      return
    }
    #expect(problem.status == status, "\(request.debugDescription): \(problem.message)")
  }

  @Test("a request is incomplete until its headers and Content-Length bytes have arrived")
  func incomplete() {
    let whole = Array("POST /v1/events?x=1 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello".utf8)
    let headerBytes = whole.count - 5
    for end in 0..<whole.count {
      switch HTTPRequestParser.parse(Array(whole[..<end]), limits: Self.limits) {
      case .incomplete: #expect(end < headerBytes, "headers whole after \(end) bytes")
      case .awaitingBody(let expectsContinue): #expect(end >= headerBytes && !expectsContinue)
      default: Issue.record("complete after \(end) of \(whole.count) bytes")
      }
    }
    guard case .request(let request, let consumed) = HTTPRequestParser.parse(whole, limits: Self.limits) else {
      Issue.record("not a request")
      return
    }
    #expect(consumed == whole.count && request.body == Array("hello".utf8) && request.query == ["x": "1"])
  }

  @Test("pipelined requests are framed one at a time, the second left in the buffer")
  func pipelined() throws {
    let first = "GET /v1/subjects/a%2Fb?at=2026-03-05&explain HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"
    let second = "GET /healthz HTTP/1.0\r\n\r\n"
    guard case .request(let request, let consumed) = HTTPRequestParser.parse(Array((first + second).utf8), limits: Self.limits)
    else {
      Issue.record("not a request")
      return
    }
    #expect(consumed == first.utf8.count)
    #expect(request.path == "/v1/subjects/a%2Fb" && request.query == ["at": "2026-03-05", "explain": ""])
    #expect(request.keepsAlive && request.header("host") == "x")
    #expect(try Route.find(method: request.method, path: request.path) == .subject("a/b"))
    guard case .request(let next, _) = HTTPRequestParser.parse(Array(second.utf8), limits: Self.limits) else {
      Issue.record("second not a request")
      return
    }
    #expect(!next.keepsAlive)
  }

  @Test(
    "routes are found by method and path; other paths are 404 and other methods 405",
    arguments: [
      ("GET", "/v1/subjects/u1", 0), ("GET", "/v1/subjects/u1/can", 0), ("POST", "/v1/events", 0),
      ("GET", "/v1/subjects/", 404), ("GET", "/v1/nothing", 404), ("GET", "/v1/subjects/u1/can/x", 404),
      ("GET", "/v1/events", 405), ("POST", "/v1/subjects/u1", 405), ("DELETE", "/healthz", 405),
    ])
  func routes(method: String, path: String, status: Int) {
    do throws(RequestFailure) {
      _ = try Route.find(method: method, path: path)
      #expect(status == 0, "\(method) \(path) found")
    } catch {
      #expect(error.response.status == status, "\(method) \(path)")
    }
  }
}
