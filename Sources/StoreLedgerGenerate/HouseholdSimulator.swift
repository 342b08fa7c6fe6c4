import StoreLedger

/// Lengths of time in milliseconds.
enum Span {
  static let second: Int64 = 1000
  static let minute: Int64 = 60_000
  static let hour: Int64 = 3_600_000
  static let day: Int64 = 86_400_000
}

/// The rates of the simulation, in parts per million unless named otherwise.
///
/// Chosen to resemble a mid-sized subscription app: mostly monthly and annual
/// subscribers, a few percent of renewals failing billing, refunds near 1.5 %
/// of paid transactions, and pipeline faults at the rates webhook consumers see.
enum Rates {
  // Household profiles, per mille; the remainder browse without buying much.
  static let subscriberPerMille: UInt64 = 540
  static let lifetimePerMille: UInt64 = 80
  static let passesPerMille: UInt64 = 60
  static let gamerPerMille: UInt64 = 290

  static let cloudGroup: UInt64 = 180_000
  static let family: UInt64 = 100_000
  static let secondGroup: UInt64 = 50_000
  static let subscriberAlsoBuysCoins: UInt64 = 200_000
  static let annualPlan: UInt64 = 300_000
  static let cloudPlusTier: UInt64 = 250_000

  static let askToBuy: UInt64 = 40_000
  static let askToBuyDeclined: UInt64 = 150_000

  static let trialOffer: UInt64 = 250_000
  static let introOffer: UInt64 = 120_000
  static let codeOffer: UInt64 = 20_000
  static let promoRenewal: UInt64 = 10_000
  static let winBack: UInt64 = 250_000
  static let winBackOffer: UInt64 = 500_000

  // Per billing period.
  static let cancelInTrial: UInt64 = 350_000
  static let cancelInIntro: UInt64 = 100_000
  static let cancelMonthly: UInt64 = 45_000
  static let cancelAnnual: UInt64 = 250_000
  static let reenableAutoRenew: UInt64 = 200_000
  static let upgrade: UInt64 = 25_000
  static let downgrade: UInt64 = 40_000
  static let periodExtension: UInt64 = 3_000
  static let priceIncreaseExpiry: UInt64 = 2_000
  static let memberLeaves: UInt64 = 10_000

  // Billing failures at renewal: half enter a grace period, half go straight to retry.
  static let billingFailure: UInt64 = 40_000
  static let grace: UInt64 = 500_000
  static let recoveryInGrace: UInt64 = 750_000
  static let recoveryAfterGrace: UInt64 = 300_000
  static let recoveryInRetry: UInt64 = 700_000
  static let graceDays: Int64 = 16
  static let retryDays: Int64 = 60

  // Refunds, per paid transaction.
  static let refund: UInt64 = 15_000
  static let refundReversed: UInt64 = 200_000

  // Pipeline faults, per event.
  static let lateKnowledge: UInt64 = 25_000
  static let lateKnowledgeOfRefund: UInt64 = 300_000
  static let delayedDelivery: UInt64 = 40_000
  static let redelivery: UInt64 = 3_000
  static let redeliveryWithNewRecorded: UInt64 = 500_000

  // Per household: sources that report prices, and sources that stamp milliseconds.
  static let sendsPrices: UInt64 = 450_000
  static let usesMilliseconds: UInt64 = 250_000
  /// A first purchase's `original_transaction` (equal to its transaction) is written by some sources only.
  static let originalTransactionWritten: UInt64 = 300_000

  // Meta objects, per event, in percent.
  static let notificationMetaPercent: UInt64 = 15
  static let sdkMetaPercent: UInt64 = 5
}

/// How the pipeline may delay an event on its way to the log.
enum Delivery {
  /// Delayed like any event: sometimes by seconds, sometimes learned days or weeks later.
  case normal
  /// Refund notices, which are often learned late (a refund reported weeks later).
  case lateProne
  /// Always known at once: consumable credits, so that no view of the log, even
  /// as of an earlier knowledge time, shows spending ahead of its funding.
  case prompt
}

/// A family member sharing the organiser's subscription, mirrored onto its own subject.
struct FamilyMember {
  /// The member's subject.
  var subject: UInt32
  /// The member's own original transaction.
  var originalTransaction: UInt64 = 0
  /// The member's current transaction.
  var transaction: UInt64 = 0
  /// Whether the member still shares; false after `family_revoked`.
  var isSharing = true
}

