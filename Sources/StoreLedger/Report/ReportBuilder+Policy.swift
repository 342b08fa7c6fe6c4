extension ReportBuilder {
  /// Tallies limit hits, their conversion and leaks (Docs/reports.md, "Usage policy").
  ///
  /// Each `usage` event needs the policy answer at its own instant (as known at R for hits,
  /// at its own `recorded` for leaks), so this asks the query engine per use instead of
  /// sharing the main pass.
  /// - Complexity: O(Σ over subjects of uses × events).
  mutating func addPolicyMetrics(asOf: Timestamp?) {
    guard let policy = ledger.catalog.policy else { return }
    var engine = QueryEngine(ledger: ledger)
    let day: Int64 = 86_400_000
    for s in 0..<ledger.subjectCount {
      let subject = Symbol(rawValue: UInt32(s))
      let events = ledger.events(of: subject)
      guard events.contains(where: { $0.kind == .usage }) else { continue }
      let name = ledger.symbols.subjects.string(subject)
      var lastHitBucket = -1
      for event in events where event.kind == .usage && event.recorded <= knownBy {
        guard let bucket = buckets.index(of: event.at) else { continue }
        let feature = policy.features[Int(event.feature)].name
        // A leak: not allowed by the answer at its own `at`, as known at its own `recorded`.
        let known = engine.answer(subject: name, at: event.at, asOf: event.recorded)
        // A release hands nothing out and is never a leak (Docs/decisions.md).
        if event.quantity > 0, let usage = known.policy?.usage.first(where: { $0.feature == feature }), !usage.allowed {
          tallies[bucket].leaks[feature + "." + (usage.tier ?? "none"), default: 0] += 1
        }
        // A hit: this use takes `used` from below a finite limit of at least 1 to the limit or above.
        let answer = asOf == event.recorded ? known : engine.answer(subject: name, at: event.at, asOf: asOf)
        guard let usage = answer.policy?.usage.first(where: { $0.feature == feature }), let limit = usage.limit,
          limit >= 1, usage.used < limit, usage.used + event.quantity >= limit
        else { continue }
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
}
