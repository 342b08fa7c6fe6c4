import StoreLedger

// `GET /v1/changes`: committed batches as Server-Sent Events. Each event's id is the log line
// its batch ends at, so a client that reconnects with `Last-Event-ID` (or `?last_event_id=`,
// for a first connection) gets every line after it: first from the log file, then live.

extension LedgerServer {
  /// Lines per catch-up event read from the log.
  static let catchUpLinesPerEvent = 500
  /// How often an idle feed writes a comment, so proxies keep it and dead clients are found.
  static let keepAliveMilliseconds = 15_000

  /// Streams the feed on `socket` until the client goes, falls too far behind, or the server stops.
  /// - Returns: the status and the bytes written, for the access log.
  func streamChanges(_ request: HTTPRequest, socket: Int32) -> (status: Int, bytes: Int) {
    let resumeText = request.header("last-event-id") ?? request.query["last_event_id"]
    var position: Int? = nil
    if let resumeText {
      guard let value = Int(resumeText), value >= 0 else {
        let response = ErrorResponse.response(
          .badParameter(name: "Last-Event-ID", value: resumeText, expected: "a log line number, as an event's id"))
        let bytes = response.serialized(keepAlive: false)
        _ = PlatformSocket.send(socket, bytes, timeoutMilliseconds: configuration.limits.sendMilliseconds)
        return (response.status, bytes.count)
      }
      position = value
    }
    // Subscribe before reading the log: a batch committed in between comes twice and is skipped by line.
    let feed = ChangeFeed(store: store, pollingMilliseconds: configuration.changePollingMilliseconds)
    defer { feed.cancel() }
    var written = 0
    func write(_ text: String) -> Bool {
      written += text.utf8.count
      return PlatformSocket.send(socket, Array(text.utf8), timeoutMilliseconds: configuration.limits.sendMilliseconds)
    }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nX-Accel-Buffering: no\r\n"
      + "Connection: close\r\n\r\nretry: 1000\n\n"
    guard write(head) else { return (200, written) }
    var sent = position ?? store.logLineCount
    if position != nil {
      guard catchUp(after: &sent, write: write) else { return (200, written) }
    }
    var quiet = 0
    while !isStopping {
      switch feed.next(timeoutMilliseconds: Int(configuration.limits.pollSliceMilliseconds)) {
      case .timeout:
        quiet += Int(configuration.limits.pollSliceMilliseconds)
        if quiet >= Self.keepAliveMilliseconds {
          quiet = 0
          guard write(": keep-alive\n\n") else { return (200, written) }
        }
      case .batch(let batch):
        let last = batch.firstLine + batch.lineCount - 1
        guard last > sent else { continue }
        let events = batch.events.filter { $0.line > sent }
        let subjects = Set(events.map(\.subject.rawValue)).sorted()
        let data = Self.batchJSON(firstLine: sent + 1, lastLine: last, subjects: subjects, events: events.map(Self.eventJSON))
        sent = last
        quiet = 0
        guard write("id: \(last)\nevent: batch\ndata: \(data)\n\n") else { return (200, written) }
      case .ended(let reason):
        _ = write("event: end\ndata: \(JSONWriter.compact(.object([("reason", .string(reason))])))\n\n")
        return (200, written)
      }
    }
    return (200, written)
  }

  /// Writes the log's lines after `position` as batch events of at most `catchUpLinesPerEvent`
  /// lines; moves `position` to the last line written. False when a write failed.
  /// - Complexity: O(log bytes): the committed log is read once.
  private func catchUp(after position: inout Int, write: (String) -> Bool) -> Bool {
    guard let log = try? LedgerLoader.readCommitted(store.logPath) else { return true }
    var line = 0
    var events: [JSONValue] = []
    var subjects = Set<String>()
    var first = position + 1
    var start = 0
    for index in log.indices where log[index] == 10 {
      line += 1
      defer { start = index + 1 }
      guard line > position else { continue }
      if let value = try? JSONValue.parse(bytes: Array(log[start..<index])) {
        subjects.insert(value["subject"]?.stringValue ?? "")
        events.append(Self.eventJSON(value, line: line))
      }
      if line - first + 1 == Self.catchUpLinesPerEvent {
        let data = Self.batchJSON(firstLine: first, lastLine: line, subjects: subjects.sorted(), events: events)
        guard write("id: \(line)\nevent: batch\ndata: \(data)\n\n") else { return false }
        (events, subjects, first, position) = ([], [], line + 1, line)
      }
    }
    guard line >= first else { return true }
    let data = Self.batchJSON(firstLine: first, lastLine: line, subjects: subjects.sorted(), events: events)
    position = line
    return write("id: \(line)\nevent: batch\ndata: \(data)\n\n")
  }

  /// One event's `data`: the batch's lines, the subjects whose answers may have changed, its events.
  static func batchJSON(firstLine: Int, lastLine: Int, subjects: [String], events: [JSONValue]) -> String {
    JSONWriter.compact(
      .object([
        ("first_line", .integer(Int64(firstLine))), ("last_line", .integer(Int64(lastLine))),
        ("subjects", .array(subjects.map { .string($0) })), ("events", .array(events)),
      ]))
  }

  /// An event of a live batch.
  static func eventJSON(_ event: CommittedBatch.Event) -> JSONValue {
    .object([
      ("line", .integer(Int64(event.line))), ("id", .string(event.id.rawValue)), ("type", .string(event.kind.name)),
      ("subject", .string(event.subject.rawValue)), ("at", .string(event.at.rfc3339)),
      ("recorded", .string(event.recorded.rfc3339)),
    ])
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
