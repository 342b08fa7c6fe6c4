import StoreLedger

// From a framed request to the bytes written back: routing, the handlers, metrics and the
// access log.

extension LedgerServer {
  /// Answers `request` on `socket`; false when the connection must close (a write failed, or
  /// the answer was a change feed, which ends with its connection).
  func respond(to request: HTTPRequest, bytesIn: Int, socket: Int32, keepAlive: Bool, started: ContinuousClock.Instant)
    -> Bool
  {
    let route: Route
    do throws(RequestFailure) {
      route = try Route.find(method: request.method, path: request.path)
    } catch {
      return send(error.response, for: request, route: nil, bytesIn: bytesIn, socket: socket, keepAlive: keepAlive, started: started)
    }
    if route == .changes {
      let (status, bytesOut) = streamChanges(request, socket: socket)
      finished(
        method: request.method, route: route.name, subject: nil, status: status, started: started, bytesIn: bytesIn,
        bytesOut: bytesOut)
      return false
    }
    let response: HTTPResponse
    do throws(RequestFailure) {
      response = try handle(route, request)
    } catch {
      response = error.response
    }
    return send(response, for: request, route: route, bytesIn: bytesIn, socket: socket, keepAlive: keepAlive, started: started)
  }

  /// The answer of every route but the change feed.
  private func handle(_ route: Route, _ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    switch route {
    case .subject(let subject): return try answer(subject: subject, request)
    case .subjectCan(let subject): return try permission(subject: subject, request)
    case .policy: return try policy(request)
    case .events: return try appendEvents(request)
    case .appStoreNotifications: return try importAppStore(request)
    case .googlePlayPubSub: return try importGooglePlay(request)
    case .health: return .json("{\"status\":\"ok\"}\n")
    case .metrics:
      let extent = store.readExtent
      let text = metrics.text(
        logBytes: extent.bytes, logLines: extent.lines, events: store.eventCount, connections: openConnections,
        groupCommits: store.groupCommits)
      return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array(text.utf8))
    case .changes: preconditionFailure("the change feed is streamed, not answered")
    }
  }

  private func send(
    _ response: HTTPResponse, for request: HTTPRequest, route: Route?, bytesIn: Int, socket: Int32, keepAlive: Bool,
    started: ContinuousClock.Instant
  ) -> Bool {
    let bytes = response.serialized(keepAlive: keepAlive)
    let written = PlatformSocket.send(socket, bytes, timeoutMilliseconds: configuration.limits.sendMilliseconds)
    finished(
      method: request.method, route: route?.name ?? "other", subject: route?.subject, status: response.status,
      started: started, bytesIn: bytesIn, bytesOut: bytes.count)
    return written
  }

  /// Counts a request and writes its access-log line.
  func finished(
    method: String, route: String, subject: String?, status: Int, started: ContinuousClock.Instant, bytesIn: Int,
    bytesOut: Int
  ) {
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    metrics.record(route: route, status: status, seconds: seconds)
    guard let accessLog else { return }
    accessLog.record(
      at: clock.now(), method: method, route: route, subject: subject, status: status, milliseconds: seconds * 1000,
      bytesIn: bytesIn, bytesOut: bytesOut)
  }
}
