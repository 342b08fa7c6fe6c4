import StoreLedger
import StoreLedgerReport

/// Readable renderings of query answers: why an entitlement is absent, `--format text`, `--during`.
enum QueryText {
  /// The answer in sentences: what was held, and why anything the subject holds at other
  /// times was not; with `current` (the answer at full knowledge) when it differs.
  static func text(
    _ answer: Holdings, absent: [AbsentEntitlement.Named], current: (Holdings, [AbsentEntitlement.Named])?, ledger: Ledger,
    explain: Bool = false
  ) -> String {
    // Each line is escaped whole (`TerminalText`): a value from the log cannot end a line or act on the terminal.
    var text = TerminalText.escaped("\(answer.subject.rawValue) at \(instant(answer.at))")
      + (answer.asOf.map { ", as known at \(instant($0))" } ?? ", as known now") + ":\n"
    text += body(answer, absent: absent, ledger: ledger, explain: explain)
    if let (now, nowAbsent) = current {
      text += "as known now:\n" + body(now, absent: nowAbsent, ledger: ledger, explain: explain)
    }
    return text
  }

  private static func body(_ answer: Holdings, absent: [AbsentEntitlement.Named], ledger: Ledger, explain: Bool) -> String {
    let subject = answer.subject.rawValue
    var lines: [String] = []
    for (entitlement, held) in answer.entitlements.byName {
      lines.append(
        "\(entitlement): yes, by "
          + AnswerWords.grant(
            product: held.product?.rawValue, state: held.state.name, ownership: held.ownership.name,
            period: held.period.name,
            until: accessEnd(state: held.state.name, expires: held.expires, graceExpires: held.graceExpires)))
      if explain {
        lines += decidedLines(held: answer.explanation?.entitlements[entitlement] ?? [], subject: subject, ledger: ledger)
      }
    }
    for missing in absent {
      lines.append("\(missing.entitlement): no: \(missing.absence.reason)")
      if explain { lines.append(decidedLine(absent: missing.absence, subject: subject, ledger: ledger)) }
    }
    if answer.entitlements.isEmpty && absent.isEmpty { lines.append("no entitlements") }
    for (group, plan) in answer.plans.byName {
      lines.append(
        "plan \(group): "
          + AnswerWords.plan(
            product: plan.product.rawValue, state: plan.state.name, expires: plan.expires, willRenew: plan.willRenew,
            renewsTo: plan.renewsTo?.rawValue, at: answer.at)
          + (plan.state.name == "grace" ? plan.graceExpires.map { " until \(instant(max($0, plan.expires)))" } ?? "" : "")
          + " (transaction \(plan.transaction.rawValue))")
    }
    for (currency, amount) in answer.balances.byName { lines.append("balance \(currency): \(amount)") }
    if let decision = answer.policy, let policy = ledger.catalog.policy {
      lines += AnswerWords.policy(decision, policy: policy, catalog: ledger.catalog)
    }
    return lines.map { "  " + TerminalText.escaped($0) + "\n" }.joined()
  }

  /// When access ends: in grace, the later of the grace end and the period end (a grace end
  /// before the instant asked about would read as if access had already stopped), else `expires`.
  static func accessEnd(state: String, expires: Timestamp?, graceExpires: Timestamp?) -> Timestamp? {
    guard state == "grace", let graceExpires else { return expires }
    return max(graceExpires, expires ?? graceExpires)
  }

  /// `5 Mar 2026 16:00 UTC`, or `5 Mar 2026` at midnight.
  static func instant(_ time: Timestamp) -> String { AnswerWords.instant(time) }
}

extension QueryText {
  /// The entitlement intervals of the subject that overlap `[from, to)`, clipped to it (full knowledge).
  static func during(
    subject: String, from: Timestamp, to: Timestamp, ledger: Ledger
  ) -> [(String, [SubjectTimeline.Interval])] {
    guard let timeline = ledger.timeline(named: subject) else { return [] }
    return timeline.entitlements.compactMap { entitlement, intervals in
      let clipped = intervals.compactMap { interval -> SubjectTimeline.Interval? in
        let end = interval.to ?? .distantFuture
        guard interval.from < to, end > from else { return nil }
        var cut = interval
        cut.from = max(interval.from, from)
        cut.to = min(end, to)
        return cut
      }
      return clipped.isEmpty ? nil : (entitlement, clipped)
    }
  }

  /// `--during` as JSON: `{"subject", "from", "to", "entitlements": {id: [{from, to, product, state, ownership, period}]}}`.
  static func duringJSON(subject: String, from: Timestamp, to: Timestamp, held: [(String, [SubjectTimeline.Interval])]) -> JSONValue {
    .object([
      ("subject", .string(subject)), ("from", .string(from.rfc3339)), ("to", .string(to.rfc3339)),
      (
        "entitlements",
        .object(
          held.map { entitlement, intervals in
            (
              entitlement,
              .array(
                intervals.map {
                  .object([
                    ("from", .string($0.from.rfc3339)), ("to", .string(($0.to ?? to).rfc3339)),
                    ("product", .string($0.product)), ("state", .string($0.state)),
                    ("ownership", .string($0.ownership)), ("period", .string($0.period)),
                  ])
                })
            )
          })
      ),
    ])
  }

  /// `--during` in sentences.
  static func duringText(subject: String, from: Timestamp, to: Timestamp, held: [(String, [SubjectTimeline.Interval])]) -> String {
    var text = TerminalText.escaped(subject) + " from \(instant(from)) to \(instant(to)), as known now:\n"
    if held.isEmpty { return text + "  no entitlement at any time in it\n" }
    for (entitlement, intervals) in held {
      for interval in intervals {
        text += "  " + TerminalText.escaped(
          "\(entitlement): from \(instant(interval.from)) to \(instant(interval.to ?? to)) (\(interval.product), \(interval.state))")
          + "\n"
      }
    }
    return text
  }

}