/// Simulates households (a customer, and family members sharing a plan) into events.
///
/// Each household draws from its own generator seeded by (seed, first subject),
/// so a household's story does not depend on what came before it; transaction
/// and event numbers are global counters, which keeps them unique in the whole
/// log. Within one track (a subscription, a wallet, an unlock) effective times
/// strictly increase, so the order of effects never rests on line order.
struct HouseholdSimulator {
  /// The events of the current batch, in generation order.
  private(set) var events: [GeneratedEvent] = []
  var random = Xoshiro256StarStar(seed: 0)
  private let seed: UInt64
  let startAt: Int64
  let endAt: Int64
  /// Primary events happen before this, so mirrored family events (≤ 30 s later) stay in the history.
  let horizonAt: Int64
  /// How much the household's customers use the app.
  let usageLevel: UsageLevel
  /// When each subject of the household holds `pro`, as its app believes (for its usage).
  var proSpans: [ProSpan] = []
  private var nextEventNumber: UInt64 = 0
  private var nextTransaction: UInt64
  /// Billing period (auto-renewable) or duration (non-renewing), by product raw value.
  private let periods: [ISODuration?]
  /// Free-trial length, by product raw value.
  private let trials: [ISODuration]
  private var members: [FamilyMember] = []
  private var storefront = Storefront.usa
  private var sendsPrices = false
  private var usesMilliseconds = false
  private var appVersion: UInt8 = 0

  /// A simulator for `options`; the history spans `start` to `start + months`.
  init(options: GeneratorOptions, endAt: Int64) {
    seed = options.seed
    usageLevel = options.usage
    startAt = options.start.millisecondsSinceEpoch
    self.endAt = endAt
    horizonAt = endAt - Span.minute
    // Transaction ids look like Apple's 15-digit ones and differ between seeds.
    nextTransaction = 200_000_000_000_000 + SplitMix64.mix(options.seed) % 100_000_000_000_000
    periods = GeneratedProduct.allCases.map { $0.periodText.flatMap(ISODuration.init) }
    trials = GeneratedProduct.allCases.map { ISODuration($0.trialText)! }
  }

  /// Empties the batch, keeping its storage.
  mutating func beginBatch() {
    events.removeAll(keepingCapacity: true)
  }

  /// Simulates the household whose first subject is `firstSubject`; returns how many subjects it used.
  /// - Complexity: O(events of the household).
  mutating func simulateHousehold(firstSubject: UInt32, subjectsLeft: Int) -> Int {
    random = Xoshiro256StarStar(seed: seed ^ SplitMix64.mix(UInt64(firstSubject)))
    storefront = Storefront.pick(percentile: random.below(100))
    // Only some pipelines report prices (App Store Server Notifications v2 do, older sources do not).
    sendsPrices = random.chance(Rates.sendsPrices)
    // Some sources stamp milliseconds, most whole seconds; both forms must parse.
    usesMilliseconds = random.chance(Rates.usesMilliseconds)
    appVersion = UInt8(random.below(UInt64(GeneratedMeta.appVersions.count)))
    // Arrivals lean towards the beginning: most of an app's customers already exist when a log starts.
    let earliest = startAt + 3 * Span.day
    let latest = max(earliest + Span.day, endAt - 7 * Span.day)
    let span = UInt64(latest - earliest)
    let arrival = earliest + Int64(min(random.below(span), random.below(span)))
    let subject = firstSubject
    var used = 1
    members.removeAll(keepingCapacity: true)
    proSpans.removeAll(keepingCapacity: true)
    let profile = random.below(1000)
    if profile < Rates.subscriberPerMille {
      let inCloud = random.chance(Rates.cloudGroup)
      var familySize = 0
      if !inCloud, subjectsLeft > 1, random.chance(Rates.family) {
        familySize = min(1 + Int(random.below(3)), subjectsLeft - 1)
      }
      used += familySize
      for offset in 0..<familySize {
        members.append(FamilyMember(subject: firstSubject + 1 + UInt32(offset)))
      }
      subscriptionLifecycle(subject: subject, cloud: inCloud, from: arrival)
      // Sharing covers the first plan only (the cloud group is not family-shareable).
      members.removeAll(keepingCapacity: true)
      if !inCloud, random.chance(Rates.secondGroup) {
        subscriptionLifecycle(
          subject: subject, cloud: true, from: arrival + random.between(Span.day, 200 * Span.day))
      }
      if random.chance(Rates.subscriberAlsoBuysCoins) {
        wallet(subject: subject, from: arrival + random.between(Span.hour, 60 * Span.day))
      }
    } else if profile < Rates.subscriberPerMille + Rates.lifetimePerMille {
      unlocks(subject: subject, from: arrival)
    } else if profile < Rates.subscriberPerMille + Rates.lifetimePerMille + Rates.passesPerMille {
      passes(subject: subject, from: arrival)
    } else if profile
      < Rates.subscriberPerMille + Rates.lifetimePerMille + Rates.passesPerMille
      + Rates.gamerPerMille
    {
      wallet(subject: subject, from: arrival)
    } else {
      browse(subject: subject, at: arrival)
    }
    if usageLevel != .none {
      // Usage draws from its own stream, so the purchase story is the same at every level.
      random = Xoshiro256StarStar(seed: seed ^ SplitMix64.mix(UInt64(firstSubject) ^ 0x7573_6167_6500_0000))
      for offset in 0..<used {
        simulateUsage(subject: firstSubject + UInt32(offset), arrival: arrival, isOrganiser: offset == 0)
      }
    }
    return used
  }

