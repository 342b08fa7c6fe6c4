import StoreLedger
import StoreLedgerReport

/// `query --explain --format text`: under each yes and no, the event that decided it, in words,
/// when it took effect and when the ledger learned of it.
extension QueryText {
  /// How many later events (auto-renew, plan changes) are listed after the deciding one before "and N more".
  static let laterEventsShownMax = 3

  /// The lines under a held entitlement: the last event that set its state, then what changed since.
  static func decidedLines(held evidence: [Holdings.EventReference], subject: String, ledger: Ledger) -> [String] {
    let trail = events(evidence, subject: subject, ledger: ledger)
    // Auto-renew and plan changes shape what happens next, not whether access holds now.
    guard let deciding = trail.lastIndex(where: { $0.kind != .autoRenewChanged && $0.kind != .planChanged }) else {
      return ["  decided by: no event of the log (nothing cited)"]
    }
    var lines = ["  decided by: " + words(trail[deciding], ledger: ledger)]
    // The transfers that made this subject the unit's owner (contract v1.3, section 9).
    for transfer in trail where transfer.kind == .transfer {
      lines.append("  owned through: " + words(transfer, ledger: ledger))
    }
    let later = trail[(deciding + 1)...].filter { $0.kind != .transfer }
    lines += later.prefix(laterEventsShownMax).map { "  since then: " + words($0, ledger: ledger) }
    if later.count > laterEventsShownMax { lines.append("  since then: and \(later.count - laterEventsShownMax) more") }
    return lines
  }

  /// The line under an absent entitlement: the last event its reason cites, or why none does.
  static func decidedLine(absent: Holdings.Absence, subject: String, ledger: Ledger) -> String {
    guard let last = events(absent.events, subject: subject, ledger: ledger).last else {
      return "  decided by: no event: the grant ran out, or starts later (as said above)"
    }
    return "  decided by: " + words(last, ledger: ledger)
  }

  /// `renewal (event gr-g3, line 4), took effect 25 Feb 2026 13:00 UTC, learned 9 Mar 2026 08:00 UTC (12 days late)`.
  static func words(_ event: Event, ledger: Ledger) -> String {
    "\(EventWords.kind(event, catalog: ledger.catalog)) (event \(ledger.symbols.ids.string(event.id)), line \(event.line)), "
      + "took effect \(instant(event.at)), learned \(instant(event.recorded))"
      + (EventWords.lateness(at: event.at, recorded: event.recorded).map { " (\($0))" } ?? "")
  }

  /// The subject's events that `evidence` cites, in effective order.
  /// A subject some transfer names may cite other subjects' lines: the unit's and the transfers.
  private static func events(_ evidence: [Holdings.EventReference], subject: String, ledger: Ledger) -> [Event] {
    let lines = Set(evidence.map(\.line))
    var pool = ledger.subject(named: subject).map { Array(ledger.events(of: $0)) } ?? []
    if let party = ledger.owners.party(named: subject) {
      let units = ledger.owners.unitsOfParty[Int(party)].map { ledger.owners.units[Int($0)] }
      for member in Set(units.flatMap(ledger.owners.subjects(of:))) where ledger.subject(named: subject) != member {
        pool += ledger.events(of: member)
      }
    }
    var seen = Set<UInt32>()
    return pool.filter { lines.contains(Int($0.line)) && seen.insert($0.line).inserted }.sorted(by: Event.effectiveOrder)
  }
}
