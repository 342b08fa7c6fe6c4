/// What the ledger decides for an event it is given, from what it already knows (Docs/log-format.md,
/// "Redeliveries" and the transaction charged once): the one admission step of loading, appending
/// and restoring a log's tail, all of which go through `LedgerBuilder.admit`.
///
/// The event's own values were checked before (`ValueRules`); the rules of a subject's whole
/// history (overdraw, the owner chains) are `Fold/`'s, once every event of the subject is known.
enum Decision: Equatable {
  /// A new event.
  case accepted
  /// A redelivery of the event first seen on `firstLine` (same id, equal ignoring `recorded`): skipped.
  case duplicate(firstLine: Int)
  /// A redelivery learned earlier than the event first seen on `firstLine`: skipped as an event,
  /// but the event is now known from the redelivery's `recorded`.
  case learnedEarlier(firstLine: Int)
  /// Refused: another event has its id, or its transaction was charged before.
  case rejected(Problem)

  /// The decision for `event` (with `details`) given what the ledger knows of its id and its
  /// transaction; `symbols` name them in a refusal. Pure, and allocation-free unless it refuses.
  @inline(__always)
  static func of(_ event: Event, details: EventDetails, knowing known: Known, symbols: LedgerSymbols) -> Decision {
    if let first = known.eventWithID {
      if event.isRedelivery(of: first, sameSubject: known.sameSubject, details: details, otherDetails: known.firstDetails) {
        let firstLine = Int(first.line)
        return event.recorded < first.recorded ? .learnedEarlier(firstLine: firstLine) : .duplicate(firstLine: firstLine)
      }
      let differing = event.differingFields(
        from: first, sameSubject: known.sameSubject, details: details, otherDetails: known.firstDetails)
      return .rejected(
        .idConflict(id: symbols.ids.string(event.id), firstLine: Int(first.line), differing: differing.map(\.name)))
    }
    if event.kind.isCharge && known.chargeLine != 0 {
      return .rejected(
        .transactionReused(transaction: symbols.transactions.string(event.transaction), firstLine: Int(known.chargeLine)))
    }
    return .accepted
  }

  /// What a ledger knows that the decision reads: the event that already has the id (if any),
  /// whether it is the same subject's and its details, and the line that charged the transaction.
  struct Known {
    /// The event with the same id, or nil when the id is new.
    var eventWithID: Event? = nil
    /// Whether `eventWithID` is the same subject's.
    var sameSubject = false
    /// `eventWithID`'s price, currency and meta hash.
    var firstDetails = EventDetails()
    /// The line of the charge of the event's transaction (0: none, or the event is no charge).
    var chargeLine: UInt32 = 0
  }
}