  // MARK: - Subscriptions

  /// A customer's subscriptions in one group: the first, and up to two win-backs after it ends.
  private mutating func subscriptionLifecycle(subject: UInt32, cloud: Bool, from start: Int64) {
    var at = start
    var offer = firstOffer()
    for _ in 0..<3 {
      guard at < horizonAt else { return }
      let product: GeneratedProduct
      if cloud {
        product = random.chance(Rates.cloudPlusTier) ? .cloudPlusMonthly : .cloudMonthly
      } else {
        product = random.chance(Rates.annualPlan) ? .proAnnual : .proMonthly
      }
      let ended = subscribe(subject: subject, product: product, at: at, offer: offer)
      if !cloud {
        grantPro(subject, from: at, to: ended ?? endAt)
        for member in members { grantPro(member.subject, from: at, to: ended ?? endAt) }
      }
      guard let endedAt = ended else { return }
      // Sharing ends with the first subscription; a win-back is the organiser's alone.
      members.removeAll(keepingCapacity: true)
      guard random.chance(Rates.winBack) else { return }
      at = endedAt + random.between(30 * Span.day, 240 * Span.day)
      offer = random.chance(Rates.winBackOffer) ? .winBack : nil
    }
  }

  /// The offer of a first purchase: a free trial, an introductory price, an offer code, or none.
  private mutating func firstOffer() -> Offer? {
    let roll = random.below(1_000_000)
    if roll < Rates.trialOffer { return .trial }
    if roll < Rates.trialOffer + Rates.introOffer { return .intro }
    if roll < Rates.trialOffer + Rates.introOffer + Rates.codeOffer { return .code }
    return nil
  }

