import StoreLedgerCore
import StoreLedgerQuery

extension ReportBuilder {
  /// Tallies limit hits, their conversion and leaks (Docs/reports.md, "Usage policy").
  ///
  /// Each use needs the policy's outcome at its own instant: as known at R for hits, at its own
  /// `recorded` for leaks. One `UseScan` pass per subject gives the outcome at full knowledge;
  /// the query engine folds a use of its own only when knowledge time changes the answer (R
  /// before the end of the log, or a use whose instant was not fully known when it was recorded).
  /// - Complexity: O(events × (subscriptions + grants) + uses × tiers × features × log uses),
  ///   plus O(events of the subject) per use that knowledge time affects.
  mutating func addPolicyMetrics(asOf: Timestamp?) {
    guard let policy = ledger.catalog.policy else { return }
    var engine = QueryEngine(ledger: ledger)
    var scan = UseScan()
    let day: Int64 = 86_400_000
    for s in 0..<ledger.subjectCount {
      let subject = Symbol(rawValue: UInt32(s))
      let events = ledger.events(of: subject)
      guard events.contains(where: { $0.kind == .usage }) else { continue }
      let name = ledger.symbols.subjects.string(subject)
      // Everything about this subject is known at R: the full-knowledge outcome is the answer as of R.
      let isAllKnown = events.allSatisfy { $0.recorded <= knownBy }
      var lastHitBucket = -1
      func featureAnswer(_ event: Event, asOf: Timestamp?) -> FeatureUsageAnswer? {
        let feature = policy.features[Int(event.feature)].name
        return engine.answer(subject: name, at: event.at, asOf: asOf).policy?.usage.first { $0.feature == feature }
      }
      func tally(_ event: Event, outcome: FeatureOutcome, isKnownAtRecorded: Bool) {
        guard event.recorded <= knownBy, let bucket = buckets.index(of: event.at) else { return }
        let feature = policy.features[Int(event.feature)].name
        // A leak: not allowed by the answer at its own `at`, as known at its own `recorded`.
        let leakTier: String??
        if isKnownAtRecorded {
          leakTier = outcome.allowed ? nil : .some(outcome.tier >= 0 ? policy.tiers[outcome.tier].name : nil)
        } else if let usage = featureAnswer(event, asOf: event.recorded), !usage.allowed {
          leakTier = .some(usage.tier)
        } else {
          leakTier = nil
        }
        if let leakTier { tallies[bucket].leaks[feature + "." + (leakTier ?? "none"), default: 0] += 1 }
        // A hit: this use takes `used` from below a finite limit of at least 1 to the limit or above.
        let used: Int64
        let limit: Int64?
        if isAllKnown {
          (used, limit) = (outcome.used, outcome.limit)
        } else if let usage = featureAnswer(event, asOf: asOf) {
          (used, limit) = (usage.used, usage.limit)
        } else {
          return
        }
        guard let limit, limit >= 1, used < limit, used + event.quantity >= limit else { return }
        tallies[bucket].limitHits[Int(event.feature)] += 1
        guard bucket != lastHitBucket else { return }
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
      scan.scan(subject: subject, of: ledger, policy: policy) { event, outcome, isKnownAtRecorded in
        tally(event, outcome: outcome, isKnownAtRecorded: isKnownAtRecorded)
      }
    }
  }
}
