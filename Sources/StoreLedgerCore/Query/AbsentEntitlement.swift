/// Why an entitlement the subject holds at some time is not held at T (`--explain`'s `absent`).
package struct AbsentEntitlement: Sendable, Equatable {
  /// The entitlement id.
  package var entitlement: String
  /// One sentence: the state of the plan, when the grant starts or ended, or what was not yet known.
  package var reason: String
  /// The events behind it (the plan's deciding events, or what ended the grant), possibly none.
  package var evidence: [Evidence]

  /// Creates a value from all its stored properties (the memberwise initializer, for other targets).
  package init(entitlement: String, reason: String, evidence: [Evidence]) {
    self.entitlement = entitlement
    self.reason = reason
    self.evidence = evidence
  }
}

extension AbsentEntitlement {
  /// Why each entitlement the subject ever holds (at full knowledge) is absent from `answer`.
  /// - Complexity: O(events of the subject · instants), via the subject's timeline.
  package static func all(from answer: Answer, ledger: Ledger) -> [AbsentEntitlement] {
    guard let symbol = ledger.subject(named: answer.subject) else { return [] }
    let timeline = ledger.timeline(subject: symbol)
    let held = Set(answer.entitlements.map(\.entitlement))
    var result: [AbsentEntitlement] = []
    for (entitlement, intervals) in timeline.entitlements where !held.contains(entitlement) {
      let t = answer.at
      if let blocked = answer.blocked?.first(where: { $0.entitlement == entitlement }) {
        result.append(blockedAbsence(blocked, subject: symbol, ledger: ledger))
        continue
      }
      // A plan in the answer whose product grants this entitlement but does not now.
      if let plan = answer.plans.first(where: { plan in
        ledger.catalog.index(of: plan.product).map { ledger.catalog[$0].entitlements.contains(entitlement) } ?? false
      }) {
        let evidence = (answer.explanation?.plans.first { $0.0 == plan.group }?.1 ?? [])
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: "the plan \(plan.group) (\(plan.product), transaction \(plan.transaction)) is \(plan.state.name)"
              + describe(evidence, subject: symbol, ledger: ledger),
            evidence: evidence))
        continue
      }
      if let current = intervals.first(where: { $0.from <= t && ($0.to.map { t < $0 } ?? true) }) {
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: "held then as known now (\(current.product) from \(AnswerWords.instant(current.from))), "
              + "but not yet known at \(answer.asOf.map(AnswerWords.instant) ?? "then")",
            evidence: []))
      } else if let next = intervals.first(where: { $0.from > t }) {
        let before = intervals.last(where: { ($0.to ?? .distantFuture) <= t })
        let evidence = ending(before?.to, subject: symbol, ledger: ledger)
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: (before.map { "it ended at \(AnswerWords.instant($0.to!)) (\($0.product)); " } ?? "")
              + "it starts at \(AnswerWords.instant(next.from)) (\(next.product))"
              + describe(evidence, subject: symbol, ledger: ledger),
            evidence: evidence))
      } else if let last = intervals.last, let end = last.to {
        let evidence = ending(end, subject: symbol, ledger: ledger)
        // A unit given away is not in a state of its own here: the transfer is what ended it.
        let how = recipient(of: evidence, subject: symbol, ledger: ledger).map { "transferred to \($0)" } ?? last.state
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: "it ended at \(AnswerWords.instant(end)) (\(last.product), \(how))"
              + describe(evidence, subject: symbol, ledger: ledger),
            evidence: evidence))
      }
    }
    // Blocked from its first instant, an entitlement is in no interval of the timeline: still say why.
    for blocked in answer.blocked ?? [] where !result.contains(where: { $0.entitlement == blocked.entitlement }) {
      result.append(blockedAbsence(blocked, subject: symbol, ledger: ledger))
    }
    return result
  }

  /// An entitlement that would be active but is blocked (contract v1.3): who blocks it since
  /// when and why, with the deciding `block` events.
  static func blockedAbsence(_ blocked: BlockedAnswer, subject: Symbol, ledger: Ledger) -> AbsentEntitlement {
    let events = ledger.events(of: subject)
    let evidence = blocked.services.compactMap { blocker in
      events.last { $0.kind == .block && $0.at == blocker.since && ledger.symbols.transactions.string($0.service) == blocker.service }
        .map { Evidence(id: ledger.symbols.ids.string($0.id), line: Int($0.line)) }
    }
    let services = blocked.services.map { blocker in
      // Plain text: the printers escape whole lines for terminals, JSON escapes its strings.
      "\(blocker.service) since \(AnswerWords.instant(blocker.since))" + (blocker.reason.map { " (\($0))" } ?? "")
    }
    return AbsentEntitlement(
      entitlement: blocked.entitlement, reason: "blocked by " + services.joined(separator: ", ")
        + describe(evidence, subject: subject, ledger: ledger), evidence: evidence)
  }

  /// The subject's revocations, expirations and transfers away effective at `end`: what ended
  /// a grant then (none when it simply ran out). A transfer's `subject` is the giving owner, so
  /// the subject's own transfers at `end` are the ones that took a unit from it (contract v1.3, section 9).
  package static func ending(_ end: Timestamp?, subject: Symbol, ledger: Ledger) -> [Evidence] {
    guard let end else { return [] }
    return ledger.events(of: subject)
      .filter { $0.at == end && ($0.kind == .revocation || $0.kind == .expiration || $0.isTransfer) }
      .map { Evidence(id: ledger.symbols.ids.string($0.id), line: Int($0.line)) }
  }

  /// The receiving subject of the last transfer `evidence` cites among the subject's events, if any.
  static func recipient(of evidence: [Evidence], subject: Symbol, ledger: Ledger) -> String? {
    let lines = Set(evidence.map(\.line))
    return ledger.events(of: subject).last { $0.isTransfer && lines.contains(Int($0.line)) }
      .map { ledger.symbols.transactions.string($0.transferRecipient) }
  }

  /// `; events e6 (line 6: revocation, refund, effective 4 Mar 2026 16:00 UTC, learned 9 Mar 2026 08:00 UTC)`.
  package static func describe(_ evidence: [Evidence], subject: Symbol, ledger: Ledger) -> String {
    guard !evidence.isEmpty else { return "" }
    let events = ledger.events(of: subject)
    let texts = evidence.map { item -> String in
      guard let event = events.first(where: { Int($0.line) == item.line }) else { return "\(item.id) (line \(item.line))" }
      var text = "\(item.id) (line \(item.line): \(event.kind.name)"
      if event.kind == .revocation, let reason = RevocationReason(rawValue: event.reasonRaw) { text += ", \(reason.name)" }
      if event.isTransfer { text += " to \(ledger.symbols.transactions.string(event.transferRecipient))" }
      text += ", effective \(AnswerWords.instant(event.at))"
      if event.recorded != event.at { text += ", learned \(AnswerWords.instant(event.recorded))" }
      return text + ")"
    }
    return "; events " + texts.joined(separator: ", ")
  }

}