  /// One subscription from purchase to its end; returns when it ended, or nil when the history ends first.
  ///
  /// Each turn of the loop is one billing period: first a possible refund of its
  /// transaction, then changes inside the period (upgrade, downgrade, turning
  /// auto-renew off, an extension), then what happens at its end (renewal,
  /// billing failure with grace or retry, or expiration).
  private mutating func subscribe(
    subject: UInt32, product initialProduct: GeneratedProduct, at purchaseAt: Int64, offer: Offer?
  ) -> Int64? {
    var product = initialProduct
    // Family organisers are adults: Ask to Buy applies to solo customers only.
    if members.isEmpty, random.chance(Rates.askToBuy) {
      var pending = GeneratedEvent(
        .purchasePending, subject: subject,
        at: purchaseAt - random.between(5 * Span.minute, 36 * Span.hour))
      pending.product = product
      record(pending)
      if random.chance(Rates.askToBuyDeclined) { return purchaseAt }
    }
    let originalTransaction = newTransaction()
    var transaction = originalTransaction
    var currentOffer = offer
    var periodStart = purchaseAt
    let firstPeriod =
      offer == .trial ? trials[Int(product.rawValue)] : periods[Int(product.rawValue)]!
    var periodEnd = firstPeriod.added(to: Timestamp(millisecondsSinceEpoch: purchaseAt))
      .millisecondsSinceEpoch
    var introRenewalsLeft = offer == .intro && product != .proAnnual ? 2 : 0
    var isAutoRenewOff = false
    var pendingDowngrade: GeneratedProduct? = nil

    var purchase = GeneratedEvent(.purchase, subject: subject, at: purchaseAt)
    purchase.product = product
    purchase.transaction = transaction
    // Apple always sends the original transaction; some pipelines drop it when it equals the transaction.
    if random.chance(Rates.originalTransactionWritten) {
      purchase.originalTransaction = originalTransaction
    }
    purchase.expiresAt = periodEnd
    purchase.offer = offer
    purchase.price = price(of: product, offer: offer)
    record(purchase)
    for index in members.indices {
      members[index].originalTransaction = newTransaction()
      members[index].transaction = members[index].originalTransaction
      var shared = GeneratedEvent(
        .purchase, subject: members[index].subject, at: purchaseAt + memberDelay())
      shared.product = product
      shared.transaction = members[index].transaction
      shared.expiresAt = periodEnd
      shared.isFamilyShared = true
      record(shared)
    }

    while true {
      let innerStart = periodStart + Span.hour
      let innerEnd = periodEnd - 2 * Span.hour
      let isPaid = currentOffer != .trial && currentOffer != .code
      if isPaid, innerEnd - innerStart > Span.hour, random.chance(Rates.refund) {
        let refundAt = random.between(innerStart, min(periodStart + 14 * Span.day, innerEnd))
        guard refundAt < horizonAt else { return nil }
        var revocation = GeneratedEvent(.revocation, subject: subject, at: refundAt)
        revocation.transaction = transaction
        revocation.reason = .refund
        record(revocation, delivery: .lateProne)
        if random.chance(Rates.refundReversed), innerEnd - refundAt > 2 * Span.hour {
          let reversedAt = random.between(refundAt + Span.hour, innerEnd)
          if reversedAt < horizonAt {
            var reversal = GeneratedEvent(.refundReversed, subject: subject, at: reversedAt)
            reversal.transaction = transaction
            record(reversal, delivery: .lateProne)
          }
        } else {
          // A refunded organiser stops sharing: members lose access at the same moment.
          for index in members.indices where members[index].isSharing {
            var revoked = GeneratedEvent(
              .revocation, subject: members[index].subject, at: refundAt + memberDelay())
            revoked.transaction = members[index].transaction
            revoked.reason = .familyRevoked
            record(revoked)
            members[index].isSharing = false
          }
          return refundAt
        }
      } else if innerEnd > innerStart {
        if let higher = product.upgrade, isPaid, random.chance(Rates.upgrade) {
          let upgradeAt = random.between(innerStart, innerEnd)
          guard upgradeAt < horizonAt else { return nil }
          product = higher
          transaction = newTransaction()
          currentOffer = nil
          introRenewalsLeft = 0
          pendingDowngrade = nil
          isAutoRenewOff = false
          periodStart = upgradeAt
          periodEnd =
            periods[Int(product.rawValue)]!.added(
              to: Timestamp(millisecondsSinceEpoch: upgradeAt)
            ).millisecondsSinceEpoch
          recordCharge(
            .purchase, subject: subject, at: upgradeAt, product: product, transaction: transaction,
            originalTransaction: originalTransaction, expiresAt: periodEnd, offer: nil, priced: true)
          for index in members.indices where members[index].isSharing {
            chargeMember(index, .purchase, after: upgradeAt, product: product, expiresAt: periodEnd)
          }
          continue
        }
        if let lower = product.downgrade, pendingDowngrade == nil, random.chance(Rates.downgrade) {
          let changedAt = random.between(innerStart, innerEnd)
          if changedAt < horizonAt {
            var change = GeneratedEvent(.planChanged, subject: subject, at: changedAt)
            change.originalTransaction = originalTransaction
            change.product = lower
            record(change)
            pendingDowngrade = lower
          }
        }
        if !isAutoRenewOff, random.chance(cancelRate(product: product, offer: currentOffer)) {
          let offAt = random.between(innerStart, innerEnd)
          if offAt < horizonAt {
            var off = GeneratedEvent(.autoRenewChanged, subject: subject, at: offAt)
            off.originalTransaction = originalTransaction
            off.autoRenew = false
            record(off)
            isAutoRenewOff = true
            if innerEnd - offAt > Span.hour, random.chance(Rates.reenableAutoRenew) {
              let onAt = random.between(offAt + Span.minute, innerEnd)
              if onAt < horizonAt {
                var on = GeneratedEvent(.autoRenewChanged, subject: subject, at: onAt)
                on.originalTransaction = originalTransaction
                on.autoRenew = true
                record(on)
                isAutoRenewOff = false
              }
            }
          }
        }
        if random.chance(Rates.periodExtension) {
          // Customer support extends the period (an outage make-good) by days.
          let extendedAt = random.between(innerStart, innerEnd)
          let extendedEnd = periodEnd + random.between(3 * Span.day, 30 * Span.day)
          if extendedAt < horizonAt {
            var extended = GeneratedEvent(.renewalExtended, subject: subject, at: extendedAt)
            extended.originalTransaction = originalTransaction
            extended.expiresAt = extendedEnd
            record(extended)
            periodEnd = extendedEnd
          }
        }
      }

      // The end of the period.
      if isAutoRenewOff || random.chance(Rates.priceIncreaseExpiry) {
        let expiredAt = periodEnd + random.between(0, Span.minute)
        guard expiredAt < horizonAt else { return nil }
        expire(
          subject: subject, originalTransaction: originalTransaction, at: expiredAt,
          reason: isAutoRenewOff ? .voluntary : .priceIncrease)
        return expiredAt
      }
      let renewedProduct = pendingDowngrade ?? product
      let period = periods[Int(renewedProduct.rawValue)]!
      let renewalAt: Int64
      let renewalEnd: Int64
      if random.chance(Rates.billingFailure) {
        let failedAt = periodEnd + random.between(0, Span.minute)
        guard failedAt < horizonAt else { return nil }
        var recoveredAt: Int64? = nil
        var keepsAnchor = false
        if random.chance(Rates.grace) {
          let graceEnd = periodEnd + Rates.graceDays * Span.day
          status(
            .graceEntered, subject: subject, originalTransaction: originalTransaction, at: failedAt,
            graceExpires: graceEnd)
          if random.chance(Rates.recoveryInGrace) {
            // Recovered in grace: the customer never lost access and the renewal date is kept.
            recoveredAt = random.between(failedAt + Span.hour, graceEnd - Span.hour)
            keepsAnchor = true
          } else {
            let retryAt = graceEnd + random.between(0, Span.minute)
            guard retryAt < horizonAt else { return nil }
            status(
              .billingRetry, subject: subject, originalTransaction: originalTransaction, at: retryAt
            )
            if random.chance(Rates.recoveryAfterGrace) {
              recoveredAt = random.between(
                retryAt + Span.hour, periodEnd + (Rates.retryDays - 1) * Span.day)
            }
          }
        } else {
          status(
            .billingRetry, subject: subject, originalTransaction: originalTransaction, at: failedAt)
          if random.chance(Rates.recoveryInRetry) {
            recoveredAt = random.between(failedAt + Span.hour, failedAt + 30 * Span.day)
          }
        }
        guard let recoveredAt else {
          let expiredAt = periodEnd + Rates.retryDays * Span.day
          guard expiredAt < horizonAt else { return nil }
          expire(
            subject: subject, originalTransaction: originalTransaction, at: expiredAt,
            reason: .billing)
          return expiredAt
        }
        renewalAt = recoveredAt
        // Recovered from billing retry: the new period starts at the recovery.
        let anchor = keepsAnchor ? periodEnd : recoveredAt
        renewalEnd =
          period.added(to: Timestamp(millisecondsSinceEpoch: anchor)).millisecondsSinceEpoch
      } else {
        // Renewals are charged up to an hour before the period ends; the next period keeps the anchor.
        renewalAt = periodEnd - random.between(0, Span.hour)
        renewalEnd =
          period.added(to: Timestamp(millisecondsSinceEpoch: periodEnd))
          .millisecondsSinceEpoch
      }
      guard renewalAt < horizonAt else { return nil }
      product = renewedProduct
      pendingDowngrade = nil
      transaction = newTransaction()
      if introRenewalsLeft > 0 {
        introRenewalsLeft -= 1
        currentOffer = .intro
      } else if random.chance(Rates.promoRenewal) {
        currentOffer = .promo
      } else {
        currentOffer = nil
      }
      periodStart = renewalAt
      periodEnd = renewalEnd
      recordCharge(
        .renewal, subject: subject, at: renewalAt, product: product, transaction: transaction,
        originalTransaction: originalTransaction, expiresAt: renewalEnd, offer: currentOffer, priced: true)
      for index in members.indices where members[index].isSharing {
        let memberRenewalAt = chargeMember(
          index, .renewal, after: renewalAt, product: product, expiresAt: renewalEnd)
        if random.chance(Rates.memberLeaves) {
          // The organiser stops sharing with this member during the period.
          let leftAt = random.between(memberRenewalAt + Span.hour, renewalEnd - 2 * Span.hour)
          if leftAt < horizonAt {
            var revoked = GeneratedEvent(.revocation, subject: members[index].subject, at: leftAt)
            revoked.transaction = members[index].transaction
            revoked.reason = .familyRevoked
            record(revoked)
            members[index].isSharing = false
          }
        }
      }
    }
  }

