import StoreLedger

/// One client connection on its own thread: reads requests within the limits, answers them in
/// order, keeps the connection while the client asks and the server runs.
struct Connection {
  /// The connected socket (closed by `run`).
  let socket: Int32
  /// The server answering.
  let server: LedgerServer

  /// What reading the next request found.
  private enum Arrival {
    case request(HTTPRequest, bytes: Int)
    case closed
    case refused(ServerProblem)
  }

  /// Serves requests until the client closes, asks to close, errs, or the server stops.
  func run() {
    defer { PlatformSocket.close(socket) }
    var buffer: [UInt8] = []
    var served = 0
    while true {
      let started = ContinuousClock.now
      switch next(&buffer) {
      case .closed: return
      case .refused(let problem):
        // After a framing error the stream's position is unknown: answer and close.
        let response = ErrorResponse.response(problem)
        let bytes = response.serialized(keepAlive: false)
        _ = PlatformSocket.send(socket, bytes, timeoutMilliseconds: server.configuration.limits.sendMilliseconds)
        server.finished(
          method: "-", route: "other", subject: nil, status: problem.status, started: started, bytesIn: buffer.count,
          bytesOut: bytes.count)
        return
      case .request(let request, let bytesIn):
        served += 1
        let keepAlive =
          request.keepsAlive && served < server.configuration.limits.requestsPerConnectionMax && !server.isStopping
        guard server.respond(to: request, bytesIn: bytesIn, socket: socket, keepAlive: keepAlive, started: started),
          keepAlive
        else { return }
      }
    }
  }

  /// Reads until `buffer` starts with a whole request: within the idle limit for its first
  /// byte, then within the request limit for the rest.
  private func next(_ buffer: inout [UInt8]) -> Arrival {
    let limits = server.configuration.limits
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var deadline = ContinuousClock.now + .milliseconds(buffer.isEmpty ? limits.idleMilliseconds : limits.requestMilliseconds)
    var continued = false
    while true {
      if !buffer.isEmpty {
        switch HTTPRequestParser.parse(buffer, limits: limits) {
        case .request(let request, let consumed):
          buffer.removeFirst(consumed)
          return .request(request, bytes: consumed)
        case .failure(let problem): return .refused(problem)
        case .awaitingBody(let expectsContinue):
          if expectsContinue && !continued {
            continued = true
            _ = PlatformSocket.send(socket, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeoutMilliseconds: limits.sendMilliseconds)
          }
        case .incomplete: break
        }
      }
      let now = ContinuousClock.now
      guard now < deadline else {
        return buffer.isEmpty ? .closed : .refused(.requestTimeout(milliseconds: limits.requestMilliseconds))
      }
      // An idle connection ends at once when the server stops; a request under way finishes.
      if buffer.isEmpty && server.isStopping { return .closed }
      let remaining = Int32(clamping: (deadline - now).components.seconds * 1000 + (deadline - now).components.attoseconds / 1_000_000_000_000_000)
      guard PlatformSocket.waitReadable(socket, milliseconds: min(max(remaining, 1), limits.pollSliceMilliseconds)) else { continue }
      let count = PlatformSocket.receive(socket, into: &chunk)
      guard count > 0 else { return .closed }
      if buffer.isEmpty { deadline = ContinuousClock.now + .milliseconds(limits.requestMilliseconds) }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}
