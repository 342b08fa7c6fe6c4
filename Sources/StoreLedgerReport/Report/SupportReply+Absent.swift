import StoreLedgerCore

extension SupportReply {
  /// Why an entitlement the customer holds at other times is not held at T; nil when the only
  /// reason is that the ledger did not know yet (`--as-of`), which a customer has no use for.
  static func absent(_ entitlement: String, answer: Holdings, subject: Symbol, ledger: Ledger, zone: CustomerZone) -> String? {
    let name = name(entitlement)
    // Blocked (contract v1.3): the block's reason is an internal note, not for the customer.
    if answer.blocked?[entitlement] != nil {
      return "Your \(name) access is on hold while our team reviews your account; please contact support."
    }
    let catalog = ledger.catalog
    let intervals = ledger.timeline(subject: subject, asOf: answer.asOf).entitlements.first { $0.0 == entitlement }?.1 ?? []
    let time = answer.at
    // Access can outlast the period (grace), so the day it stopped comes from the timeline, not the plan.
    let accessEnd = intervals.last(where: { ($0.to ?? .distantFuture) <= time })?.to
    if let (group, plan) = answer.plans.byName.first(where: { _, plan in
      catalog.index(of: plan.product.rawValue).map { catalog[$0].entitlements.contains(entitlement) } ?? false
    }) {
      let evidence = answer.explanation?.plans[group] ?? []
      return planEnded(
        name, plan: plan, accessEnd: accessEnd ?? plan.expires, trail: events(evidence, subject: subject, ledger: ledger),
        zone: zone)
    }
    if let next = intervals.first(where: { $0.from > time }), !intervals.contains(where: { $0.from <= time && (($0.to ?? .distantFuture) > time) }) {
      return "Your \(name) access starts on \(zone.day(next.from))."
    }
    guard let last = intervals.last(where: { ($0.to ?? .distantFuture) <= time }), let end = last.to else { return nil }
    let ending = events(AbsentEntitlement.ending(end, subject: subject, ledger: ledger), subject: subject, ledger: ledger)
    if let revocation = ending.last(where: { $0.kind == .revocation }) {
      return revoked(name, revocation, zone: zone)
    }
    // No account id in a reply: the customer may not know, or be, the receiving account.
    if ending.contains(where: \.isTransfer) {
      return "Your \(name) access moved to another account on \(zone.day(end))."
    }
    return "Your \(name) access ended on \(zone.day(end))."
  }

  /// A plan that grants the entitlement but not at T: paused for a failed payment, refunded, or over.
  static func planEnded(_ name: String, plan: Holdings.Plan, accessEnd: Timestamp, trail: [Event], zone: CustomerZone) -> String? {
    let stopped = zone.day(accessEnd)
    switch plan.state {
    case .billingRetry:
      return "Your \(name) access paused on \(stopped) because the renewal payment failed; "
        + "the store is still retrying it, and access returns as soon as a payment succeeds."
    case .revoked:
      guard let revocation = trail.last(where: { $0.kind == .revocation }) else {
        return "Your \(name) access has been withdrawn."
      }
      return revoked(name, revocation, zone: zone)
    case .expired:
      let reason = ExpirationReason(rawValue: trail.last { $0.kind == .expiration }?.reasonRaw ?? 255)
      switch reason {
      case .voluntary: return "Your \(name) subscription was cancelled; its access ended on \(stopped)."
      case .billing: return "Your \(name) subscription ended because the renewal payment could not be taken; its access ended on \(stopped)."
      case .priceIncrease: return "Your \(name) subscription ended because the new price was not accepted; its access ended on \(stopped)."
      default: return "Your \(name) subscription has ended; its access ended on \(stopped)."
      }
    case .active, .grace:
      return nil
    }
  }

  /// A revocation in words, by its reason.
  static func revoked(_ name: String, _ revocation: Event, zone: CustomerZone) -> String {
    let day = zone.day(revocation.at)
    switch RevocationReason(rawValue: revocation.reasonRaw) {
    case .refund: return "Your \(name) purchase was refunded on \(day), so its access ended then."
    case .familyRevoked: return "Your \(name) access through Family Sharing ended on \(day)."
    case .other, nil: return "Your \(name) access was withdrawn on \(day)."
    }
  }

  /// One feature's usage (`--usage`): `Decision sessions: 4 of 5 used today, 1 left; resets 6 Apr 2026.`
  static func usageSentence(_ usage: Holdings.FeatureUsage, feature: PolicyFeature, zone: CustomerZone) -> String? {
    let label = feature.label ?? feature.name
    guard let limit = usage.limit else { return "\(label): \(max(usage.used, 0)) used, no limit." }
    guard limit > 0, usage.tier != nil else { return "\(label) is not included in your plan." }
    let left = max(limit - usage.used, 0)
    return "\(label): \(max(usage.used, 0)) of \(limit) used, \(left) left"
      + (usage.windowEnds.map { "; resets \(zone.day($0))." } ?? ".")
  }
}