  /// How likely a customer turns auto-renew off during one period.
  private func cancelRate(product: GeneratedProduct, offer: Offer?) -> UInt64 {
    switch offer {
    case .trial?: return Rates.cancelInTrial
    case .intro?: return Rates.cancelInIntro
    default: return product == .proAnnual ? Rates.cancelAnnual : Rates.cancelMonthly
    }
  }

  /// Records `expiration` for the organiser and every sharing member.
  private mutating func expire(
    subject: UInt32, originalTransaction: UInt64, at: Int64, reason: GeneratedReason
  ) {
    var expiration = GeneratedEvent(.expiration, subject: subject, at: at)
    expiration.originalTransaction = originalTransaction
    expiration.reason = reason
    record(expiration)
    for member in members where member.isSharing {
      var mirrored = GeneratedEvent(.expiration, subject: member.subject, at: at + memberDelay())
      mirrored.originalTransaction = member.originalTransaction
      mirrored.reason = reason
      record(mirrored)
    }
  }

  /// Records a billing status event for the organiser and every sharing member.
  private mutating func status(
    _ kind: EventKind, subject: UInt32, originalTransaction: UInt64, at: Int64,
    graceExpires: Int64 = .min
  ) {
    var event = GeneratedEvent(kind, subject: subject, at: at)
    event.originalTransaction = originalTransaction
    event.expiresAt = graceExpires
    record(event)
    for member in members where member.isSharing {
      var mirrored = GeneratedEvent(kind, subject: member.subject, at: at + memberDelay())
      mirrored.originalTransaction = member.originalTransaction
      mirrored.expiresAt = graceExpires
      record(mirrored)
    }
  }

