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
  /// v1.3: when a block denies a subject `pro`, which its app, asking the ledger, also sees.
  var blockedSpans: [ProSpan] = []
  private var nextEventNumber: UInt64 = 0
  private var nextTransaction: UInt64
  /// Billing period (auto-renewable) or duration (non-renewing), by product raw value.
  private let periods: [ISODuration?]
  /// Free-trial length, by product raw value.
  private let trials: [ISODuration]
  var members: [FamilyMember] = []
  /// The transaction of the last `buyOnce` purchase.
  private var lastPurchaseTransaction: UInt64 = 0
  /// v1.3: the household's second account, the `to` of its transfers, once it has one.
  var secondAccount: UInt32? = nil
  private var storefront = Storefront.usa
  private var sendsPrices = false
  /// Whether the household's source reports prices (and in v1.3 the store and country).
  var reportsStorefront: Bool { sendsPrices }
  private var usesMilliseconds = false
  private var appVersion: UInt8 = 0
  /// Whether the log uses contract v1.3's types and fields (`GeneratorOptions.contract`).
  let writesContract13: Bool
  /// Whether v1.3 units change hands (`GeneratorOptions.transfers`).
  let writesTransfers: Bool
  /// The household's first subject, how many subjects it uses so far, and how many it may use.
  var householdFirst: UInt32 = 0
  var householdUsed = 0
  var householdSubjectsMax = 0
  /// v1.3: the store that charges the household, written with its country when its source is v2.
  var chargingStore: GeneratedStore? = nil
  /// v1.3: the developer's proceeds per mille of a price (700, or 850 in the small business program).
  var proceedsPerMille: Int64 = 700

  /// A simulator for `options`; the history spans `start` to `start + months`.
  init(options: GeneratorOptions, endAt: Int64) {
    seed = options.seed
    usageLevel = options.usage
    writesContract13 = options.contract == .v1_3
    writesTransfers = options.transfers
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
    if writesContract13 { drawChargeDetails() }
    // Arrivals lean towards the beginning: most of an app's customers already exist when a log starts.
    let earliest = startAt + 3 * Span.day
    let latest = max(earliest + Span.day, endAt - 7 * Span.day)
    let span = UInt64(latest - earliest)
    let arrival = earliest + Int64(min(random.below(span), random.below(span)))
    let subject = firstSubject
    var used = 1
    householdFirst = firstSubject
    householdSubjectsMax = subjectsLeft
    householdUsed = 1
    secondAccount = nil
    members.removeAll(keepingCapacity: true)
    proSpans.removeAll(keepingCapacity: true)
    blockedSpans.removeAll(keepingCapacity: true)
    let profile = random.below(1000)
    if profile < Rates.subscriberPerMille {
      let inCloud = random.chance(Rates.cloudGroup)
      var familySize = 0
      if !inCloud, subjectsLeft > 1, random.chance(Rates.family) {
        familySize = min(1 + Int(random.below(3)), subjectsLeft - 1)
      }
      used += familySize
      householdUsed = used
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
    if writesContract13 {
      supportStory(subject: subject, arrival: arrival)
      used = householdUsed
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

  /// One subscription's state as its story unfolds, period by period.
  struct SubscriptionTrack {
    /// Who owns it now: the first owner, or the `to` of its last transfer (v1.3).
    var subject: UInt32
    /// The subject that bought it.
    let firstOwner: UInt32
    let originalTransaction: UInt64
    var product: GeneratedProduct
    var transaction: UInt64
    var offer: Offer?
    var periodStart: Int64
    var periodEnd: Int64
    var introRenewalsLeft: Int
    var isAutoRenewOff = false
    var pendingDowngrade: GeneratedProduct? = nil
  }

  /// How one step of a subscription's story ends.
  private enum Step {
    /// The period goes on to its end.
    case continues
    /// A new period started inside the current one (an upgrade).
    case restarts
    /// The subscription ended at that instant, or the history ended first (nil).
    case ends(Int64?)
  }

  /// One subscription from purchase to its end; returns when it ended, or nil when the history ends first.
  ///
  /// Each turn of the loop is one billing period: first a possible refund of its
  /// transaction, then changes inside the period (upgrade, downgrade, turning
  /// auto-renew off, an extension), then what happens at its end (renewal,
  /// billing failure with grace or retry, or expiration).
  private mutating func subscribe(
    subject: UInt32, product: GeneratedProduct, at purchaseAt: Int64, offer: Offer?
  ) -> Int64? {
    // Family organisers are adults: Ask to Buy applies to solo customers only.
    if members.isEmpty, random.chance(Rates.askToBuy) {
      var pending = GeneratedEvent(
        .purchasePending, subject: subject,
        at: purchaseAt - random.between(5 * Span.minute, 36 * Span.hour))
      pending.product = product
      record(pending)
      if random.chance(Rates.askToBuyDeclined) { return purchaseAt }
    }
    var track = startSubscription(subject: subject, product: product, at: purchaseAt, offer: offer)
    while true {
      let innerStart = track.periodStart + Span.hour
      let innerEnd = track.periodEnd - 2 * Span.hour
      let isPaid = track.offer != .trial && track.offer != .code
      if isPaid, innerEnd - innerStart > Span.hour, random.chance(Rates.refund) {
        if case .ends(let endedAt) = refund(&track, innerStart: innerStart, innerEnd: innerEnd) { return endedAt }
      } else if innerEnd > innerStart {
        if writesContract13, isPaid {
          declinedRefund(subject: track.subject, transaction: track.transaction, from: innerStart, to: innerEnd)
        }
        switch changeWithinPeriod(&track, innerStart: innerStart, innerEnd: innerEnd, isPaid: isPaid) {
        case .ends(let endedAt): return endedAt
        case .restarts: continue
        case .continues: break
        }
        if writesTransfers, members.isEmpty { transferSubscription(&track, after: innerEnd) }
      }
      if case .ends(let endedAt) = endPeriod(&track) { return endedAt }
    }
  }

  /// Records the first purchase, and its family-shared copies, and returns the subscription it starts.
  private mutating func startSubscription(
    subject: UInt32, product: GeneratedProduct, at purchaseAt: Int64, offer: Offer?
  ) -> SubscriptionTrack {
    let originalTransaction = newTransaction()
    let firstPeriod =
      offer == .trial ? trials[Int(product.rawValue)] : periods[Int(product.rawValue)]!
    let periodEnd = firstPeriod.added(to: Timestamp(millisecondsSinceEpoch: purchaseAt))
      .millisecondsSinceEpoch
    let track = SubscriptionTrack(
      subject: subject, firstOwner: subject, originalTransaction: originalTransaction, product: product,
      transaction: originalTransaction, offer: offer, periodStart: purchaseAt, periodEnd: periodEnd,
      introRenewalsLeft: offer == .intro && product != .proAnnual ? 2 : 0)

    var purchase = GeneratedEvent(.purchase, subject: subject, at: purchaseAt)
    purchase.product = product
    purchase.transaction = originalTransaction
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
    return track
  }

  /// A refund of the period's transaction, sometimes reversed; an unreversed one ends the
  /// subscription and the family's sharing.
  private mutating func refund(_ track: inout SubscriptionTrack, innerStart: Int64, innerEnd: Int64) -> Step {
    let refundAt = random.between(innerStart, min(track.periodStart + 14 * Span.day, innerEnd))
    guard refundAt < horizonAt else { return .ends(nil) }
    var revocation = GeneratedEvent(.revocation, subject: track.subject, at: refundAt)
    revocation.transaction = track.transaction
    revocation.reason = .refund
    if writesContract13 {
      requestRefund(subject: track.subject, transaction: track.transaction, chargedAt: track.periodStart, refundAt: refundAt)
      revocation.refunded = proratedRefund(track, at: refundAt)
    }
    record(revocation, delivery: .lateProne)
    if random.chance(Rates.refundReversed), innerEnd - refundAt > 2 * Span.hour {
      let reversedAt = random.between(refundAt + Span.hour, innerEnd)
      if reversedAt < horizonAt {
        var reversal = GeneratedEvent(.refundReversed, subject: track.subject, at: reversedAt)
        reversal.transaction = track.transaction
        record(reversal, delivery: .lateProne)
      }
      return .continues
    }
    // A refunded organiser stops sharing: members lose access at the same moment.
    for index in members.indices where members[index].isSharing {
      var revoked = GeneratedEvent(
        .revocation, subject: members[index].subject, at: refundAt + memberDelay())
      revoked.transaction = members[index].transaction
      revoked.reason = .familyRevoked
      record(revoked)
      members[index].isSharing = false
    }
    return .ends(refundAt)
  }

  /// Changes inside a period: an upgrade (which starts a new period), a downgrade at renewal,
  /// auto-renew turned off (and perhaps on again), an extension by customer support.
  private mutating func changeWithinPeriod(
    _ track: inout SubscriptionTrack, innerStart: Int64, innerEnd: Int64, isPaid: Bool
  ) -> Step {
    if let higher = track.product.upgrade, isPaid, random.chance(Rates.upgrade) {
      return upgrade(&track, to: higher, innerStart: innerStart, innerEnd: innerEnd)
    }
    if let lower = track.product.downgrade, track.pendingDowngrade == nil, random.chance(Rates.downgrade) {
      let changedAt = random.between(innerStart, innerEnd)
      if changedAt < horizonAt {
        var change = GeneratedEvent(.planChanged, subject: track.subject, at: changedAt)
        change.originalTransaction = track.originalTransaction
        change.product = lower
        record(change)
        track.pendingDowngrade = lower
      }
    }
    if !track.isAutoRenewOff, random.chance(cancelRate(product: track.product, offer: track.offer)) {
      let offAt = random.between(innerStart, innerEnd)
      if offAt < horizonAt {
        autoRenewChanged(&track, to: false, at: offAt)
        if innerEnd - offAt > Span.hour, random.chance(Rates.reenableAutoRenew) {
          let onAt = random.between(offAt + Span.minute, innerEnd)
          if onAt < horizonAt { autoRenewChanged(&track, to: true, at: onAt) }
        }
      }
    }
    if random.chance(Rates.periodExtension) {
      // Customer support extends the period (an outage make-good) by days.
      let extendedAt = random.between(innerStart, innerEnd)
      let extendedEnd = track.periodEnd + random.between(3 * Span.day, 30 * Span.day)
      if extendedAt < horizonAt {
        var extended = GeneratedEvent(.renewalExtended, subject: track.subject, at: extendedAt)
        extended.originalTransaction = track.originalTransaction
        extended.expiresAt = extendedEnd
        record(extended)
        track.periodEnd = extendedEnd
      }
    }
    return .continues
  }

  /// An upgrade to `higher`, charged at once: a new transaction and period from its instant.
  private mutating func upgrade(
    _ track: inout SubscriptionTrack, to higher: GeneratedProduct, innerStart: Int64, innerEnd: Int64
  ) -> Step {
    let upgradeAt = random.between(innerStart, innerEnd)
    guard upgradeAt < horizonAt else { return .ends(nil) }
    track.product = higher
    track.transaction = newTransaction()
    track.offer = nil
    track.introRenewalsLeft = 0
    track.pendingDowngrade = nil
    track.isAutoRenewOff = false
    track.periodStart = upgradeAt
    track.periodEnd =
      periods[Int(higher.rawValue)]!.added(to: Timestamp(millisecondsSinceEpoch: upgradeAt)).millisecondsSinceEpoch
    recordCharge(
      .purchase, subject: track.subject, at: upgradeAt, product: higher, transaction: track.transaction,
      originalTransaction: track.originalTransaction, expiresAt: track.periodEnd, offer: nil, priced: true)
    for index in members.indices where members[index].isSharing {
      chargeMember(index, .purchase, after: upgradeAt, product: higher, expiresAt: track.periodEnd)
    }
    return .restarts
  }

  /// Records `auto_renew_changed` to `isOn`.
  private mutating func autoRenewChanged(_ track: inout SubscriptionTrack, to isOn: Bool, at time: Int64) {
    var change = GeneratedEvent(.autoRenewChanged, subject: track.subject, at: time)
    change.originalTransaction = track.originalTransaction
    change.autoRenew = isOn
    record(change)
    track.isAutoRenewOff = !isOn
  }

  /// The end of a period: expiration, or a renewal on time or after a billing failure.
  private mutating func endPeriod(_ track: inout SubscriptionTrack) -> Step {
    if track.isAutoRenewOff || random.chance(Rates.priceIncreaseExpiry) {
      let expiredAt = track.periodEnd + random.between(0, Span.minute)
      guard expiredAt < horizonAt else { return .ends(nil) }
      expire(
        subject: track.subject, originalTransaction: track.originalTransaction, at: expiredAt,
        reason: track.isAutoRenewOff ? .voluntary : .priceIncrease)
      return .ends(expiredAt)
    }
    let renewedProduct = track.pendingDowngrade ?? track.product
    let period = periods[Int(renewedProduct.rawValue)]!
    let renewalAt: Int64
    let renewalEnd: Int64
    if random.chance(Rates.billingFailure) {
      let failedAt = track.periodEnd + random.between(0, Span.minute)
      guard failedAt < horizonAt else { return .ends(nil) }
      let recovery = billingFailure(track, failedAt: failedAt)
      guard case .recovered(let recoveredAt, let keepsAnchor) = recovery else {
        guard case .never = recovery else { return .ends(nil) }
        let expiredAt = track.periodEnd + Rates.retryDays * Span.day
        guard expiredAt < horizonAt else { return .ends(nil) }
        expire(
          subject: track.subject, originalTransaction: track.originalTransaction, at: expiredAt,
          reason: .billing)
        return .ends(expiredAt)
      }
      renewalAt = recoveredAt
      // Recovered from billing retry: the new period starts at the recovery.
      let anchor = keepsAnchor ? track.periodEnd : recoveredAt
      renewalEnd = period.added(to: Timestamp(millisecondsSinceEpoch: anchor)).millisecondsSinceEpoch
    } else {
      // Renewals are charged up to an hour before the period ends; the next period keeps the anchor.
      renewalAt = track.periodEnd - random.between(0, Span.hour)
      renewalEnd = period.added(to: Timestamp(millisecondsSinceEpoch: track.periodEnd)).millisecondsSinceEpoch
    }
    guard renewalAt < horizonAt else { return .ends(nil) }
    track.product = renewedProduct
    renew(&track, at: renewalAt, until: renewalEnd)
    return .continues
  }

  /// What follows a failed renewal.
  private enum Recovery {
    /// Billing never recovers: the subscription expires at the end of retry.
    case never
    /// The history ends before anything more happens.
    case historyEnds
    /// Billing recovered at that instant; `keepsAnchor` when the renewal date is kept (in grace).
    case recovered(at: Int64, keepsAnchor: Bool)
  }

  /// A failed renewal at `failedAt`: grace or billing retry, and perhaps a recovery.
  private mutating func billingFailure(_ track: SubscriptionTrack, failedAt: Int64) -> Recovery {
    let (subject, original, periodEnd) = (track.subject, track.originalTransaction, track.periodEnd)
    if random.chance(Rates.grace) {
      let graceEnd = periodEnd + Rates.graceDays * Span.day
      status(.graceEntered, subject: subject, originalTransaction: original, at: failedAt, graceExpires: graceEnd)
      if random.chance(Rates.recoveryInGrace) {
        // Recovered in grace: the customer never lost access and the renewal date is kept.
        return .recovered(at: random.between(failedAt + Span.hour, graceEnd - Span.hour), keepsAnchor: true)
      }
      let retryAt = graceEnd + random.between(0, Span.minute)
      guard retryAt < horizonAt else { return .historyEnds }
      status(.billingRetry, subject: subject, originalTransaction: original, at: retryAt)
      guard random.chance(Rates.recoveryAfterGrace) else { return .never }
      return .recovered(
        at: random.between(retryAt + Span.hour, periodEnd + (Rates.retryDays - 1) * Span.day), keepsAnchor: false)
    }
    status(.billingRetry, subject: subject, originalTransaction: original, at: failedAt)
    guard random.chance(Rates.recoveryInRetry) else { return .never }
    return .recovered(at: random.between(failedAt + Span.hour, failedAt + 30 * Span.day), keepsAnchor: false)
  }

  /// Records the renewal of a new period (and the sharing members'), with its offer.
  private mutating func renew(_ track: inout SubscriptionTrack, at renewalAt: Int64, until renewalEnd: Int64) {
    track.pendingDowngrade = nil
    track.transaction = newTransaction()
    if track.introRenewalsLeft > 0 {
      track.introRenewalsLeft -= 1
      track.offer = .intro
    } else if random.chance(Rates.promoRenewal) {
      track.offer = .promo
    } else {
      track.offer = nil
    }
    track.periodStart = renewalAt
    track.periodEnd = renewalEnd
    recordCharge(
      .renewal, subject: track.subject, at: renewalAt, product: track.product, transaction: track.transaction,
      originalTransaction: track.originalTransaction, expiresAt: renewalEnd, offer: track.offer, priced: true)
    for index in members.indices where members[index].isSharing {
      let memberRenewalAt = chargeMember(
        index, .renewal, after: renewalAt, product: track.product, expiresAt: renewalEnd)
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
      if writesTransfers, end == .max { transferPurchase(subject: subject, transaction: lastPurchaseTransaction, after: at + 30 * Span.day) }
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
        if writesTransfers, end == .max {
          transferPurchase(subject: subject, transaction: lastPurchaseTransaction, after: at + 3 * Span.day)
        }
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
    lastPurchaseTransaction = purchase.transaction
    guard random.chance(Rates.refund) else {
      if writesContract13 {
        declinedRefund(subject: subject, transaction: purchase.transaction, from: at + Span.hour, to: at + refundWithin)
      }
      return .max
    }
    let refundAt = at + random.between(Span.hour, refundWithin)
    guard refundAt < horizonAt else { return .max }
    var revocation = GeneratedEvent(.revocation, subject: subject, at: refundAt)
    revocation.transaction = purchase.transaction
    revocation.reason = .refund
    if writesContract13 {
      requestRefund(subject: subject, transaction: purchase.transaction, chargedAt: at, refundAt: refundAt)
    }
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
    var refundDue: WalletRefund? = nil
    var reversalDue: WalletRefund? = nil
    for _ in 0..<(4 + random.below(28)) {
      guard at < horizonAt else { return }
      if let due = refundDue, balance >= due.coins {
        var revocation = GeneratedEvent(.revocation, subject: subject, at: at)
        revocation.transaction = due.transaction
        revocation.reason = .refund
        revocation.quantity = due.packs
        if writesContract13 {
          requestRefund(subject: subject, transaction: due.transaction, chargedAt: due.chargedAt, refundAt: at)
        }
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
            refundDue = WalletRefund(transaction: purchase.transaction, coins: coins, chargedAt: at)
            if writesContract13, quantity > 1, random.chance(Contract13Rates.partialPackRefund) {
              // Some of the packs only: the balance loses those packs' coins.
              let packs = 1 + Int64(random.below(UInt64(quantity - 1)))
              refundDue = WalletRefund(
                transaction: purchase.transaction, coins: packs * product.coinsPerUnit, chargedAt: at, packs: packs)
            }
          } else if writesContract13, refundDue == nil {
            declinedRefund(subject: subject, transaction: purchase.transaction, from: at + Span.minute, to: at + Span.day)
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

  /// A coin purchase whose refund is due once the balance covers it.
  private struct WalletRefund {
    var transaction: UInt64
    /// Coins the refund takes back.
    var coins: Int64
    var chargedAt: Int64
    /// Packs refunded (`revocation.quantity`, v1.3); 0 for all of them.
    var packs: Int64 = 0
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
  mutating func newTransaction() -> UInt64 {
    nextTransaction += 1
    return nextTransaction
  }

  /// The price a pipeline reports for a purchase, if it reports one (never for free offers).
  func price(of product: GeneratedProduct, offer: Offer?) -> Int64 {
    guard sendsPrices else { return -1 }
    switch offer {
    case .trial?, .code?: return -1
    case .intro?, .promo?, .winBack?:
      return storefront.price(dollars: product.dollarPrice, discounted: true)
    case .normal?, nil: return storefront.price(dollars: product.dollarPrice, discounted: false)
    }
  }

  /// Numbers the event, attaches meta, decides how the pipeline delivers it, and maybe redelivers it.
  @discardableResult
  mutating func record(_ event: GeneratedEvent, delivery: Delivery = .normal) -> UInt64 {
    var event = event
    // A charge whose row allows the store's details gets them (a kind's fields are its row's).
    if writesContract13, event.kind.isCharge, event.kind.mayCarry(.store), !event.isTransfer { addChargeDetails(&event) }
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
    return event.number
  }
}
