import StoreLedger

// `GET /v1/changes`: committed lines as Server-Sent Events, read from the log file itself
// (`LogTail`). Each event's id is the log line it ends at, so a client that reconnects with
// `Last-Event-ID` (or `?last_event_id=`, for a first connection) gets every line after it,
// whether this server or another process appended it.

extension LedgerServer {
  /// Lines per event at most.
  static let linesPerEvent = 500
  /// How often an idle feed writes a comment, so proxies keep it and dead clients are found.
  static let keepAliveMilliseconds = 15_000

  /// Streams the feed on `socket` until the client goes or the server stops.
  /// - Returns: the status and the bytes written, for the access log.
  func streamChanges(_ request: HTTPRequest, socket: Int32) -> (status: Int, bytes: Int) {
    var tail: LogTail
    switch feedStart(request) {
    case .success(let start): tail = start
    case .failure(let failure):
      let response = failure.response
      let bytes = response.serialized(keepAlive: false)
      _ = PlatformSocket.send(socket, bytes, timeoutMilliseconds: configuration.limits.sendMilliseconds)
      return (response.status, bytes.count)
    }
    var written = 0
    func write(_ text: String) -> Bool {
      written += text.utf8.count
      return PlatformSocket.send(socket, Array(text.utf8), timeoutMilliseconds: configuration.limits.sendMilliseconds)
    }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nX-Accel-Buffering: no\r\n"
      + "Connection: close\r\n\r\nretry: 1000\n\n"
    guard write(head) else { return (200, written) }
    var quiet = 0
    while !isStopping {
      let lines: [(line: Int, text: ArraySlice<UInt8>)]
      do throws(Diagnostic) {
        lines = try tail.next(linesMax: Self.linesPerEvent)
      } catch {
        _ = write("event: end\ndata: \(JSONWriter.compact(ErrorResponse.problem(error)))\n\n")
        return (200, written)
      }
      guard let last = lines.last else {
        // Waiting for lines doubles as noticing a client that went away.
        if PlatformSocket.waitReadable(socket, milliseconds: Int32(configuration.changePollingMilliseconds)) {
          var scratch = [UInt8](repeating: 0, count: 512)
          if PlatformSocket.receive(socket, into: &scratch) <= 0 { return (200, written) }
        }
        quiet += configuration.changePollingMilliseconds
        if quiet >= Self.keepAliveMilliseconds {
          quiet = 0
          guard write(": keep-alive\n\n") else { return (200, written) }
        }
        continue
      }
      quiet = 0
      guard write("id: \(last.line)\nevent: batch\ndata: \(Self.batchJSON(lines))\n\n") else { return (200, written) }
    }
    return (200, written)
  }

  /// Where a feed starts: after the `Last-Event-ID` (or `?last_event_id=`) line, else at the end
  /// of what the ledger has read.
  private func feedStart(_ request: HTTPRequest) -> Result<LogTail, RequestFailure> {
    guard let text = request.header("last-event-id") ?? request.query["last_event_id"] else {
      let extent = store.readExtent
      return .success(LogTail(path: store.logPath, line: extent.lines, offset: extent.bytes))
    }
    guard let position = Int(text), position >= 0 else {
      return .failure(.server(.badParameter(name: "Last-Event-ID", value: text, expected: "a log line number, as an event's id")))
    }
    do throws(Diagnostic) {
      return .success(try LogTail(path: store.logPath, after: position))
    } catch {
      return .failure(.ledger(DiagnosticList([error])))
    }
  }

  /// One event's `data`: the lines it covers, the subjects whose answers may have changed, its events.
  /// - Complexity: O(bytes of the lines).
  static func batchJSON(_ lines: [(line: Int, text: ArraySlice<UInt8>)]) -> String {
    var subjects = Set<String>()
    var events: [JSONValue] = []
    for (line, text) in lines {
      // The log holds only lines that were checked as they were appended.
      guard let value = try? JSONValue.parse(bytes: Array(text)) else { continue }
      if let subject = value["subject"]?.stringValue { subjects.insert(subject) }
      events.append(eventJSON(value, line: line))
    }
    return JSONWriter.compact(
      .object([
        ("first_line", .integer(Int64(lines.first?.line ?? 0))), ("last_line", .integer(Int64(lines.last?.line ?? 0))),
        ("subjects", .array(subjects.sorted().map { .string($0) })), ("events", .array(events)),
      ]))
  }

  /// An event read back from its log line (a line without `recorded` was known from its `at`).
  static func eventJSON(_ value: JSONValue, line: Int) -> JSONValue {
    func time(_ key: String) -> JSONValue {
      guard let text = value[key]?.stringValue, let instant = Timestamp.parseRFC3339(text) else { return .null }
      return .string(instant.rfc3339)
    }
    let at = time("at")
    let recorded = time("recorded")
    return .object([
      ("line", .integer(Int64(line))), ("id", value["id"] ?? .null), ("type", value["type"] ?? .null),
      ("subject", value["subject"] ?? .null), ("at", at), ("recorded", recorded == .null ? at : recorded),
    ])
  }
}