  /// Family members' notifications follow the organiser's by up to half a minute.
  /// Charges a sharing family member for the organiser's purchase or renewal, a little later.
  ///
  /// Draws the member's transaction, then the delay, in that order (the output depends on it).
  @discardableResult
  private mutating func chargeMember(
    _ index: Int, _ kind: EventKind, after start: Int64, product: GeneratedProduct, expiresAt: Int64
  ) -> Int64 {
    members[index].transaction = newTransaction()
    let at = start + memberDelay()
    // A purchase states the ownership; a renewal keeps it (Docs/semantics.md).
    recordCharge(
      kind, subject: members[index].subject, at: at, product: product,
      transaction: members[index].transaction, originalTransaction: members[index].originalTransaction,
      expiresAt: expiresAt, offer: nil, priced: false, familyShared: kind == .purchase)
    return at
  }

  /// Records a subscription purchase or renewal: the one shape every charge of a period shares.
  private mutating func recordCharge(
    _ kind: EventKind, subject: UInt32, at: Int64, product: GeneratedProduct, transaction: UInt64,
    originalTransaction: UInt64, expiresAt: Int64, offer: Offer?, priced: Bool, familyShared: Bool = false
  ) {
    var event = GeneratedEvent(kind, subject: subject, at: at)
    event.product = product
    event.transaction = transaction
    event.originalTransaction = originalTransaction
    event.expiresAt = expiresAt
    if offer != nil { event.offer = offer }
    if priced { event.price = price(of: product, offer: offer) }
    event.isFamilyShared = familyShared
    record(event)
  }

  private mutating func memberDelay() -> Int64 {
    random.between(Span.second, 30 * Span.second)
  }

  // MARK: - Other products

  /// A lifetime unlock, often after the `$0` 14-day trial unlock; some trial users subscribe instead.
  private mutating func unlocks(subject: UInt32, from start: Int64) {
    var at = start
    if random.chance(450_000) {
      var trial = GeneratedEvent(.purchase, subject: subject, at: at)
      trial.product = .trial14Days
      trial.transaction = newTransaction()
      trial.offer = .trial
      record(trial)
      grantPro(subject, from: at, to: at + 14 * Span.day)
      at += random.between(Span.day, 20 * Span.day)
      guard at < horizonAt else { return }
      if random.chance(650_000) {
        if random.chance(300_000) {
          subscriptionLifecycle(subject: subject, cloud: false, from: at)
        }
        return
      }
    }
    if let end = buyOnce(subject: subject, product: .proLifetime, at: at, refundWithin: 30 * Span.day) {
      grantPro(subject, from: at, to: end)
    }
    if random.chance(150_000) {
      wallet(subject: subject, from: at + random.between(Span.hour, 90 * Span.day))
    }
  }

