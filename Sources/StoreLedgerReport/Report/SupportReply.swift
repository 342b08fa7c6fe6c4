import StoreLedgerCore

/// An answer as sentences a support agent can paste to a customer (`query --format reply`):
/// no ids, no state names, dates in the customer's zone, usage only when asked.
///
/// Every sentence restates the answer beside it and nothing more: access, its end, why it ended
/// or paused. The grace end and the day a payment failed come from the events the explanation
/// cites (`grace_entered`, `billing_retry`), so the answer must be explained.
package enum SupportReply {
  /// The reply's sentences for `answer` (built with `explain: true`), one per line.
  /// - Complexity: O(events of the subject · instants), via the subject's timeline.
  package static func sentences(_ answer: Holdings, ledger: Ledger, zone: CustomerZone, usage: Bool) -> [String] {
    guard let subject = ledger.subject(named: answer.subject.rawValue) else {
      return ["We could not find any purchases for this account."]
    }
    var sentences = answer.entitlements.byName.map {
      held($0.key, $0.value, answer: answer, subject: subject, ledger: ledger, zone: zone)
    }
    sentences += AbsentEntitlement.all(from: answer, ledger: ledger).compactMap {
      absent($0.entitlement, answer: answer, subject: subject, ledger: ledger, zone: zone)
    }
    if sentences.isEmpty { sentences.append("You have no active purchases.") }
    for (currency, amount) in answer.balances.byName { sentences.append("Your \(currency) balance is \(amount).") }
    if usage, let decision = answer.policy, let policy = ledger.catalog.policy {
      // In the policy's order of features (by name).
      sentences += policy.features.compactMap { feature in
        decision.usage[feature.name].flatMap { usageSentence($0, feature: feature, zone: zone) }
      }
    }
    return sentences
  }

  /// `Pro` for the entitlement `pro`.
  static func name(_ entitlement: String) -> String { entitlement.prefix(1).uppercased() + entitlement.dropFirst() }

  /// The events behind `evidence`, in effective order.
  static func events(_ evidence: [Holdings.EventReference], subject: Symbol, ledger: Ledger) -> [Event] {
    let lines = Set(evidence.map(\.line))
    return ledger.events(of: subject).filter { lines.contains(Int($0.line)) }
  }

  /// One entitlement held at T.
  static func held(
    _ entitlement: String, _ held: Holdings.Entitlement, answer: Holdings, subject: Symbol, ledger: Ledger, zone: CustomerZone
  ) -> String {
    let name = name(entitlement)
    let evidence = answer.explanation?.entitlements[entitlement] ?? []
    let trail = events(evidence, subject: subject, ledger: ledger)
    let failure = trail.last { $0.kind == .graceEntered || $0.kind == .billingRetry }
    if held.ownership == .granted {
      return held.expires.map { "Our support team has given you \(name) until \(zone.day($0))." }
        ?? "Our support team has given you \(name) with no end date."
    }
    guard let end = held.expires else { return "You have \(name) with no end date." }
    switch held.state {
    case .grace, .billingRetry:
      // In grace the period has ended and access runs to the grace end; in billing retry it runs to the period end.
      let accessEnd =
        held.state == .grace ? held.graceExpires ?? max(failure.map { $0.hasExpires ? $0.expires : end } ?? end, end) : end
      let failed = failure.map { " that failed on \(zone.day($0.at, omittingYearOf: accessEnd))" } ?? ""
      return "Your \(name) access continues until \(zone.day(accessEnd)) while the store retries the payment\(failed)."
    default:
      break
    }
    let product = held.product.flatMap { ledger.catalog.index(of: $0.rawValue) }.map { ledger.catalog[$0] }
    guard product?.kind == .autoRenewable else { return "You have \(name) until \(zone.day(end))." }
    // The first such plan by group.
    let plan = answer.plans.byName.first { $0.value.product == held.product && $0.value.ownership == held.ownership }?.value
    let renews = plan?.willRenew ?? (held.ownership == .purchased)
    if held.ownership == .familyShared {
      return "You have \(name) through Family Sharing until \(zone.day(end))."
    }
    let what = held.period == .trial ? "free trial of \(name)" : "\(name) subscription"
    return renews
      ? "Your \(what) is active and renews on \(zone.day(end))."
      : "Your \(what) is active until \(zone.day(end)); it will not renew because auto-renew is off."
  }
}
