import StoreLedgerCore

extension ReportBuilder {
  /// One use the policy metrics count: where it is, its bucket, its outcome at full knowledge,
  /// and which of the knowledge-time outcomes it needs (indices into the judged requests; -1: none).
  struct JudgedUse {
    var position: Int
    var bucket: Int
    var outcome: FeatureOutcome
    /// The outcome as known at the use's own `recorded`, when that differs from full knowledge.
    var leakRequest = -1
    /// The outcome as known at R, when the subject has events recorded after R.
    var hitRequest = -1
  }

  /// Tallies limit hits, their conversion and leaks (Docs/reports.md, "Usage policy").
  ///
  /// Each use needs the policy's outcome at its own instant: as known at R for hits, at its own
  /// `recorded` for leaks. One `UseScan` pass per subject gives the outcome at full knowledge;
  /// `KnownAtUseJudge` gives it at an earlier knowledge time only where that time changes the
  /// answer (R before the end of the log, or a use whose instant was not fully known when it was recorded).
  /// - Complexity: O(events × (subscriptions + grants) + uses × tiers × features × log uses),
  ///   plus O(events from the first one recorded after R to the use) per use that knowledge time affects.
  /// `progress` gets the subjects done every `progressSubjects` subjects.
  mutating func addPolicyMetrics(progress: (_ subjectsDone: Int) -> Void) {
    guard let policy = ledger.catalog.policy else { return }
    var scan = UseScan()
    var judge = KnownAtUseJudge()
    var uses: [JudgedUse] = []
    var requests: [KnownAtUseJudge.Request] = []
    var judged: [FeatureOutcome] = []
    let allEvents = ledger.events
    let knownBy = knownBy
    let buckets = buckets
    for s in 0..<ledger.subjectCount {
      if s > 0 && s % Self.progressSubjects == 0 { progress(s) }
      let extent = ledger.extent(of: Symbol(rawValue: UInt32(s)))
      allEvents.withUnsafeBufferPointer { all in
        let events = UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
        guard events.contains(where: { $0.kind == .usage }) else { return }
        // Everything about this subject is known at R: the full-knowledge outcome is the answer as of R.
        let isAllKnown = events.allSatisfy { $0.recorded <= knownBy }
        uses.removeAll(keepingCapacity: true)
        requests.removeAll(keepingCapacity: true)
        scan.scan(events, subscriptionCount: extent.subscriptions, context: ledger.context, policy: policy) {
          position, outcome, isKnownAtRecorded in
          let event = events[position]
          guard event.recorded <= knownBy, let bucket = buckets.index(of: event.at) else { return }
          var use = JudgedUse(position: position, bucket: bucket, outcome: outcome)
          if !isKnownAtRecorded {
            use.leakRequest = requests.count
            requests.append(KnownAtUseJudge.Request(position: position, knownBy: event.recorded))
          }
          if !isAllKnown {
            use.hitRequest = requests.count
            requests.append(KnownAtUseJudge.Request(position: position, knownBy: knownBy))
          }
          uses.append(use)
        }
        judged.removeAll(keepingCapacity: true)
        judged.append(contentsOf: repeatElement(FeatureOutcome(), count: requests.count))
        judge.judge(
          events, subscriptionCount: extent.subscriptions, context: ledger.context, policy: policy, requests: requests
        ) { request, outcome in judged[request] = outcome }
        tallyUses(uses, judged: judged, events: events, policy: policy)
      }
    }
  }

  /// Tallies one subject's uses in effective order: leaks, then limit hits and their conversions.
  private mutating func tallyUses(
    _ uses: [JudgedUse], judged: [FeatureOutcome], events: UnsafeBufferPointer<Event>, policy: Policy
  ) {
    let day: Int64 = 86_400_000
    var lastHitBucket = -1
    for use in uses {
      let event = events[use.position]
      let bucket = use.bucket
      let feature = policy.features[Int(event.feature)].name
      // A leak: not allowed by the answer at its own `at`, as known at its own `recorded`.
      let atRecorded = use.leakRequest < 0 ? use.outcome : judged[use.leakRequest]
      if !atRecorded.allowed {
        let tier = atRecorded.tier >= 0 ? policy.tiers[atRecorded.tier].name : "none"
        tallies[bucket].leaks[feature + "." + tier, default: 0] += 1
      }
      // A hit: this use takes `used` from below a finite limit of at least 1 to the limit or above.
      let asOfR = use.hitRequest < 0 ? use.outcome : judged[use.hitRequest]
      guard let limit = asOfR.limit, limit >= 1, asOfR.used < limit, asOfR.used + event.quantity >= limit else { continue }
      tallies[bucket].limitHits[Int(event.feature)] += 1
      guard bucket != lastHitBucket else { continue }
      lastHitBucket = bucket
      tallies[bucket].limitHitSubjects += 1
      let subscribed = events.first { charge in
        charge.kind == .purchase && charge.at > event.at && charge.recorded <= knownBy
          && charge.ownership == .purchased && charge.offer != .trial
          && ledger.catalog.kind(charge.product) != .consumable
      }
      if let subscribed, subscribed.at <= event.at.adding(milliseconds: 30 * day) {
        tallies[bucket].limitHitConversions30d += 1
        if subscribed.at <= event.at.adding(milliseconds: 7 * day) { tallies[bucket].limitHitConversions7d += 1 }
      }
    }
  }
}
