import StoreLedger

/// Contract v1.3 §10: what a support team and compliance services do to a customer's access.
extension HouseholdSimulator {
  /// Some customers get a grant from support, some are blocked by a service for a while.
  mutating func supportStory(subject: UInt32, arrival: Int64) {
    if random.chance(Contract13Rates.supportGrant) {
      supportGrant(subject: subject, at: arrival + random.between(0, 300 * Span.day))
    }
    if random.chance(Contract13Rates.block) {
      blockStory(subject: subject, at: arrival + random.between(Span.hour, 200 * Span.day))
    }
  }

  /// A grant (an outage credit, a beta tester's access for ever, a retention offer), sometimes
  /// revoked by `grant_revoked`, now and then at its own instant.
  private mutating func supportGrant(subject: UInt32, at: Int64) {
    guard at < horizonAt else { return }
    var grant = GeneratedEvent(.grant, subject: subject, at: at)
    let which = random.below(100)
    grant.entitlements = which < 70 ? .pro : which < 85 ? .cloud : [.pro, .cloud]
    switch random.below(3) {
    case 0:
      grant.reason = .outageCredit
      grant.expiresAt = at + random.between(3 * Span.day, 30 * Span.day)
    case 1:
      grant.reason = .betaTester
    default:
      grant.reason = .retentionOffer
      grant.expiresAt = at + random.between(30 * Span.day, 90 * Span.day)
    }
    let number = record(grant)
    // The app asks the ledger, so its customer uses `pro` while the grant lasts.
    let grantEnd = grant.expiresAt == .min ? endAt : grant.expiresAt
    guard random.chance(Contract13Rates.grantRevoked) else {
      if grant.entitlements.contains(.pro) { grantPro(subject, from: at, to: grantEnd) }
      return
    }
    let end = grant.expiresAt == .min ? at + 120 * Span.day : grant.expiresAt
    let revokedAt = random.chance(Contract13Rates.grantRevokedAtOnce) ? at : random.between(at + Span.hour, end)
    if grant.entitlements.contains(.pro) { grantPro(subject, from: at, to: min(grantEnd, revokedAt)) }
    guard revokedAt < horizonAt else { return }
    var revoked = GeneratedEvent(.grantRevoked, subject: subject, at: revokedAt)
    revoked.grantNumber = number
    if random.chance(500_000) { revoked.reason = .grantedByMistake }
    record(revoked)
  }

  /// A block by fraud review (everything), parental consent (`pro`) or a chargeback
  /// (everything), sometimes blocked again by the same service, mostly lifted later.
  private mutating func blockStory(subject: UInt32, at: Int64) {
    guard at < horizonAt else { return }
    let service: GeneratedService = [.fraud, .consent, .chargeback][Int(random.below(3))]
    var block = GeneratedEvent(.block, subject: subject, at: at)
    block.service = service
    switch service {
    case .fraud: block.reason = .chargebackFiled
    case .consent:
      block.entitlements = .pro
      block.reason = .consentPending
    case .chargeback: break
    }
    record(block)
    var lastAt = at
    if random.chance(Contract13Rates.blockAgain) {
      // The same service blocks again: its `since` moves to the new block.
      lastAt += random.between(Span.day, 10 * Span.day)
      guard lastAt < horizonAt else {
        blockedSpans.append(ProSpan(subject: subject, from: at, to: endAt))
        return
      }
      block.at = lastAt
      record(block)
    }
    // Every service's block denies `pro`; the app, asking the ledger, stops offering it.
    guard random.chance(Contract13Rates.unblock) else {
      blockedSpans.append(ProSpan(subject: subject, from: at, to: endAt))
      return
    }
    let unblockAt = lastAt + random.between(Span.day, 45 * Span.day)
    blockedSpans.append(ProSpan(subject: subject, from: at, to: min(unblockAt, endAt)))
    guard unblockAt < horizonAt else { return }
    var unblock = GeneratedEvent(.unblock, subject: subject, at: unblockAt)
    unblock.service = service
    if random.chance(500_000) { unblock.reason = .cleared }
    record(unblock)
  }
}
