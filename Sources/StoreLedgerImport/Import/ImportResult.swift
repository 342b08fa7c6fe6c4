import StoreLedgerCore

/// The outcome of an import (App Store or Google Play): ledger event lines and a summary.
package struct ImportResult: Sendable, Equatable {
  /// Event lines per Docs/log-format.md (compact JSON, sorted keys, no trailing newline), ordered by
  /// `at`, then `id`, one per event id.
  package var eventLines: [String]
  /// Payloads that change no entitlement, by notification type (`TEST`, `CONSUMPTION_REQUEST`,
  /// `SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED`, …, unknown types under their raw name) or kind
  /// (`renewalInfo`, `appTransaction`); each distinct notification or payload counts once.
  package var skipped: [String: Int]
  /// Unknown notification types and enum values, conflicting copies of an event, and other
  /// data the importer tolerated; sorted by line.
  package var warnings: [Diagnostic]
  /// Number of events per payload environment (`meta.environment`).
  package var environments: [String: Int]
  /// Unknown enum values as `field=value`, with how often they were seen.
  package var unknownValues: [String: Int]
  /// Events that were produced more than once (a redelivery, or a notification and the
  /// payload it carries) and written once.
  package var duplicateCount: Int
  /// What was verified (App Store); never part of the events (meta takes part in idempotency).
  package var verification = ImportVerification()
  /// Events left out because the ledger already knew them (`LedgerKnowledge`): the same id,
  /// or a charge of a transaction already charged.
  package var alreadyKnown: Int
  /// Google Play: the lines the document store beside the log gains (`GooglePlayDocumentStore`):
  /// every document of the import, under each purchase token it is about, unless kept already.
  package var documentLines: [String] = []
  /// Google Play: documents that cannot be used yet (a notification before anything about its
  /// purchase, a voided purchase before its purchase, a renewal before anything that tells
  /// when its period began); kept in the document store, they change no answer until the
  /// document they need is imported.
  package var waitingDocuments = 0
  /// The transfers the import writes, in words: a unit the store data names another account
  /// for moves to it (contract v1.3, section 9).
  package var transfers: [String] = []
  /// Price changes the store reports, by state (`PRICE_INCREASE awaiting consent`, Google's
  /// `PRICE_INCREASE OUTSTANDING`, …), each counted once per subscription and price: no
  /// event kind records a consent (Docs/import-appstore.md and Docs/import-googleplay.md,
  /// "Price increases").
  package var priceChanges: [String: Int] = [:]
  /// Google Play: purchase tokens the log already held events of (`LedgerKnowledge`), so that
  /// an import into a log with none of its documents kept can say so.
  package var knownPurchaseTokens = 0

  /// Creates a result.
  package init(
    eventLines: [String], skipped: [String: Int], warnings: [Diagnostic],
    environments: [String: Int], unknownValues: [String: Int], duplicateCount: Int,
    alreadyKnown: Int = 0
  ) {
    self.alreadyKnown = alreadyKnown
    self.eventLines = eventLines
    self.skipped = skipped
    self.warnings = warnings
    self.environments = environments
    self.unknownValues = unknownValues
    self.duplicateCount = duplicateCount
  }

  /// Collapses the mapped events, sorts the diagnostics and builds the result, or throws every
  /// error (with the warnings) when there is any: an import succeeds whole or not at all.
  /// - Complexity: O(n log n) in the number of events.
  static func assemble(
    events mapped: [ImportedEvent], skipped: [String: Set<String>],
    problems: inout ImportProblems, knowledge: LedgerKnowledge = LedgerKnowledge()
  ) throws(DiagnosticList) -> ImportResult {
    let (collapsed, duplicateCount) = collapse(mapped, &problems)
    let (events, alreadyKnown) = unknown(collapsed, knowledge, &problems)
    let warnings = sorted(problems.warnings)
    guard problems.errors.isEmpty else {
      throw DiagnosticList(sorted(problems.errors) + warnings)
    }
    var environments: [String: Int] = [:]
    for event in events {
      let environment = event.event.metaValues["environment"]?.stringValue
      environments[environment ?? "unknown", default: 0] += 1
    }
    return ImportResult(
      eventLines: events.map(\.logLine), skipped: skipped.mapValues(\.count),
      warnings: warnings, environments: environments, unknownValues: problems.unknownValues,
      duplicateCount: duplicateCount, alreadyKnown: alreadyKnown)
  }

  /// The events the ledger does not know yet: an event whose id it holds, or a charge of a
  /// transaction it already charged, is a fact learned earlier and is not written again (a
  /// warning says so when this copy differs). First learned wins, as for log lines
  /// (Docs/log-format.md, "Redeliveries"), so no payload is refused for what another said.
  /// - Complexity: O(n) in the number of events.
  static func unknown(
    _ events: [ImportedEvent], _ knowledge: LedgerKnowledge, _ problems: inout ImportProblems
  ) -> (events: [ImportedEvent], alreadyKnown: Int) {
    guard !knowledge.isEmpty else { return (events, 0) }
    var kept: [ImportedEvent] = []
    var alreadyKnown = 0
    for event in events {
      if let known = knowledge.events[event.event.id] {
        let isSame = known == event.event.withoutRecorded
        // Learned earlier than the log knew it (a document that came late): the same line
        // with this `recorded` makes the append count it known from then.
        if isSame, let since = knowledge.knownAt[event.event.id], event.knownAt < since {
          kept.append(event)
          continue
        }
        alreadyKnown += 1
        if !isSame {
          problems.warning(
            event.line,
            "the ledger already holds event '\(event.id)' with other values; what it learned first is kept, this copy is not imported"
          )
        }
        continue
      }
      if event.kind.isCharge,
        let transaction = event.event.transaction?.rawValue,
        let charge = knowledge.charges[transaction]
      {
        alreadyKnown += 1
        problems.warning(
          event.line,
          "transaction '\(transaction)' is already charged in the ledger as '\(charge.id.rawValue)'; this \(event.kind.name) of it ('\(event.id)') is not imported"
        )
        continue
      }
      kept.append(event)
    }
    return (kept, alreadyKnown)
  }

  /// Keeps one event per identity and orders them by `at`, then `id`.
  ///
  /// Copies of one event that differ only in `recorded` are redeliveries: the earliest
  /// `recorded` is kept, the first moment the fact was known. Copies that differ in content
  /// (the store re-signed a payload with different fields, or two copies disagree on purchase
  /// vs renewal) keep the copy of lowest `rank` (one that states its kind), then the copy
  /// signed earliest, ties broken by the smaller line text, and are reported as a warning;
  /// either way the choice does not depend on input order.
  /// - Complexity: O(n log n).
  static func collapse(_ events: [ImportedEvent], _ problems: inout ImportProblems) -> (
    events: [ImportedEvent], duplicateCount: Int
  ) {
    var groups: [String: [ImportedEvent]] = [:]
    for event in events { groups[event.identity, default: []].append(event) }
    var kept: [ImportedEvent] = []
    var duplicateCount = 0
    for (_, group) in groups {
      // Most events have one copy: nothing to compare, no need to serialize them here.
      if group.count == 1 {
        kept.append(group[0])
        continue
      }
      let ordered = group.map { (event: $0, line: $0.logLine) }.sorted {
        if $0.event.rank != $1.event.rank { return $0.event.rank < $1.event.rank }
        return $0.event.knownAt != $1.event.knownAt
          ? $0.event.knownAt < $1.event.knownAt : $0.line < $1.line
      }
      let chosen = ordered[0].event
      kept.append(chosen)
      duplicateCount += group.count - 1
      let content = chosen.event.withoutRecorded
      let differing = ordered.dropFirst().filter { $0.event.event.withoutRecorded != content }
      if !differing.isEmpty {
        let lines = Set(group.map(\.line)).sorted().map(String.init).joined(separator: ", ")
        let dropped = Set(differing.map(\.line)).sorted().joined(separator: " ")
        problems.warning(
          chosen.line,
          "copies of event '\(chosen.id)' (input lines \(lines)) differ in more than 'recorded'; kept the copy signed earliest (one stating its transactionReason first), \(ordered[0].line); dropped \(dropped)"
        )
      }
    }
    kept.sort { $0.at != $1.at ? $0.at < $1.at : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    return (kept, duplicateCount)
  }

  /// Diagnostics by line; within a line in the order found (the fields' order in the payload).
  private static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.enumerated().sorted {
      let a = $0.element.line ?? 0
      let b = $1.element.line ?? 0
      return a != b ? a < b : $0.offset < $1.offset
    }.map(\.element)
  }
}