  /// One to six non-renewing passes, spaced weeks apart.
  private mutating func passes(subject: UInt32, from start: Int64) {
    var at = start
    for _ in 0..<(1 + random.below(6)) {
      guard at < horizonAt else { return }
      let product: GeneratedProduct = random.chance(650_000) ? .passWeek : .passMonth
      let duration = periods[Int(product.rawValue)]!
      if let end = buyOnce(subject: subject, product: product, at: at, refundWithin: 3 * Span.day) {
        let expires = duration.added(to: Timestamp(millisecondsSinceEpoch: at)).millisecondsSinceEpoch
        grantPro(subject, from: at, to: min(end, expires))
      }
      at =
        duration.added(to: Timestamp(millisecondsSinceEpoch: at)).millisecondsSinceEpoch
        + random.between(Span.day, 90 * Span.day)
    }
  }

  /// A single purchase (after a possible Ask to Buy), with a possible refund and its reversal.
  ///
  /// Returns when the customer's app stops showing the purchase (the refund, or never:
  /// `Int64.max`), or nil when the parent declines.
  @discardableResult
  private mutating func buyOnce(
    subject: UInt32, product: GeneratedProduct, at: Int64, refundWithin: Int64
  ) -> Int64? {
    guard askToBuy(subject: subject, product: product, at: at) else { return nil }
    var purchase = GeneratedEvent(.purchase, subject: subject, at: at)
    purchase.product = product
    purchase.transaction = newTransaction()
    purchase.price = price(of: product, offer: nil)
    if product.kind == .nonRenewing, random.chance(300_000),
      let duration = periods[Int(product.rawValue)]
    {
      // The default expiry, written out as some pipelines do.
      purchase.expiresAt =
        duration.added(to: Timestamp(millisecondsSinceEpoch: at))
        .millisecondsSinceEpoch
    }
    record(purchase)
    guard random.chance(Rates.refund) else { return .max }
    let refundAt = at + random.between(Span.hour, refundWithin)
    guard refundAt < horizonAt else { return .max }
    var revocation = GeneratedEvent(.revocation, subject: subject, at: refundAt)
    revocation.transaction = purchase.transaction
    revocation.reason = .refund
    record(revocation, delivery: .lateProne)
    // A reversed refund restores access later; the app is taken to stop at the refund.
    guard random.chance(Rates.refundReversed) else { return refundAt }
    let reversedAt = refundAt + random.between(Span.day, 20 * Span.day)
    guard reversedAt < horizonAt else { return refundAt }
    var reversal = GeneratedEvent(.refundReversed, subject: subject, at: reversedAt)
    reversal.transaction = purchase.transaction
    record(reversal, delivery: .lateProne)
    return refundAt
  }

  /// Records an Ask to Buy request shortly before `at` for some purchases; false when the parent declines.
  private mutating func askToBuy(subject: UInt32, product: GeneratedProduct, at: Int64) -> Bool {
    guard random.chance(Rates.askToBuy) else { return true }
    var pending = GeneratedEvent(
      .purchasePending, subject: subject, at: at - random.between(Span.minute, 6 * Span.hour))
    pending.product = product
    record(pending)
    return !random.chance(Rates.askToBuyDeclined)
  }

  /// Buying and spending coins, with refunds only when the balance covers them.
  ///
  /// The wallet's events are simulated in effective order with a running balance:
  /// spending never exceeds it, and a refund of a coin pack is issued only when
  /// the balance still holds its credit, so the balance never goes negative and
  /// no later spending can overdraw, whatever order the lines arrive in.
  private mutating func wallet(subject: UInt32, from start: Int64) {
    var at = start
    var balance: Int64 = 0
    var refundDue: (transaction: UInt64, coins: Int64)? = nil
    var reversalDue: (transaction: UInt64, coins: Int64)? = nil
    for _ in 0..<(4 + random.below(28)) {
      guard at < horizonAt else { return }
      if let due = refundDue, balance >= due.coins {
        var revocation = GeneratedEvent(.revocation, subject: subject, at: at)
        revocation.transaction = due.transaction
        revocation.reason = .refund
        record(revocation, delivery: .lateProne)
        balance -= due.coins
        refundDue = nil
        if random.chance(Rates.refundReversed) { reversalDue = due }
      } else if let due = reversalDue {
        var reversal = GeneratedEvent(.refundReversed, subject: subject, at: at)
        reversal.transaction = due.transaction
        record(reversal, delivery: .prompt)
        balance += due.coins
        reversalDue = nil
      } else if balance < 100 || random.chance(250_000) {
        let product: GeneratedProduct = random.chance(750_000) ? .coins100 : .coins1000
        if askToBuy(subject: subject, product: product, at: at) {
          let quantity = product == .coins100 ? 1 + Int64(random.below(5)) : 1
          var purchase = GeneratedEvent(.purchase, subject: subject, at: at)
          purchase.product = product
          purchase.transaction = newTransaction()
          // `quantity` defaults to 1; some pipelines write it anyway.
          if quantity > 1 || random.chance(500_000) { purchase.quantity = quantity }
          let unitPrice = price(of: product, offer: nil)
          if unitPrice >= 0 { purchase.price = unitPrice * quantity }
          record(purchase, delivery: .prompt)
          let coins = quantity * product.coinsPerUnit
          balance += coins
          if refundDue == nil, random.chance(Rates.refund) {
            refundDue = (purchase.transaction, coins)
          }
        }
      } else {
        // Spend in round amounts, up to what the wallet holds.
        let quantity = 10 * (1 + Int64(random.below(UInt64(min(balance, 2000) / 10))))
        var consumption = GeneratedEvent(.consumption, subject: subject, at: at)
        consumption.quantity = quantity
        record(consumption)
        balance -= quantity
      }
      at += random.between(Span.minute, 10 * Span.day)
    }
  }

