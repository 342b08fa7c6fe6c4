import StoreLedger

/// Why an entitlement the subject holds at some time is not held at T.
/// An event named by its id and line.
typealias EventRef = (id: String, line: Int)

struct AbsentEntitlement {
  /// The entitlement id.
  let entitlement: String
  /// One sentence: the state of the plan, when the grant starts or ended, or what was not yet known.
  let reason: String
  /// The events behind it (the plan's deciding events, or what ended the grant), possibly none.
  let evidence: [EventRef]
}

/// Readable renderings of query answers: why an entitlement is absent, `--format text`, `--during`.
enum QueryText {
  /// Why each entitlement the subject ever holds (at full knowledge) is absent from `answer`.
  /// - Complexity: O(events of the subject · instants), via the subject's timeline.
  static func absent(from answer: Answer, ledger: Ledger) -> [AbsentEntitlement] {
    guard let symbol = ledger.subject(named: answer.subject) else { return [] }
    let timeline = ledger.timeline(subject: symbol)
    let held = Set(answer.entitlements.map(\.entitlement))
    var result: [AbsentEntitlement] = []
    for (entitlement, intervals) in timeline.entitlements where !held.contains(entitlement) {
      let t = answer.at
      // A plan in the answer whose product grants this entitlement but does not now.
      if let plan = answer.plans.first(where: { plan in
        ledger.catalog.index(of: plan.product).map { ledger.catalog[$0].entitlements.contains(entitlement) } ?? false
      }) {
        let evidence = (answer.explanation?.plans.first { $0.0 == plan.group }?.1 ?? []).map { EventRef($0.id, $0.line) }
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: "the plan \(plan.group) (\(plan.product), transaction \(plan.transaction)) is \(plan.state)"
              + describe(evidence, subject: symbol, ledger: ledger),
            evidence: evidence))
        continue
      }
      if let current = intervals.first(where: { $0.from <= t && ($0.to.map { t < $0 } ?? true) }) {
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: "held then as known now (\(current.product) from \(instant(current.from))), "
              + "but not yet known at \(answer.asOf.map(instant) ?? "then")",
            evidence: []))
      } else if let next = intervals.first(where: { $0.from > t }) {
        let before = intervals.last(where: { ($0.to ?? .distantFuture) <= t })
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: (before.map { "it ended at \(instant($0.to!)) (\($0.product)); " } ?? "")
              + "it starts at \(instant(next.from)) (\(next.product))"
              + describe(ending(before?.to, subject: symbol, ledger: ledger), subject: symbol, ledger: ledger),
            evidence: ending(before?.to, subject: symbol, ledger: ledger)))
      } else if let last = intervals.last, let end = last.to {
        result.append(
          AbsentEntitlement(
            entitlement: entitlement,
            reason: "it ended at \(instant(end)) (\(last.product), \(last.state))"
              + describe(ending(end, subject: symbol, ledger: ledger), subject: symbol, ledger: ledger),
            evidence: ending(end, subject: symbol, ledger: ledger)))
      }
    }
    return result
  }

  /// The subject's revocations and expirations effective at `end`: what ended a grant then
  /// (none when it simply ran out).
  static func ending(_ end: Timestamp?, subject: Symbol, ledger: Ledger) -> [EventRef] {
    guard let end else { return [] }
    return ledger.events(of: subject).filter { $0.at == end && ($0.kind == .revocation || $0.kind == .expiration) }
      .map { EventRef(ledger.symbols.ids.string($0.id), Int($0.line)) }
  }

  /// `; events e6 (line 6: revocation, refund, effective 4 Mar 2026 16:00 UTC, learned 9 Mar 2026 08:00 UTC)`.
  static func describe(_ evidence: [EventRef], subject: Symbol, ledger: Ledger) -> String {
    guard !evidence.isEmpty else { return "" }
    let events = ledger.events(of: subject)
    let texts = evidence.map { item -> String in
      guard let event = events.first(where: { Int($0.line) == item.line }) else { return "\(item.id) (line \(item.line))" }
      var text = "\(item.id) (line \(item.line): \(event.kind.name)"
      if event.kind == .revocation, let reason = RevocationReason(rawValue: event.reasonRaw) { text += ", \(reason.name)" }
      text += ", effective \(instant(event.at))"
      if event.recorded != event.at { text += ", learned \(instant(event.recorded))" }
      return text + ")"
    }
    return "; events " + texts.joined(separator: ", ")
  }

  /// The answer in sentences: what was held, and why anything the subject holds at other
  /// times was not; with `current` (the answer at full knowledge) when it differs.
  static func text(
    _ answer: Answer, absent: [AbsentEntitlement], current: (Answer, [AbsentEntitlement])?, ledger: Ledger
  ) -> String {
    // Each line is escaped whole (`TerminalText`): a value from the log cannot end a line or act on the terminal.
    var text = TerminalText.escaped("\(answer.subject) at \(instant(answer.at))")
      + (answer.asOf.map { ", as known at \(instant($0))" } ?? ", as known now") + ":\n"
    text += body(answer, absent: absent, ledger: ledger)
    if let (now, nowAbsent) = current {
      text += "as known now:\n" + body(now, absent: nowAbsent, ledger: ledger)
    }
    return text
  }

  private static func body(_ answer: Answer, absent: [AbsentEntitlement], ledger: Ledger) -> String {
    var lines: [String] = []
    for held in answer.entitlements {
      lines.append(
        "\(held.entitlement): yes, by "
          + AnswerWords.grant(
            product: held.product, state: held.state, ownership: held.ownership, period: held.period, until: held.expires))
    }
    for missing in absent { lines.append("\(missing.entitlement): no: \(missing.reason)") }
    if answer.entitlements.isEmpty && absent.isEmpty { lines.append("no entitlements") }
    for plan in answer.plans {
      lines.append(
        "plan \(plan.group): "
          + AnswerWords.plan(
            product: plan.product, state: plan.state, expires: plan.expires, willRenew: plan.willRenew,
            renewsTo: plan.renewsTo, at: answer.at)
          + " (transaction \(plan.transaction))")
    }
    for balance in answer.balances { lines.append("balance \(balance.currency): \(balance.amount)") }
    if let decision = answer.policy, let policy = ledger.catalog.policy {
      lines += AnswerWords.policy(decision, policy: policy, catalog: ledger.catalog)
    }
    return lines.map { "  " + TerminalText.escaped($0) + "\n" }.joined()
  }

  /// `5 Mar 2026 16:00 UTC`, or `5 Mar 2026` at midnight.
  static func instant(_ time: Timestamp) -> String {
    let text = time.rfc3339  // 2026-03-05T16:00:00Z or with .mmm
    let date = day(time)
    let clock = text.dropFirst(11).prefix(8)
    if clock == "00:00:00" && !text.contains(".") { return date }
    return date + " " + (clock.hasSuffix(":00") ? String(clock.prefix(5)) : String(clock)) + " UTC"
  }

  /// `5 Mar 2026`.
  static func day(_ time: Timestamp) -> String {
    let text = time.rfc3339
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let parts = text.prefix(10).split(separator: "-")
    guard parts.count == 3, let month = Int(parts[1]), let dayOfMonth = Int(parts[2]) else { return text }
    return "\(dayOfMonth) \(months[month - 1]) \(parts[0])"
  }
}

extension QueryText {
  /// The entitlement intervals of the subject that overlap `[from, to)`, clipped to it (full knowledge).
  static func during(
    subject: String, from: Timestamp, to: Timestamp, ledger: Ledger
  ) -> [(String, [SubjectTimeline.Interval])] {
    guard let symbol = ledger.subject(named: subject) else { return [] }
    return ledger.timeline(subject: symbol).entitlements.compactMap { entitlement, intervals in
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

  /// `explain.absent` for JSON answers: `{id: {"reason": …, "events": [{id, line}]}}`.
  static func withAbsent(_ json: JSONValue, _ absent: [AbsentEntitlement]) -> JSONValue {
    guard case .object(var members) = json, let index = members.firstIndex(where: { $0.0 == "explain" }),
      case .object(var explain) = members[index].1
    else { return json }
    explain.append(
      (
        "absent",
        .object(
          absent.map {
            (
              $0.entitlement,
              .object([
                ("reason", .string($0.reason)),
                ("events", .array($0.evidence.map { .object([("id", .string($0.id)), ("line", .integer(Int64($0.line)))]) })),
              ])
            )
          })
      ))
    explain.sort { $0.0 < $1.0 }
    members[index].1 = .object(explain)
    return .object(members)
  }
}
