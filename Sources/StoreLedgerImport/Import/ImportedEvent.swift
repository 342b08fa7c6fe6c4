import StoreLedgerCore

/// A ledger event produced by an importer: the typed event the log gets (`NewEvent`, the form
/// the library's appends and the test builders use) and what only the importer needs.
///
/// Holds exactly the fields Docs/log-format.md allows for its type, plus `meta`. Two events with the
/// same `identity` describe the same fact; the importer keeps one of them.
struct ImportedEvent {
  /// The event as the log gets it. Its id is derived from what identifies the fact so that
  /// re-imports repeat it; its `recorded` (Apple's `signedDate`; Google's `publishTime`, a
  /// `fetchTime`, or the import's clock) is nil when it equals `at`, so the line leaves it out
  /// (Docs/log-format.md: absent means equal to `at`).
  var event: NewEvent
  /// The input line it came from, for diagnostics.
  var line: Int
  /// What two events must not share: the transaction for a purchase or renewal (a transaction
  /// is charged once, Docs/log-format.md), the id otherwise.
  var identity: String
  /// Which copy of one identity wins when copies differ: the lowest rank (a copy that states
  /// what it is, such as a transaction with its `transactionReason`, over one that infers it),
  /// then the earliest `recorded`.
  var rank: Int = 0

  /// An event of `kind` with the fields `fill` sets on it (`product`, `transaction`, …) and
  /// `meta`'s members (later duplicates of a name are dropped).
  init(
    id: String, kind: EventKind, subject: String, at: Timestamp, recorded: Timestamp?,
    meta: [(String, JSONValue)], line: Int, identity: String, rank: Int = 0,
    fields fill: (inout NewEvent) -> Void = { _ in }
  ) {
    var event = NewEvent(id: EventID(rawValue: id), kind: kind, subject: SubjectID(rawValue: subject), at: at)
    fill(&event)
    event.setMeta(meta)
    self.init(event, recorded: recorded, line: line, identity: identity, rank: rank)
  }

  /// `event`, known since `recorded`.
  init(_ event: NewEvent, recorded: Timestamp?, line: Int, identity: String, rank: Int = 0) {
    self.event = event
    self.event.recorded = recorded == event.at ? nil : recorded
    self.line = line
    self.identity = identity
    self.rank = rank
  }

  /// The event id.
  var id: String { event.id.rawValue }
  /// The event type.
  var kind: EventKind { event.kind }
  /// Effective time.
  var at: Timestamp { event.at }
  /// Knowledge time, nil when it equals `at`.
  var recorded: Timestamp? { event.recorded }
  /// The subject whose access changes (an owner change may move it before the line is written).
  var subject: String {
    get { event.subject.rawValue }
    set { event.subject = SubjectID(rawValue: newValue) }
  }

  /// `recorded`, or `at` when absent: the instant the ledger knew of the event.
  var knownAt: Timestamp { recorded ?? at }

  /// The log line: the one encoder's compact JSON with sorted keys (`NewEvent.logLine`).
  var logLine: String { event.logLine }
}

extension NewEvent {
  /// Makes a `transfer` move `unit` to `to`: a subscription by its `original_transaction`, any
  /// other purchase by its `transaction` (contract v1.3, section 9).
  mutating func setTransfer(to subject: String, unit: String, isSubscription: Bool) {
    to = SubjectID(rawValue: subject)
    if isSubscription {
      originalTransaction = TransactionID(rawValue: unit)
    } else {
      transaction = TransactionID(rawValue: unit)
    }
  }
}

extension NewEvent {
  /// Sets `meta` to `members` (the first of duplicate names wins; the line sorts them).
  mutating func setMeta(_ members: [(String, JSONValue)]) {
    metaValues = Dictionary(members, uniquingKeysWith: { first, _ in first })
  }
}
