import StoreLedgerCore

// Tests whose subject is not the line format (the fold, queries, reports, policies, the API)
// build their events as `NewEvent` values, with its per-type constructors, and get log text
// through the encoder the library's appends use (`NewEvent.appendLine`): one typed event at every
// seam (issue 33, item 2). A deliberately malformed line, an unknown key or a key order is not
// an event and stays raw text, in the parsing tests (TestEventLiteralTests names them).

/// Log text from typed events, and ledgers folded from it through the normal load path.
package enum EventLines {
  /// The log text of `events`: one line each, as the library appends it, joined by newlines
  /// without a trailing one (as a multi-line literal of the same lines).
  /// - Complexity: O(total size of the lines).
  package static func log(_ events: [NewEvent]) -> String {
    events.map(line).joined(separator: "\n")
  }

  /// One event's log line, without the newline.
  /// - Complexity: O(size of the line).
  package static func line(_ event: NewEvent) -> String {
    var bytes: [UInt8] = []
    event.appendLine(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The ledger of `events` with `catalogText`'s catalog, built as `ledger(_:catalogText:)`
  /// builds one from text (which records an issue and throws if the log is refused).
  /// - Complexity: O(total size of the lines) plus the fold.
  package static func ledger(_ events: [NewEvent], catalogText: String = exampleCatalogText) throws -> Ledger {
    try StoreLedgerTestSupport.ledger(log(events), catalogText: catalogText)
  }
}

extension NewEvent {
  /// The same event as the ledger learned it at `time` (an RFC 3339 instant): late knowledge.
  package func recordedAt(_ time: String) -> NewEvent {
    var copy = self
    copy.recorded = ts(time)
    return copy
  }

  /// The same event with `values` as its `meta`.
  package func withMeta(_ values: [String: String]) -> NewEvent {
    var copy = self
    copy.meta = values
    return copy
  }
}
