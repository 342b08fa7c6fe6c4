import StoreLedgerCore

/// A ledger event produced by an importer, before it is written as a log line.
///
/// Holds exactly the fields Docs/log-format.md allows for its type, plus `meta`. Two events with the
/// same `identity` describe the same fact; the importer keeps one of them.
struct ImportedEvent {
  /// The event id, derived from what identifies the fact so that re-imports repeat it.
  var id: String
  /// The event type.
  var kind: EventKind
  /// The subject whose access changes.
  var subject: String
  /// Effective time.
  var at: Timestamp
  /// Knowledge time (Apple's `signedDate`; Google's `publishTime`, a `fetchTime`, or the
  /// import's clock); written only when it differs from `at`.
  var recorded: Timestamp?
  /// The type's own fields (`product`, `transaction`, …) in any order.
  var fields: [(String, JSONValue)]
  /// The `meta` object's members.
  var meta: [(String, JSONValue)]
  /// The input line it came from, for diagnostics.
  var line: Int
  /// What two events must not share: the transaction for a purchase or renewal (a transaction
  /// is charged once, Docs/log-format.md), the id otherwise.
  var identity: String
  /// Which copy of one identity wins when copies differ: the lowest rank (a copy that states
  /// what it is, such as a transaction with its `transactionReason`, over one that infers it),
  /// then the earliest `recorded`.
  var rank: Int = 0

  /// `recorded`, or `at` when absent: the instant the ledger knew of the event.
  var knownAt: Timestamp { recorded ?? at }

  /// The event as a JSON object; `recorded` is left out when `includesRecorded` is false or
  /// when it equals `at` (Docs/log-format.md: absent means equal to `at`).
  func json(includesRecorded: Bool = true) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(id)), ("type", .string(kind.name)), ("subject", .string(subject)),
      ("at", .string(at.rfc3339)),
    ]
    if includesRecorded, let recorded, recorded != at {
      members.append(("recorded", .string(recorded.rfc3339)))
    }
    members += fields
    if !meta.isEmpty { members.append(("meta", .object(meta))) }
    return .object(members)
  }

  /// The log line: compact JSON with sorted keys.
  var logLine: String { JSONWriter.compact(json()) }
}
