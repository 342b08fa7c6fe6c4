/// Why an entitlement the subject holds at some time is not held at T (`--explain`'s `absent`):
/// each as a `Holdings.Absence` under the entitlement's name.
package enum AbsentEntitlement {
  /// An absence and the entitlement it is of.
  package typealias Named = (entitlement: String, absence: Holdings.Absence)

  /// Fills the `absent` of an explained answer and returns its absences in the order `all` gives.
  /// - Complexity: as `all`.
  @discardableResult
  package static func explain(_ answer: inout Holdings, ledger: Ledger) -> [Named] {
    let absent = all(from: answer, ledger: ledger)
    answer.explanation?.absent = Dictionary(absent.map { ($0.entitlement, $0.absence) }, uniquingKeysWith: { first, _ in first })
    return absent
  }

  /// Why each entitlement the subject ever holds (at full knowledge) is absent from `answer`.
  /// - Complexity: O(events of the subject · instants), via the subject's timeline.
  package static func all(from answer: Holdings, ledger: Ledger) -> [Named] {
    guard let symbol = ledger.subject(named: answer.subject.rawValue) else { return [] }
    let timeline = ledger.timeline(subject: symbol)
    var result: [Named] = []
    func add(_ entitlement: String, _ reason: String, _ evidence: [Holdings.EventReference]) {
      result.append((entitlement, Holdings.Absence(reason: reason, events: evidence)))
    }
    for (entitlement, intervals) in timeline.entitlements where answer.entitlements[entitlement] == nil {
      let t = answer.at
      if let blocked = answer.blocked?[entitlement] {
        result.append(blockedAbsence(entitlement, blocked, subject: symbol, ledger: ledger))
        continue
      }
      // A plan in the answer whose product grants this entitlement but does not now (the first by group).
      if let (group, plan) = answer.plans.byName.first(where: { _, plan in
        ledger.catalog.index(of: plan.product.rawValue).map { ledger.catalog[$0].entitlements.contains(entitlement) } ?? false
      }) {
        let evidence = answer.explanation?.plans[group] ?? []
        add(
          entitlement,
          "the plan \(group) (\(plan.product.rawValue), transaction \(plan.transaction.rawValue)) is \(plan.state.name)"
            + describe(evidence, subject: symbol, ledger: ledger), evidence)
        continue
      }
      if let current = intervals.first(where: { $0.from <= t && ($0.to.map { t < $0 } ?? true) }) {
        add(
          entitlement,
          "held then as known now (\(current.product) from \(AnswerWords.instant(current.from))), "
            + "but not yet known at \(answer.asOf.map(AnswerWords.instant) ?? "then")", [])
      } else if let next = intervals.first(where: { $0.from > t }) {
        let before = intervals.last(where: { ($0.to ?? .distantFuture) <= t })
        let evidence = ending(before?.to, subject: symbol, ledger: ledger)
        add(
          entitlement,
          (before.map { "it ended at \(AnswerWords.instant($0.to!)) (\($0.product)); " } ?? "")
            + "it starts at \(AnswerWords.instant(next.from)) (\(next.product))"
            + describe(evidence, subject: symbol, ledger: ledger), evidence)
      } else if let last = intervals.last, let end = last.to {
        let evidence = ending(end, subject: symbol, ledger: ledger)
        // A unit given away is not in a state of its own here: the transfer is what ended it.
        let how = recipient(of: evidence, subject: symbol, ledger: ledger).map { "transferred to \($0)" } ?? last.state
        add(
          entitlement,
          "it ended at \(AnswerWords.instant(end)) (\(last.product), \(how))"
            + describe(evidence, subject: symbol, ledger: ledger), evidence)
      }
    }
    // Blocked from its first instant, an entitlement is in no interval of the timeline: still say why.
    for (entitlement, blocked) in (answer.blocked ?? [:]).byName where !result.contains(where: { $0.entitlement == entitlement }) {
      result.append(blockedAbsence(entitlement, blocked, subject: symbol, ledger: ledger))
    }
    return result
  }

  /// An entitlement that would be active but is blocked (contract v1.3): who blocks it since
  /// when and why, with the deciding `block` events.
  static func blockedAbsence(
    _ entitlement: String, _ blockers: [Holdings.Blocker], subject: Symbol, ledger: Ledger
  ) -> Named {
    let events = ledger.events(of: subject)
    let evidence = blockers.compactMap { blocker in
      events.last { $0.kind == .block && $0.at == blocker.since && ledger.symbols.transactions.string($0.service) == blocker.service }
        .map(ledger.reference)
    }
    let services = blockers.map { blocker in
      // Plain text: the printers escape whole lines for terminals, JSON escapes its strings.
      "\(blocker.service) since \(AnswerWords.instant(blocker.since))" + (blocker.reason.map { " (\($0))" } ?? "")
    }
    return (
      entitlement,
      Holdings.Absence(
        reason: "blocked by " + services.joined(separator: ", ") + describe(evidence, subject: subject, ledger: ledger),
        events: evidence)
    )
  }

  /// The subject's revocations, expirations and transfers away effective at `end`: what ended
  /// a grant then (none when it simply ran out). A transfer's `subject` is the giving owner, so
  /// the subject's own transfers at `end` are the ones that took a unit from it (contract v1.3, section 9).
  package static func ending(_ end: Timestamp?, subject: Symbol, ledger: Ledger) -> [Holdings.EventReference] {
    guard let end else { return [] }
    return ledger.events(of: subject)
      .filter { $0.at == end && ($0.kind == .revocation || $0.kind == .expiration || $0.isTransfer) }
      .map(ledger.reference)
  }

  /// The receiving subject of the last transfer `evidence` cites among the subject's events, if any.
  static func recipient(of evidence: [Holdings.EventReference], subject: Symbol, ledger: Ledger) -> String? {
    let lines = Set(evidence.map(\.line))
    return ledger.events(of: subject).last { $0.isTransfer && lines.contains(Int($0.line)) }
      .map { ledger.symbols.transactions.string($0.transferRecipient) }
  }

  /// `; events e6 (line 6: revocation, refund, effective 4 Mar 2026 16:00 UTC, learned 9 Mar 2026 08:00 UTC)`.
  package static func describe(_ evidence: [Holdings.EventReference], subject: Symbol, ledger: Ledger) -> String {
    guard !evidence.isEmpty else { return "" }
    let events = ledger.events(of: subject)
    let texts = evidence.map { item -> String in
      guard let event = events.first(where: { Int($0.line) == item.line }) else { return "\(item.id.rawValue) (line \(item.line))" }
      var text = "\(item.id.rawValue) (line \(item.line): \(event.kind.name)"
      if event.kind == .revocation, let reason = RevocationReason(rawValue: event.reasonRaw) { text += ", \(reason.name)" }
      if event.isTransfer { text += " to \(ledger.symbols.transactions.string(event.transferRecipient))" }
      text += ", effective \(AnswerWords.instant(event.at))"
      if event.recorded != event.at { text += ", learned \(AnswerWords.instant(event.recorded))" }
      return text + ")"
    }
    return "; events " + texts.joined(separator: ", ")
  }

}