  /// A visitor who asks to buy and is declined, or only takes the `$0` trial unlock.
  private mutating func browse(subject: UInt32, at: Int64) {
    if random.chance(500_000) {
      var pending = GeneratedEvent(.purchasePending, subject: subject, at: at)
      pending.product = random.chance(500_000) ? .proMonthly : .proLifetime
      record(pending)
    } else {
      var trial = GeneratedEvent(.purchase, subject: subject, at: at)
      trial.product = .trial14Days
      trial.transaction = newTransaction()
      trial.offer = .trial
      record(trial)
      grantPro(subject, from: at, to: at + 14 * Span.day)
    }
  }

  // MARK: - Recording

  /// A transaction id never used before in this log.
  private mutating func newTransaction() -> UInt64 {
    nextTransaction += 1
    return nextTransaction
  }

  /// The price a pipeline reports for a purchase, if it reports one (never for free offers).
  private func price(of product: GeneratedProduct, offer: Offer?) -> Int64 {
    guard sendsPrices else { return -1 }
    switch offer {
    case .trial?, .code?: return -1
    case .intro?, .promo?, .winBack?:
      return storefront.price(dollars: product.dollarPrice, discounted: true)
    case .normal?, nil: return storefront.price(dollars: product.dollarPrice, discounted: false)
    }
  }

  /// Numbers the event, attaches meta, decides how the pipeline delivers it, and maybe redelivers it.
  mutating func record(_ event: GeneratedEvent, delivery: Delivery = .normal) {
    var event = event
    if !usesMilliseconds {
      // Flooring keeps order: the simulation spaces dependent events at least a second apart.
      event.at -= event.at % Span.second
      if event.expiresAt != .min { event.expiresAt -= event.expiresAt % Span.second }
    }
    event.deliveredAt = event.at
    event.number = nextEventNumber
    nextEventNumber += 1
    event.storefront = storefront
    let metaRoll = random.below(100)
    if metaRoll < Rates.notificationMetaPercent {
      event.meta = .notification
    } else if metaRoll < Rates.notificationMetaPercent + Rates.sdkMetaPercent {
      event.meta = .sdk
      event.appVersion = appVersion
    }
    // Nothing is learned after the history ends: late knowledge is capped at its end.
    let lastKnowledge = max(event.at, endAt)
    if delivery != .prompt {
      let roll = random.below(1_000_000)
      let latePPM = delivery == .lateProne ? Rates.lateKnowledgeOfRefund : Rates.lateKnowledge
      var delay: Int64 = 0
      if roll < latePPM {
        delay = random.between(Span.day, 45 * Span.day)
      } else if roll < latePPM + Rates.delayedDelivery {
        delay = random.between(Span.second, 10 * Span.minute)
      }
      var deliveredAt = min(event.at + delay, lastKnowledge)
      if !usesMilliseconds { deliveredAt -= deliveredAt % Span.second }
      if deliveredAt > event.at {
        event.deliveredAt = deliveredAt
        event.recordedAt = deliveredAt
      }
    }
    events.append(event)
    if random.chance(Rates.redelivery) {
      var copy = event
      copy.isRedelivery = true
      copy.deliveredAt = min(
        event.deliveredAt + random.between(Span.minute, 3 * Span.day), lastKnowledge)
      if !usesMilliseconds { copy.deliveredAt -= copy.deliveredAt % Span.second }
      if random.chance(Rates.redeliveryWithNewRecorded), copy.deliveredAt > event.at {
        copy.recordedAt = copy.deliveredAt
      }
      events.append(copy)
    }
  }
}
