import StoreLedgerCore

/// Computes a report in one pass over the subjects, folding each subject's events once.
///
/// Each subject's events (known at R) are applied in effective order with the query
/// engine's own fold, so the stock metrics read at a bucket's end are exactly the answer
/// `query --at end --as-of R` gives. Flow metrics classify each event against the state
/// just before it. Definitions: Docs/reports.md.
package struct ReportBuilder {
  let ledger: Ledger
  let buckets: ReportBuckets
  let knownBy: Timestamp
  /// The subject being folded, with the query engine's own fold and selection.
  var state = SubjectState()
  private var selection = Selection()
  /// One tally per bucket plus a last one that absorbs events outside the window.
  var tallies: [BucketTally]
  private let levels: [Int?]
  // Per-subject scratch, reused.
  private var episodeBucket: [Int] = []
  private var revokedCharges: [(transaction: Symbol, isRefund: Bool, amount: Int64)] = []
  private var pendingTrialAt: Timestamp? = nil
  private var pendingTrialBucket = 0
  private var heldEntitlements: [(entitlement: Int, isShared: Bool, isGrant: Bool)] = []
  private var heldSubscription = false
  private var heldUntil = Timestamp.distantFuture
  /// The current period's charge of each subscription slot, as charged (for MRR).
  var charges: [PeriodCharge] = []
  /// What the subject adds to MRR at the last sample: (currency, thousandths) per owned paid subscription.
  private var heldRecurring: [(currency: Int, thousandths: Int64)] = []
  private var heldUnpriced: Int64 = 0
  private var heldPaying = false
  /// Whether the subject has had an owned paid subscription period, and the bucket it began in (-1: outside).
  private var hasPaid = false
  private var paidCohortBucket = -1
  /// The first money or units sum that would leave `Limits.reportValueMax`: (metric, key index, bucket).
  var outOfRange: (metric: ReportMetric, key: Int, bucket: Int)? = nil
  /// Who the customers are, and the figures of the one being folded.
  let customers: ReportCustomers
  var customerTally = CustomerTally()
  /// The transactions of the subject with a `refund_requested` so far, in effective order.
  private var requestedRefunds: [Symbol] = []
  /// The charges' `store`, `country` and `proceeds` (empty: none stated).
  let facts: ChargeFacts
  /// With `report --by`, the one segment this pass counts (nil: everything).
  let segment: SegmentFilter?
  /// Whether the event being tallied is in `segment` (what is not goes to the tally never reported).
  private var isEventInSegment = true
  /// Whether the event being tallied only rebuilds state: an earlier fold of the owner model
  /// tallied it (`add(group:)`). Its flows go to the tally never reported, and nothing of it to
  /// the customer or to a cohort.
  private var isReplaying = false
  /// The bucket the event being tallied is in for what the subject remembers of it (a trial's,
  /// a billing issue's or the paid cohort's bucket): its own when in the segment, replayed or not.
  private var scratchBucket = 0
  /// The instants of the subject's own lines its fold leaves out (lines of a unit it shares but
  /// does not own then), sorted: its usage-based trial starts and tries its conversion there too.
  var hiddenOwnInstants: [Timestamp] = []

  /// Computes the report of `ledger` over `buckets` as known at `asOf` (nil: everything),
  /// calling `progress` with the subject passes done and to do (one pass per subject, two with
  /// a policy) every `progressSubjects` subjects.
  /// - Complexity: O(events + subjects · buckets · (subscriptions + grants of a subject)).
  /// Throws when a bucket's money or units sum would pass `Limits.reportValueMax`.
  package static func report(
    ledger: Ledger, buckets: ReportBuckets, asOf: Timestamp?, facts: ChargeFacts = ChargeFacts(),
    by key: ReportSegmentKey? = nil, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
  ) throws(Diagnostic) -> Report {
    var whole = try pass(ledger: ledger, buckets: buckets, asOf: asOf, facts: facts, segment: nil, progress: progress)
    guard let key else { return whole }
    var parts: [ReportSegment] = []
    for value in SegmentFilter.allValues(key: key, ledger: ledger, facts: facts) {
      let filter = SegmentFilter(key: key, value: value, catalog: ledger.catalog)
      let part = try pass(ledger: ledger, buckets: buckets, asOf: asOf, facts: facts, segment: filter, progress: nil)
      parts.append(ReportSegment(value: value, buckets: part.buckets))
    }
    whole.segments = ReportSegments(key: key, parts: parts)
    return whole
  }

  /// One pass over the subjects, counting only `segment` when given.
  /// - Complexity: O(events + subjects · buckets · (subscriptions + grants of a subject)).
  private static func pass(
    ledger: Ledger, buckets: ReportBuckets, asOf: Timestamp?, facts: ChargeFacts, segment: SegmentFilter?,
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(Diagnostic) -> Report {
    var builder = ReportBuilder(ledger: ledger, buckets: buckets, asOf: asOf, facts: facts, segment: segment)
    let subjects = ledger.subjectCount
    let total = ledger.catalog.policy == nil ? subjects : 2 * subjects
    progress?(0, total)
    for (done, subject) in builder.customers.subjects.enumerated() {
      let customer = builder.customers.customer(of: subject)
      let parties = builder.customers.parties(of: customer)
      if customer != builder.customerTally.customer {
        builder.flushCustomer()
        builder.customerTally.reset(customer: customer)
        // A customer joined by transfers is folded once, all its parties under the owner model.
        if let parties { builder.add(group: parties) }
      }
      if parties == nil { builder.add(subject: subject) }
      if done % progressSubjects == progressSubjects - 1 { progress?(done + 1, total) }
    }
    builder.flushCustomer()
    // Usage policy metrics belong to no charge: a segment's pass leaves them out.
    if ledger.catalog.policy != nil && segment == nil { builder.addPolicyMetrics { progress?(subjects + $0, total) } }
    progress?(total, total)
    if let (metric, key, bucket) = builder.outOfRange {
      let keyName = ledger.symbols.currencies.string(Symbol(rawValue: UInt32(key)))
      throw Diagnostic(
        .reportValueOutOfRange(
          name: metric.rawValue + "." + keyName, bucketStart: buckets.boundaries[bucket].rfc3339,
          limit: Limits.reportValueMax))
    }
    return builder.report(asOf: asOf)
  }

  /// Adds `amount` to a bucket's money or units sum under currency `key` (at `index`, default
  /// `key`); a sum that would leave `Limits.reportValueMax` is not added, and the first such one
  /// is remembered.
  mutating func add(
    _ amount: Int64, to sum: WritableKeyPath<BucketTally, [Int64]>, _ metric: ReportMetric, key: Int, bucket: Int,
    at index: Int? = nil
  ) {
    let index = index ?? key
    let (total, overflow) = tallies[bucket][keyPath: sum][index].addingReportingOverflow(amount)
    guard overflow || total.magnitude > Limits.reportValueMax.magnitude else {
      tallies[bucket][keyPath: sum][index] = total
      return
    }
    // The last tally absorbs events outside the window; it is never reported.
    if outOfRange == nil && bucket < outside { outOfRange = (metric, key, bucket) }
  }

  private init(ledger: Ledger, buckets: ReportBuckets, asOf: Timestamp?, facts: ChargeFacts, segment: SegmentFilter?) {
    self.ledger = ledger
    self.facts = facts
    self.segment = segment
    self.buckets = buckets
    knownBy = asOf ?? .distantFuture
    tallies = (0...buckets.count).map { index in
      BucketTally(
        entitlements: ledger.catalog.entitlementNames.count, products: ledger.catalog.products.count,
        currencies: ledger.symbols.currencies.count, features: ledger.catalog.policy?.features.count ?? 0,
        cohortOffsets: min(buckets.count - index, Limits.reportCohortOffsetsMax))
    }
    levels = ledger.catalog.products.map(\.level)
    customers = ReportCustomers(ledger: ledger, knownBy: knownBy)
  }

  private var outside: Int { buckets.count }

  /// How many subjects go by between two calls of a report's progress callback.
  static let progressSubjects = 64

  /// Whether the report counts the policy's usage-based trial (never in a segment's pass).
  var hasUsageTrial: Bool { ledger.catalog.policy?.trial != nil && segment == nil }

  private mutating func add(subject: Symbol) {
    let s = Int(subject.rawValue)
    let lower = Int(ledger.subjectStarts[s])
    let upper = Int(ledger.subjectStarts[s + 1])
    beginSubject()
    var funnel = TrialFunnel(trial: ledger.catalog.policy?.trial)
    var isFirstKnown = true
    let events = ledger.events
    events.withUnsafeBufferPointer { all in
      fold(
        UnsafeBufferPointer(rebasing: all[lower..<upper]), subscriptionCount: Int(ledger.subscriptionCounts[s]),
        funnel: &funnel, isFirstKnown: &isFirstKnown)
    }
    if hasUsageTrial {
      funnel.settle(before: .distantFuture, state: state, catalog: ledger.catalog)
      tallyFunnel(funnel)
    }
  }

  /// Starts a subject: it has not paid yet (its paid cohort spans the folds of its events).
  mutating func beginSubject() {
    hasPaid = false
    paidCohortBucket = -1
  }

  /// Starts a fold of a subject's events from nothing (the paid cohort is the caller's to reset).
  private mutating func resetSubject(subscriptionCount: Int, itemCount: Int) {
    state.reset(subscriptionCount: subscriptionCount, itemCount: itemCount)
    episodeBucket.removeAll(keepingCapacity: true)
    episodeBucket.append(contentsOf: repeatElement(-1, count: subscriptionCount))
    revokedCharges.removeAll(keepingCapacity: true)
    pendingTrialAt = nil
    heldEntitlements.removeAll(keepingCapacity: true)
    heldSubscription = false
    heldUntil = .distantFuture
    charges.removeAll(keepingCapacity: true)
    charges.append(contentsOf: repeatElement(PeriodCharge(), count: subscriptionCount))
    heldRecurring.removeAll(keepingCapacity: true)
    heldUnpriced = 0
    heldPaying = false
    requestedRefunds.removeAll(keepingCapacity: true)
  }

  /// Folds one subject's events, or the events the owner model gathers for a party, in effective
  /// order from nothing: those effective before `from` only rebuild the state (an earlier fold
  /// tallied them); the flows of those in [`from`, `until`) are tallied and the stocks sampled at
  /// the boundaries in [`from`, `until`). Another subject's line (`isForeign`) is not the
  /// subject's for its usage-based trial; a transfer to it is an instant its conversion is tried at.
  /// - Complexity: O(events + buckets · (subscriptions + grants)).
  mutating func fold(
    _ events: UnsafeBufferPointer<Event>, subscriptionCount: Int, from: Timestamp = .distantPast,
    until: Timestamp = .distantFuture, funnel: inout TrialFunnel, isFirstKnown: inout Bool
  ) {
    resetSubject(subscriptionCount: subscriptionCount, itemCount: events.count)
    var isDirty = false
    let hasUsageTrial = hasUsageTrial
    var sampleBoundary = 0
    let bucketCount = buckets.count
    while sampleBoundary <= bucketCount && buckets.boundaries[sampleBoundary] < from { sampleBoundary += 1 }
    var flowBucket = 0
    let end = buckets.end
    var nextHidden = 0
    for event in events {
      if event.recorded > knownBy { continue }
      if event.at >= until { break }
      let isReplay = event.at < from
      if !isReplay {
        if hasUsageTrial {
          while nextHidden < hiddenOwnInstants.count && hiddenOwnInstants[nextHidden] <= event.at {
            probeTrial(at: hiddenOwnInstants[nextHidden], funnel: &funnel, isFirstKnown: &isFirstKnown)
            nextHidden += 1
          }
          let isProbe = !event.isForeign || (event.isTransfer && funnel.started != nil)
          funnel.settle(before: event.at, state: state, catalog: ledger.catalog, isCandidate: isProbe)
        }
        while sampleBoundary <= bucketCount && event.at > buckets.boundaries[sampleBoundary] {
          sample(boundary: sampleBoundary, isDirty: &isDirty)
          sampleBoundary += 1
        }
        if sampleBoundary > bucketCount { break }
      }
      while flowBucket < bucketCount && buckets.boundaries[flowBucket + 1] <= event.at { flowBucket += 1 }
      let bucket = event.at >= buckets.start && event.at < end ? flowBucket : outside
      // The usage-based trial starts at the subject's first own event, whatever its type.
      if !isReplay && !event.isForeign {
        if isFirstKnown && hasUsageTrial {
          tallies[bucket].usageTrialsStarted += 1
          funnel.start(at: event.at, bucket: bucket)
        }
        isFirstKnown = false
        if hasUsageTrial && event.kind == .usage { funnel.count(event) }
      }
      isEventInSegment = segment == nil || isInSegment(event, subjectEvents: events)
      isReplaying = isReplay
      scratchBucket = isEventInSegment ? bucket : outside
      tally(event, bucket: isEventInSegment && !isReplay ? bucket : outside, subjectEvents: events)
      _ = state.apply(event, context: ledger.context)
      isDirty = true
    }
    isReplaying = false
    // After the report's end a conversion counts nowhere; up to it, every event before is applied.
    for instant in hiddenOwnInstants[nextHidden...] where hasUsageTrial && instant <= end {
      probeTrial(at: instant, funnel: &funnel, isFirstKnown: &isFirstKnown)
    }
    while sampleBoundary <= bucketCount && buckets.boundaries[sampleBoundary] < until {
      sample(boundary: sampleBoundary, isDirty: &isDirty)
      sampleBoundary += 1
    }
  }

  /// An own line of the subject that its fold leaves out, for its usage-based trial: the trial
  /// starts there if it has not, and its conversion is tried there (every event before it applied).
  private mutating func probeTrial(at instant: Timestamp, funnel: inout TrialFunnel, isFirstKnown: inout Bool) {
    if isFirstKnown {
      let bucket = buckets.index(of: instant) ?? outside
      tallies[bucket].usageTrialsStarted += 1
      funnel.start(at: instant, bucket: bucket)
      isFirstKnown = false
    }
    funnel.settle(before: instant, state: state, catalog: ledger.catalog)
  }

  /// Adds one subject's usage trial to the funnel of the bucket it started in (Docs/reports.md).
  mutating func tallyFunnel(_ funnel: TrialFunnel) {
    guard let trial = funnel.trial, funnel.startBucket >= 0, funnel.startBucket < outside else { return }
    let (maturity, endedBy) = funnel.maturity
    let graceEnds = trial.grace?.added(to: maturity) ?? maturity
    let end = buckets.end
    let bucket = funnel.startBucket
    if let conversion = funnel.conversion, conversion < end {
      if conversion < maturity {
        tallies[bucket].usageTrialsConvertedInTrial += 1
      } else if conversion < graceEnds {
        tallies[bucket].usageTrialsConvertedInGrace += 1
      } else {
        tallies[bucket].usageTrialsConvertedAfter += 1
      }
    }
    if maturity < end && (funnel.conversion.map { $0 >= maturity } ?? true) {
      tallies[bucket].usageTrialsEnded[endedBy + 1] += 1
    }
  }

  /// Notes what the subject holds at a bucket boundary (its MRR, for the movement) and adds it to
  /// the stocks of the bucket ending there, re-selecting only when it may have changed.
  private mutating func sample(boundary: Int, isDirty: inout Bool) {
    let bucket = max(boundary - 1, 0)
    let time = buckets.boundaries[boundary]
    if isDirty || time >= heldUntil {
      isDirty = false
      selection.select(state, at: time, catalog: ledger.catalog)
      heldEntitlements.removeAll(keepingCapacity: true)
      for (entitlement, candidate) in selection.bestByEntitlement.enumerated() where candidate.isSet {
        if segment != nil && !isInSegment(candidate) { continue }
        let ownership =
          candidate.isSubscription ? state.subscriptions[candidate.index].ownership : state.items[candidate.index].ownership
        let isGrant = !candidate.isSubscription && state.items[candidate.index].isGrant
        heldEntitlements.append((entitlement, ownership == .familyShared, isGrant))
      }
      // Without events, what is held changes only where a period, grace or grant ends.
      heldSubscription = false
      heldUntil = .distantFuture
      heldRecurring.removeAll(keepingCapacity: true)
      heldUnpriced = 0
      heldPaying = false
      for (slot, sub) in state.subscriptions.enumerated() where sub.isKnown {
        if sub.hasAccess(at: time) && charges[slot].isInSegment {
          heldSubscription = true
          if sub.ownership == .purchased && sub.offer != .trial { holdRecurring(charges[slot], bucket: bucket) }
        }
        if sub.expires > time { heldUntil = min(heldUntil, sub.expires) }
        if sub.status == .grace && sub.graceExpires > time { heldUntil = min(heldUntil, sub.graceExpires) }
      }
      for index in state.grantPositions where state.items[index].end > time {
        heldUntil = min(heldUntil, state.items[index].end)
      }
    }
    for recurring in heldRecurring {
      customerTally.boundaryMRR.append((boundary, recurring.currency, recurring.thousandths))
    }
    // Boundary 0 only opens the first bucket.
    guard boundary > 0 else { return }
    for held in heldEntitlements {
      tallies[bucket].active[held.entitlement] += 1
      if held.isShared { tallies[bucket].familyShared[held.entitlement] += 1 }
      if held.isGrant { tallies[bucket].grantedActive[held.entitlement] += 1 }
    }
    if state.hasBlockEvents { tallyBlocks(bucket: bucket) }
    if heldSubscription { tallies[bucket].subscribers += 1 }
    for recurring in heldRecurring { add(recurring.thousandths, to: \.mrr, .mrr, key: recurring.currency, bucket: bucket) }
    tallies[bucket].mrrPricedSubscriptions += Int64(heldRecurring.count)
    tallies[bucket].mrrUnpricedSubscriptions += heldUnpriced
    if heldPaying && paidCohortBucket >= 0 && bucket >= paidCohortBucket {
      let offset = bucket - paidCohortBucket
      if offset < tallies[paidCohortBucket].paidCohortRetained.count {
        tallies[paidCohortBucket].paidCohortRetained[offset] += 1
      }
    }
  }

  /// Notes what one owned subscription with access through a paid (not trial) period adds to MRR.
  private mutating func holdRecurring(_ charge: PeriodCharge, bucket: Int) {
    heldPaying = true
    guard charge.hasPrice else {
      heldUnpriced += 1
      return
    }
    guard let monthly = charge.monthlyThousandths else {
      if outOfRange == nil && bucket < outside { outOfRange = (.mrr, charge.currency, bucket) }
      return
    }
    heldRecurring.append((charge.currency, monthly))
  }

  /// Classifies one event against the state just before it (Docs/reports.md, flow metrics).
  private mutating func tally(_ event: Event, bucket: Int, subjectEvents: UnsafeBufferPointer<Event>) {
    // What the kind's row says the report counts: a kind that counts nothing at its instant (its
    // effect shows in the holdings sampled at bucket ends) needs no case here.
    switch event.kind.reportCount {
    case .charge:
      tallyCharge(event, bucket: bucket)
    case .revocation:
      tallyRevocation(event, bucket: bucket, subjectEvents: subjectEvents)
    case .refundReversal:
      tallyRefundReversal(event, bucket: bucket, subjectEvents: subjectEvents)
    case .billingState:
      tallyBillingState(event, bucket: bucket)
    case .balanceSpend:
      let currency = Int(event.balanceCurrency.rawValue)
      add(event.quantity, to: \.spends, .spends, key: currency, bucket: bucket)
    case .use:
      // A release (negative quantity) is not a use; a subscriber is a subject with a subscription giving access.
      guard event.quantity > 0, state.subscriptions.contains(where: { $0.isKnown && $0.hasAccess(at: event.at) })
      else { break }
      tallies[bucket].subscriberUses[Int(event.feature)] += event.quantity
    case .refundRequest:
      tallies[bucket].refundRequests += 1
      requestedRefunds.append(event.transaction)
    case .refundDecline:
      tallies[bucket].refundsDeclined += 1
    case .nothing:
      break
    }
  }

  /// A `refund_reversed` of a charge whose revocation was counted: the amount its revocation took
  /// back comes back (contract v1.3, section 11).
  private mutating func tallyRefundReversal(_ event: Event, bucket: Int, subjectEvents: UnsafeBufferPointer<Event>) {
    guard let index = revokedCharges.firstIndex(where: { $0.transaction == event.transaction }),
      let charge = Self.charge(event.transaction, in: subjectEvents, knownBy: knownBy)
    else { return }
    let revoked = revokedCharges.remove(at: index)
    let price = ledger.details.details(line: charge.line)
    if price.hasPrice {
      addRevenue(revoked.amount, currency: Int(price.priceCurrency.rawValue), bucket: bucket)
      addProceeds(revoked.amount, of: price, line: charge.line, bucket: bucket)
    }
    if revoked.isRefund {
      tallies[bucket].refundReversals += 1
      if price.hasPrice { add(revoked.amount, to: \.reversed, .reversed, key: Int(price.priceCurrency.rawValue), bucket: bucket) }
    }
  }

  /// A `purchase` or `renewal`: revenue, the period's charge for MRR, and for an owned one the
  /// charge, its subscription's flows, consumable credits and the trial it starts or converts.
  private mutating func tallyCharge(_ event: Event, bucket: Int) {
    let catalog = ledger.catalog
    let slot = Int(event.slot)
    let productKind = catalog.kind(event.product)
    let isSubscription = productKind == .autoRenewable
    let before = isSubscription ? state.subscriptions[slot] : SubscriptionState()
    let isOwned =
      event.kind == .purchase ? event.ownership == .purchased : !before.isKnown || before.ownership == .purchased
    let price = ledger.details.details(line: event.line)
    let raisesPrice = isSubscription && event.kind == .renewal && charges[slot].isRaised(by: event, price: price)
    if price.hasPrice {
      addRevenue(price.price, currency: Int(price.priceCurrency.rawValue), bucket: bucket)
      addProceeds(price.price, of: price, line: event.line, bucket: bucket)
      if statedFacts(line: event.line)?.hasProceeds != true { tallies[bucket].proceedsUnknown += 1 }
    }
    if isSubscription {
      charges[slot] = PeriodCharge(
        start: event.at, expires: event.expires, period: catalog.products[Int(event.product.rawValue)].period,
        hasPrice: price.hasPrice, price: price.price, currency: Int(price.priceCurrency.rawValue))
      charges[slot].isInSegment = isEventInSegment
      charges[slot].product = event.product
      charges[slot].isRegular = event.offer == .normal
    }
    guard isOwned else { return }
    tallies[bucket].charges += 1
    // A renewal of a subscription still running (not one coming back after it ended).
    if raisesPrice && before.isKnown && before.status != .expired && before.status != .revoked {
      tallies[bucket].priceIncreasesAccepted += 1
    }
    if price.hasPrice && price.price > 0 && !isReplaying {
      customerTally.notePayment(at: event.at, bucket: bucket)
      if isEventInSegment && isSubscription && event.offer != .trial && (charges[slot].monthlyThousandths ?? 1) > 0 {
        customerTally.noteMRR(currency: Int(price.priceCurrency.rawValue), from: event.at)
      }
    }
    if isSubscription { tallyOwnedSubscriptionCharge(event, before: before, slot: slot, bucket: bucket) }
    if productKind == .consumable {
      // At most `Limits.amountMax` (the validator's rule for consumable purchases): no overflow.
      let units = event.quantity * catalog.units[Int(event.product.rawValue)]
      let currency = Int(ledger.context.productCurrencies[Int(event.product.rawValue)].rawValue)
      add(units, to: \.credits, .credits, key: currency, bucket: bucket)
    } else if event.offer == .trial {
      // A trial renewing into another trial period continues the trial it belongs to.
      if event.kind == .purchase {
        tallies[bucket].trialsStarted += 1
        pendingTrialAt = event.at
        pendingTrialBucket = scratchBucket
      }
    } else if let trialStart = pendingTrialAt {
      tallies[bucket].trialConversions += 1
      let day = (event.at.millisecondsSinceEpoch - trialStart.millisecondsSinceEpoch) / ReportInterval.dayMs
      tallies[bucket].trialConversionDays[day, default: 0] += 1
      if event.at < buckets.end && !isReplaying { tallies[pendingTrialBucket].trialsConverted += 1 }
      pendingTrialAt = nil
    }
  }

  /// A `revocation` of a charge known at R, once: revenue taken back, a refund unless Family
  /// Sharing ended, and the end of its subscription's billing episode.
  private mutating func tallyRevocation(_ event: Event, bucket: Int, subjectEvents: UnsafeBufferPointer<Event>) {
    guard let charge = Self.charge(event.transaction, in: subjectEvents, knownBy: knownBy),
      !revokedCharges.contains(where: { $0.transaction == event.transaction })
    else { return }
    let slot = Int(event.slot)
    let isRefund = event.reasonRaw != RevocationReason.familyRevoked.rawValue
    let price = ledger.details.details(line: charge.line)
    let amount = Self.refundedAmount(event, revocation: ledger.details.details(line: event.line), charge: charge, price: price)
    revokedCharges.append((event.transaction, isRefund, amount))
    if price.hasPrice {
      addRevenue(-amount, currency: Int(price.priceCurrency.rawValue), bucket: bucket)
      addProceeds(-amount, of: price, line: charge.line, bucket: bucket)
    }
    if isRefund {
      tallies[bucket].refunds += 1
      if event.reasonRaw == RevocationReason.refund.rawValue && requestedRefunds.contains(event.transaction) {
        tallies[bucket].refundsGranted += 1
      }
      if price.hasPrice { add(amount, to: \.refunded, .refunded, key: Int(price.priceCurrency.rawValue), bucket: bucket) }
    }
    // A refund effective before its purchase has no target (the loader leaves it unresolved).
    if event.targetProduct.isSome && ledger.catalog.kind(event.targetProduct) == .autoRenewable
      && slot < episodeBucket.count && state.subscriptions[slot].transaction == event.transaction
    {
      episodeBucket[slot] = -1
    }
  }

  /// Adds to `revenue` and to the customer's net revenue (for its lifetime value).
  private mutating func addRevenue(_ amount: Int64, currency: Int, bucket: Int) {
    add(amount, to: \.revenue, .revenue, key: currency, bucket: bucket)
    if !isReplaying { customerTally.revenue.append((bucket, currency, amount)) }
  }

  /// What a revocation takes back of its charge's price (contract v1.3, section 11): its
  /// `refunded`; else, for packs of a consumable, price × packs ÷ packs bought, rounded half up;
  /// else the whole price. Within the price (the decide step's rule), so no sum overflows.
  static func refundedAmount(_ event: Event, revocation: EventDetails, charge: Event, price: EventDetails) -> Int64 {
    if event.hasRefunded { return min(revocation.price, price.price) }
    guard event.quantity > 0, charge.quantity > event.quantity else { return price.price }
    let (product, overflow) = price.price.multipliedReportingOverflow(by: event.quantity)
    guard !overflow else { return price.price }
    return (2 * product + charge.quantity) / (2 * charge.quantity)
  }

  /// An `expiration`, `billing_retry`, `grace_entered` or `renewal_extended` of an owned
  /// subscription still running: churn, billing issues and recoveries.
  private mutating func tallyBillingState(_ event: Event, bucket: Int) {
    let slot = Int(event.slot)
    guard slot < episodeBucket.count else { return }
    let before = state.subscriptions[slot]
    guard before.isKnown, before.status != .expired, before.status != .revoked, before.ownership == .purchased
    else { return }
    switch event.kind {
    case .expiration:
      tallies[bucket].churn[Int(min(event.reasonRaw, UInt8(ExpirationReason.allCases.count)))] += 1
      episodeBucket[slot] = -1
    case .billingRetry, .graceEntered:
      let isRetry = event.kind == .billingRetry
      if before.status != (isRetry ? .billingRetry : .grace) {
        if isRetry { tallies[bucket].billingRetryEntries += 1 } else { tallies[bucket].graceEntries += 1 }
      }
      if before.status == .active {
        tallies[bucket].billingIssues += 1
        episodeBucket[slot] = scratchBucket
      }
    default:
      if before.status == .billingRetry || before.status == .grace { tallyRecovery(slot: slot, at: event.at, bucket) }
    }
  }

  /// An owned `purchase` or `renewal` of an auto-renewable: new, reactivation, plan change,
  /// recovery, and the subject's first paid period (its paid cohort).
  private mutating func tallyOwnedSubscriptionCharge(_ event: Event, before: SubscriptionState, slot: Int, bucket: Int) {
    let isRecovery = before.isKnown && (before.status == .billingRetry || before.status == .grace)
    let isReactivation = event.kind == .purchase && !isRecovery && isComeback(to: event.product, at: event.at)
    if isReactivation {
      tallies[bucket].reactivations += 1
    } else if !before.isKnown && event.kind == .purchase {
      tallies[bucket].newSubscriptions[Int(event.product.rawValue)] += 1
    }
    if before.isKnown {
      if before.product != event.product { tallyPlanChange(from: before.product, to: event.product, bucket) }
      if isRecovery { tallyRecovery(slot: slot, at: event.at, bucket) }
    }
    if event.offer != .trial && !hasPaid {
      hasPaid = true
      // A replayed first paid period keeps its cohort (a subscription received follows its
      // first owner's cohort) but the subject is not counted in it again.
      if scratchBucket < outside {
        paidCohortBucket = scratchBucket
        if !isReplaying { tallies[scratchBucket].paidCohortSubjects += 1 }
      }
    }
  }

  /// Whether a purchase of `product` at T comes back to its group: the subject held a
  /// subscription of the group before and none of them gives access at T.
  /// - Complexity: O(subscriptions of the subject).
  private func isComeback(to product: ProductIndex, at time: Timestamp) -> Bool {
    let groups = ledger.catalog.groupIndices
    let group = groups[Int(product.rawValue)]
    var heldBefore = false
    for sub in state.subscriptions where sub.isKnown && groups[Int(sub.product.rawValue)] == group {
      if sub.hasAccess(at: time) { return false }
      heldBefore = true
    }
    return heldBefore
  }

  private mutating func tallyRecovery(slot: Int, at time: Timestamp, _ bucket: Int) {
    tallies[bucket].billingRecoveries += 1
    if episodeBucket[slot] >= 0 && time < buckets.end && !isReplaying {
      tallies[episodeBucket[slot]].billingIssuesRecovered += 1
    }
    episodeBucket[slot] = -1
  }

  private mutating func tallyPlanChange(from old: ProductIndex, to new: ProductIndex, _ bucket: Int) {
    guard let oldLevel = levels[Int(old.rawValue)], let newLevel = levels[Int(new.rawValue)], oldLevel != newLevel else {
      tallies[bucket].crossgrades += 1
      return
    }
    // Level 1 is the top tier.
    if newLevel < oldLevel { tallies[bucket].upgrades += 1 } else { tallies[bucket].downgrades += 1 }
  }

  /// The `purchase` or `renewal` that charged `transaction`, if known at R.
  /// - Complexity: O(events of the subject); revocations are rare.
  private static func charge(
    _ transaction: Symbol, in events: UnsafeBufferPointer<Event>, knownBy: Timestamp
  ) -> Event? {
    events.first {
      $0.kind.isCharge && $0.transaction == transaction && $0.recorded <= knownBy
    }
  }
}

/// The charge that started a subscription's current period, as charged: later extensions of
/// the period do not change the nominal period MRR divides by.
struct PeriodCharge {
  var hasPrice = false
  /// Whether the charge is in the segment the pass counts (always, without `report --by`).
  var isInSegment = true
  /// In thousandths of `currency`.
  var price: Int64 = 0
  /// The currency symbol's number.
  var currency = 0
  /// Periods per year of the plan's nominal billing period (Docs/reports.md, `mrr`).
  var periodsPerYear: Int64 = 12
  /// The product charged (`.none`: no charge yet).
  var product = ProductIndex.none
  /// Whether it was charged at the regular price (`offer` `normal`: no trial, intro or other offer).
  var isRegular = false

  /// The charge of a plan whose nominal period is `period`, or else the one nearest to the
  /// charge's own length (from `start` to `expires`).
  init(
    start: Timestamp, expires: Timestamp, period: NominalPeriod?, hasPrice: Bool, price: Int64, currency: Int
  ) {
    let nominal =
      period ?? NominalPeriod.nearest(toMilliseconds: expires.millisecondsSinceEpoch &- start.millisecondsSinceEpoch)
    self.periodsPerYear = nominal.periodsPerYear
    self.hasPrice = hasPrice
    self.price = price
    self.currency = currency
  }

  /// No charge yet.
  init() {}

  /// The charge's price × periods per year of its nominal period ÷ 12, rounded half up to a
  /// thousandth; nil when it would pass `Limits.reportValueMax`.
  var monthlyThousandths: Int64? {
    // A year's worth of charges spread over 12 months, half up: ⌊(2 × n × price + 12) ÷ 24⌋.
    let (doubled, overflow) = price.magnitude.multipliedReportingOverflow(by: 2 * UInt64(periodsPerYear))
    guard !overflow, doubled <= UInt64.max - 12 else { return nil }
    let rounded = (doubled + 12) / 24
    guard rounded <= UInt64(Limits.reportValueMax) else { return nil }
    return price < 0 ? -Int64(rounded) : Int64(rounded)
  }
}

/// One subject's usage-based trial as the report folds it: when it started, when each usage
/// threshold was reached, and its conversion (Docs/semantics.md, "The usage-based trial").
struct TrialFunnel {
  let trial: UsageTrial?
  private(set) var started: Timestamp? = nil
  /// The bucket the trial started in (`-1` before the first event).
  private(set) var startBucket = -1
  /// Running sums of each threshold's feature, and the instant each first reached its count.
  private var sums: [Int64]
  private var reached: [Timestamp?]
  /// The first event instant at which the trial's entitlement is active.
  private(set) var conversion: Timestamp? = nil
  /// The last event instant not yet checked for conversion.
  private var pending: Timestamp? = nil

  init(trial: UsageTrial?) {
    self.trial = trial
    sums = Array(repeating: 0, count: trial?.thresholds.count ?? 0)
    reached = Array(repeating: nil, count: trial?.thresholds.count ?? 0)
  }

  mutating func start(at time: Timestamp, bucket: Int) {
    started = time
    startBucket = bucket
  }

  /// Counts a use towards the threshold of its feature (uses at the reaching instant included).
  mutating func count(_ event: Event) {
    guard let trial else { return }
    for (index, threshold) in trial.thresholds.enumerated() where threshold.feature == Int(event.feature) {
      // Quantities are bounded by the validator, a sum of them by the log's size: no overflow.
      sums[index] += event.quantity
      if reached[index] == nil && sums[index] >= threshold.count { reached[index] = event.at }
    }
  }

  /// Before an event at `time`: checks the previous instant, now that all its events are applied.
  /// `isCandidate` false: `time` is not an instant to try (another subject's line), only a check.
  mutating func settle(before time: Timestamp, state: SubjectState, catalog: Catalog, isCandidate: Bool = true) {
    defer {
      if isCandidate {
        pending = time
      } else if let instant = pending, instant < time {
        pending = nil
      }
    }
    guard let instant = pending, instant < time, conversion == nil, let trial else { return }
    if state.hasEntitlement(trial.entitlement, at: instant, catalog: catalog) { conversion = instant }
  }

  /// Maturity M and what reached it: -1 for the duration, else the feature index. On equal
  /// instants the duration comes first, then features by name (thresholds are sorted by feature).
  var maturity: (Timestamp, Int) {
    guard let trial, let started else { return (.distantFuture, -1) }
    var result = (trial.duration.added(to: started), -1)
    for (index, threshold) in trial.thresholds.enumerated() {
      if let at = reached[index], at < result.0 { result = (at, threshold.feature) }
    }
    return result
  }
}