/// How many payloads an import verified, for its summary (Docs/verification.md).
package struct ImportVerification: Sendable, Equatable {
  /// Payloads (notifications, transactions, status entries, ignored kinds) whose signatures
  /// all verified.
  package var verifiedPayloads = 0
  /// Payloads imported without verification (`--no-verify`).
  package var unverifiedPayloads = 0
  /// JWS verified, nested ones included.
  package var verifiedSignatures = 0
  /// Indices of the configured roots that verified a chain.
  package var rootsUsed: [Int] = []
  /// Xcode payloads (`--allow-xcode`): signed by Xcode's own key, never verified, their events
  /// marked `meta.verified: false`.
  package var xcodePayloads = 0

  /// Nothing verified, nothing unverified.
  package init(
    verifiedPayloads: Int = 0, unverifiedPayloads: Int = 0, verifiedSignatures: Int = 0, rootsUsed: [Int] = [],
    xcodePayloads: Int = 0
  ) {
    self.verifiedPayloads = verifiedPayloads
    self.unverifiedPayloads = unverifiedPayloads
    self.verifiedSignatures = verifiedSignatures
    self.rootsUsed = rootsUsed
    self.xcodePayloads = xcodePayloads
  }
}

/// The App Store importer's name for `ImportResult`, kept for existing callers.
package typealias AppStoreImport = ImportResult
