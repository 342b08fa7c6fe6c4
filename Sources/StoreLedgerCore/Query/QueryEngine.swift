internal import CStoreLedgerSupport

/// Answers "what did this subject hold at T, as known at R" by folding the subject's events.
///
/// The fold runs per query over the subject's events in effective order, skipping
/// events recorded after R and stopping at the first event after T, so every
/// (T, R) pair is exact and no precomputed timeline can go stale. Scratch buffers
/// are reused across queries: a query allocates nothing but its output.
package struct QueryEngine {
  /// The ledger queried.
  package let ledger: Ledger
  private var subjectFold = PointInTimeFold()
  private var balanceOrder: [Int] = []
  private let currencyRank: [Int]
  private let currencyNames: [String]
  private let productNames: [String]
  /// Names encoded once as JSON literals, for `writeAnswer`.
  private let productLiterals: [[UInt8]]
  private let entitlementLiterals: [[UInt8]]
  private let groupLiterals: [[UInt8]]
  private let currencyLiterals: [[UInt8]]
  private let policy: Policy?
  /// Whether the catalog has a policy (`policy != nil` copies the value: a retain per array in it).
  private let hasPolicy: Bool
  /// Tier names, then feature names, as JSON literals one after the other, so that writing
  /// one retains nothing; `tierLiteralSpans[i]` and `featureLiteralSpans[i]` are each one's
  /// start (high 32 bits) and length (low 32 bits) in it.
  private let policyLiterals: ByteScratch
  private let tierLiteralSpans: [UInt64]
  private let featureLiteralSpans: [UInt64]
  /// Room for one answer's policy keys, reused: `writePolicy` fills it and appends it once.
  private let policyScratch: ByteScratch
  /// The uses indexed for a batch (`prepareUsageIndex`), nil until then.
  private var usageIndex: UsageIndex? = nil
  /// The events of the last answer when transfers touched its subject (contract v1.3, section
  /// 9), else unused; `isGathered` says which.
  private var gathering: OwnedEventGathering
  private var isGathered = false
  /// Scratch for `ownedTrial`'s answers at earlier instants, apart from the answer being built.
  var trialProbe: (gathering: OwnedEventGathering, fold: PointInTimeFold)

  /// Prepares an engine over a ledger.
  package init(ledger: Ledger) {
    self.ledger = ledger
    gathering = OwnedEventGathering(catalog: ledger.catalog)
    trialProbe = (OwnedEventGathering(catalog: ledger.catalog), PointInTimeFold())
    let names = (0..<ledger.symbols.currencies.count).map {
      ledger.symbols.currencies.string(Symbol(rawValue: UInt32($0)))
    }
    currencyNames = names
    var rank = [Int](repeating: 0, count: names.count)
    for (position, index) in names.indices.sorted(by: { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }).enumerated() {
      rank[index] = position
    }
    currencyRank = rank
    productNames = ledger.catalog.products.map(\.id)
    productLiterals = productNames.map(jsonLiteral)
    entitlementLiterals = ledger.catalog.entitlementNames.map(jsonLiteral)
    groupLiterals = ledger.catalog.groupNames.map(jsonLiteral)
    currencyLiterals = names.map(jsonLiteral)
    policy = ledger.catalog.policy
    hasPolicy = policy != nil
    let tierLiterals = policy?.tiers.map { jsonLiteral($0.name) } ?? []
    let featureLiterals = policy?.features.map { jsonLiteral($0.name) } ?? []
    let literals = tierLiterals + featureLiterals
    policyLiterals = ByteScratch(capacity: max(1, literals.map(\.count).reduce(0, +)))
    var spans: [UInt64] = []
    var start = 0
    for literal in literals {
      (policyLiterals.base + start).initialize(from: literal, count: literal.count)
      spans.append(UInt64(start) << 32 | UInt64(literal.count))
      start += literal.count
    }
    tierLiteralSpans = Array(spans[..<tierLiterals.count])
    featureLiteralSpans = Array(spans[tierLiterals.count...])
    // A bound on the policy keys' bytes: fixed keys, names, and per feature its keys,
    // two 20-digit integers and an instant (`ByteCursor.timestampBytesMax`).
    let featureMax = featureLiterals.map(\.count).max() ?? 0
    let tierMax = max(4, tierLiterals.map(\.count).max() ?? 0)
    policyScratch = ByteScratch(
      capacity: 400 + 2 * featureMax + tierMax + featureLiterals.count * (featureMax + tierMax + 200))
  }

  /// Folds and selects at T as known at R (or as cached), then decides the policy. `name` finds
  /// a subject that only a transfer's `to` names (then `subject` is nil).
  private mutating func evaluate(
    subject: Symbol?, name: String? = nil, at time: Timestamp, asOf: Timestamp?, cache: CacheRequest?
  ) {
    isGathered = false
    if !ledger.owners.isEmpty,
      let party = subject.flatMap({ ledger.owners.party(of: $0) }) ?? name.flatMap({ ledger.owners.party(named: $0) })
    {
      return evaluateGathered(party: party, subject: subject, at: time, asOf: asOf, cache: cache)
    }
    let range: Range<Int>
    var subscriptionCount = 0
    if let subject {
      let extent = ledger.extent(of: subject)
      range = extent.lower..<extent.upper
      subscriptionCount = extent.subscriptions
    } else {
      range = 0..<0
    }
    ledger.events.withUnsafeBufferPointer { all in
      subjectFold.evaluate(
        UnsafeBufferPointer(rebasing: all[range]), subscriptionCount: subscriptionCount, at: time,
        knownBy: cache?.verifiedAt ?? asOf, isStale: cache?.isStale(at: time) ?? false, context: ledger.context,
        indexedSubject: subject.map { Int($0.rawValue) })
    }
  }

  /// The fold of a subject some transfer names: the events `OwnedEventGathering` gathers for it.
  private mutating func evaluateGathered(
    party: Int32, subject: Symbol?, at time: Timestamp, asOf: Timestamp?, cache: CacheRequest?
  ) {
    let knownBy = cache?.verifiedAt ?? asOf
    let ledger = self.ledger
    ledger.events.withUnsafeBufferPointer { all in
      func eventsOf(_ subject: Symbol) -> UnsafeBufferPointer<Event> {
        let extent = ledger.extent(of: subject)
        return UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
      }
      gathering.gather(
        party: party, own: subject.map(eventsOf) ?? UnsafeBufferPointer(start: nil, count: 0), chains: ledger.owners,
        at: time, knownBy: knownBy ?? .distantFuture, eventsOf: eventsOf)
    }
    isGathered = true
    subjectFold.trialOverride = ownedTrial(party: party, subject: subject, at: time, knownBy: knownBy ?? .distantFuture)
    defer { subjectFold.trialOverride = nil }
    gathering.events.withUnsafeBufferPointer { events in
      subjectFold.evaluate(
        events, subscriptionCount: gathering.subscriptionCount, at: time, knownBy: knownBy,
        isStale: cache?.isStale(at: time) ?? false, context: ledger.context)
    }
  }

  /// Orders `balanceOrder` by currency name, for the answers that list balances (the counts and
  /// leak scans read none, so `evaluate` leaves it).
  private mutating func sortBalances() {
    let balances = subjectFold.state.balances
    balanceOrder.removeAll(keepingCapacity: true)
    balanceOrder.append(contentsOf: balances.indices)
    balanceOrder.sort { currencyRank[Int(balances[$0].currency.rawValue)] < currencyRank[Int(balances[$1].currency.rawValue)] }
  }

  /// Calls `body` with the index of every entitlement the subject holds at T (full knowledge).
  /// - Complexity: O(events of the subject).
  package mutating func forEachActiveEntitlement(subject: Symbol, at time: Timestamp, _ body: (Int) -> Void) {
    subjectFold.touches = nil
    evaluate(subject: subject, at: time, asOf: nil, cache: nil)
    for (index, candidate) in subjectFold.selection.bestByEntitlement.enumerated() where candidate.isSet { body(index) }
  }

  /// Calls `body` with the index of every entitlement a subject only a transfer names holds at T.
  /// - Complexity: O(events of its transfer group).
  package mutating func forEachActiveEntitlement(receiver name: String, at time: Timestamp, _ body: (Int) -> Void) {
    subjectFold.touches = nil
    evaluate(subject: nil, name: name, at: time, asOf: nil, cache: nil)
    for (index, candidate) in subjectFold.selection.bestByEntitlement.enumerated() where candidate.isSet { body(index) }
  }

  /// The answer for a subject name at T as known at R, or as cached at V (`cache`; then `asOf`
  /// must be nil); with `explain`, the events that decided each part (`absent` is left empty:
  /// `AbsentEntitlement.explained` fills it).
  /// - Complexity: O(events of the subject + size of the answer).
  package mutating func answer(
    subject: String, at: Timestamp, asOf: Timestamp?, cache: CacheRequest? = nil, explain: Bool = false
  ) -> Holdings {
    precondition(cache == nil || asOf == nil, "a cached answer's knowledge time is its verification time")
    subjectFold.touches = explain ? TouchLog() : nil
    evaluate(subject: ledger.subject(named: subject), name: subject, at: at, asOf: asOf, cache: cache)
    sortBalances()
    var result = Holdings(subject: SubjectID(rawValue: subject), at: at, asOf: cache?.verifiedAt ?? asOf)
    if let cache { result.cache = Holdings.Cache(verifiedAt: cache.verifiedAt, isStale: cache.isStale(at: at)) }
    if let policy { result.policy = policyAnswer(policy) }
    result.entitlements = entitlements(at: at)
    result.plans = plans(at: at)
    for index in balanceOrder {
      let balance = subjectFold.state.balances[index]
      result.balances[currencyNames[Int(balance.currency.rawValue)]] = balance.amount
    }
    if subjectFold.state.hasBlockEvents { result.blocked = blockedAnswers() }
    if let touches = subjectFold.touches {
      result.explanation = ExplainLog.explanation(
        touches: touches, balances: subjectFold.state.balances, selection: subjectFold.selection, ledger: ledger,
        subject: ledger.subject(named: subject), gathered: isGathered ? gathering : nil)
      if let policy, let symbol = ledger.subject(named: subject) {
        result.explanation?.usage = usageEvidence(policy, subject: symbol)
      } else if let policy {
        result.explanation?.usage = Dictionary(
          uniqueKeysWithValues: policy.features.indices.map { usageEvidence(policy, feature: $0, events: []) })
      }
      subjectFold.touches = nil
    }
    return result
  }

  /// The active entitlements of the folded subject, by name.
  private func entitlements(at: Timestamp) -> [String: Holdings.Entitlement] {
    var result: [String: Holdings.Entitlement] = [:]
    for (entitlement, candidate) in subjectFold.selection.bestByEntitlement.enumerated() where candidate.isSet {
      let name = ledger.catalog.entitlementNames[entitlement]
      if candidate.isSubscription {
        let sub = subjectFold.state.subscriptions[candidate.index]
        result[name] = Holdings.Entitlement(
          product: ProductID(rawValue: productNames[Int(sub.product.rawValue)]), state: sub.reportedStatus(at: at),
          expires: sub.expires, graceExpires: sub.graceExpires(at: at), ownership: sub.ownership, period: sub.offer)
      } else {
        let item = subjectFold.state.items[candidate.index]
        result[name] = Holdings.Entitlement(
          product: item.isGrant ? nil : ProductID(rawValue: productNames[Int(item.product.rawValue)]),
          state: .active, expires: item.end == .distantFuture ? nil : item.end,
          ownership: item.isGrant ? .granted : item.ownership, period: item.offer)
      }
    }
    return result
  }

  /// The plan of each subscription group of the folded subject, by group.
  private func plans(at: Timestamp) -> [String: Holdings.Plan] {
    let transactions = ledger.symbols.transactions
    var result: [String: Holdings.Plan] = [:]
    for (group, candidate) in subjectFold.selection.bestByGroup.enumerated() where candidate.isSet {
      let sub = subjectFold.state.subscriptions[candidate.index]
      result[ledger.catalog.groupNames[group]] = Holdings.Plan(
        product: ProductID(rawValue: productNames[Int(sub.product.rawValue)]), state: sub.reportedStatus(at: at),
        expires: sub.expires, graceExpires: sub.graceExpires(at: at), willRenew: sub.willRenew,
        renewsTo: sub.renewsTo.isSome ? ProductID(rawValue: productNames[Int(sub.renewsTo.rawValue)]) : nil,
        period: sub.offer, ownership: sub.ownership,
        originalTransaction: TransactionID(rawValue: transactions.string(sub.originalTransaction)),
        transaction: TransactionID(rawValue: transactions.string(sub.transaction)))
    }
    return result
  }

  /// Whether `subject` may use `feature` once more at T (the `can` question), and if not,
  /// which tier would allow it; nil when the catalog has no policy or no such feature.
  /// - Complexity: O(events of the subject).
  package mutating func permission(
    subject: String, feature: String, at time: Timestamp, asOf: Timestamp?, cache: CacheRequest? = nil
  ) -> Permission? {
    guard let policy, let featureIndex = policy.featureIndex(of: feature) else { return nil }
    let answer = self.answer(subject: subject, at: time, asOf: asOf, cache: cache)
    guard let decided = answer.policy?.usage[feature] else { return nil }
    var wouldAllow: String? = nil
    if !decided.allowed {
      // Any tier allowing it now is one the subject is not in: matching tiers all refused.
      for (tierIndex, tier) in policy.tiers.enumerated() {
        guard let limit = policy.features[featureIndex].limits[tierIndex] else { continue }
        if limit.limit.map({ subjectFold.usage.used(featureIndex, in: limit.window) < $0 }) ?? true {
          wouldAllow = tier.name
          break
        }
      }
    }
    return Permission(
      subject: subject, at: time, asOf: answer.asOf, tier: answer.policy?.tier, usage: decided, wouldAllow: wouldAllow)
  }

  /// Calls `body` with every leak: a `usage` event using its feature (quantity > 0) that the
  /// answer at its own `at`, as known at its own `recorded`, does not allow (Docs/semantics.md, "Leaks").
  ///
  /// Subjects in symbol order, uses in effective order. One pass per subject (`UseScan`); the
  /// uses whose verdict depends on knowledge time go to `KnownAtUseJudge`, which folds each
  /// from the last fully known prefix. With `exact`, every use is judged by folding its subject
  /// up to it as known at its `recorded` (the slow twin the tests compare with).
  /// - Complexity: O(events × (subscriptions + grants) + uses × tiers × features × log uses),
  ///   plus O(events from the first one recorded after the use's `recorded` to the use) per use
  ///   that knowledge time affects; with `exact`, O(events of the subject) per use.
  package mutating func forEachLeak(exact: Bool = false, _ body: (Leak) -> Void) {
    guard let policy else { return }
    subjectFold.touches = nil
    var scan = UseScan()
    var judge = KnownAtUseJudge()
    // Per subject: the uses not allowed at full knowledge or judged later (request ≥ 0), in effective order.
    var uses: [(position: Int, outcome: FeatureOutcome, request: Int)] = []
    var requests: [KnownAtUseJudge.Request] = []
    var judged: [FeatureOutcome] = []
    for s in 0..<ledger.subjectCount {
      let subject = Symbol(rawValue: UInt32(s))
      let extent = ledger.extent(of: subject)
      guard ledger.events[extent.lower..<extent.upper].contains(where: { $0.kind == .usage }) else { continue }
      func report(_ event: Event, _ decided: FeatureOutcome) {
        guard !decided.allowed else { return }
        body(
          Leak(
            subject: ledger.symbols.subjects.string(subject), id: ledger.symbols.ids.string(event.id),
            line: Int(event.line), at: event.at, feature: policy.features[Int(event.feature)].name,
            tier: decided.tier >= 0 ? policy.tiers[decided.tier].name : nil, used: decided.used, limit: decided.limit))
      }
      if exact {
        // A release (negative quantity) hands nothing out: it is never a leak.
        for event in ledger.events[extent.lower..<extent.upper] where event.kind == .usage && event.quantity > 0 {
          evaluate(subject: subject, at: event.at, asOf: event.recorded, cache: nil)
          report(event, subjectFold.outcome.features[Int(event.feature)])
        }
        continue
      }
      uses.removeAll(keepingCapacity: true)
      requests.removeAll(keepingCapacity: true)
      ledger.events.withUnsafeBufferPointer { all in
        let events = UnsafeBufferPointer(rebasing: all[extent.lower..<extent.upper])
        scan.scan(events, subscriptionCount: extent.subscriptions, context: ledger.context, policy: policy) {
          position, outcome, isKnownAtRecorded in
          if isKnownAtRecorded {
            if !outcome.allowed { uses.append((position, outcome, -1)) }
          } else {
            uses.append((position, outcome, requests.count))
            requests.append(KnownAtUseJudge.Request(position: position, knownBy: events[position].recorded))
          }
        }
        judged.removeAll(keepingCapacity: true)
        judged.append(contentsOf: repeatElement(FeatureOutcome(), count: requests.count))
        judge.judge(
          events, subscriptionCount: extent.subscriptions, context: ledger.context, policy: policy, requests: requests
        ) { request, outcome in judged[request] = outcome }
        for use in uses { report(events[use.position], use.request >= 0 ? judged[use.request] : use.outcome) }
      }
    }
  }

  /// The policy outcome in names.
  private func policyAnswer(_ policy: Policy) -> Holdings.Policy {
    func tierName(_ index: Int) -> String? { index >= 0 ? policy.tiers[index].name : nil }
    let trial = subjectFold.outcome.trial.map { trial in
      Holdings.Trial(
        state: trial.state, started: trial.started, ends: trial.ends, endsBy: Self.endName(trial.endsBy, policy),
        graceEnds: trial.graceEnds)
    }
    var usage: [String: Holdings.FeatureUsage] = [:]
    for (feature, decided) in zip(policy.features, subjectFold.outcome.features) {
      usage[feature.name] = Holdings.FeatureUsage(
        allowed: decided.allowed, tier: tierName(decided.tier), used: decided.used, limit: decided.limit,
        windowEnds: decided.windowEnds)
    }
    return Holdings.Policy(tier: tierName(subjectFold.outcome.tier), trial: trial, usage: usage)
  }

  private static func endName(_ end: TrialEnd, _ policy: Policy) -> String {
    switch end {
    case .duration: return "duration"
    case .subscription: return "subscription"
    case .feature(let index): return policy.features[index].name
    }
  }

  /// Per feature, the reported tier and the uses counted in its window.
  private func usageEvidence(_ policy: Policy, subject: Symbol) -> [String: Holdings.UsageEvidence] {
    let events = ledger.events(of: subject)
    return Dictionary(
      uniqueKeysWithValues: policy.features.indices.map { feature in
        let decided = subjectFold.outcome.features[feature]
        let start = subjectFold.usage.windows.start(decided.window)
        let counted = subjectFold.usage.usePositions.compactMap { position -> Holdings.EventReference? in
          let event = events[events.startIndex + position]
          guard Int(event.feature) == feature, event.at >= start else { return nil }
          return Holdings.EventReference(id: EventID(rawValue: ledger.symbols.ids.string(event.id)), line: Int(event.line))
        }
        return usageEvidence(policy, feature: feature, events: counted)
      })
  }

  private func usageEvidence(
    _ policy: Policy, feature: Int, events: [Holdings.EventReference]
  ) -> (String, Holdings.UsageEvidence) {
    let tier = subjectFold.outcome.features[feature].tier
    return (policy.features[feature].name, Holdings.UsageEvidence(tier: tier >= 0 ? policy.tiers[tier].name : nil, events: events))
  }

  /// Appends the answer as one JSON object (sorted keys, no trailing newline) to `out`.
  ///
  /// The fast path of `audit`: no `String` per field, no intermediate `Holdings`.
  /// - Complexity: O(events of the subject + size of the answer).
  package mutating func writeAnswer(
    subject: UnsafeBufferPointer<UInt8>, at: Timestamp, asOf: Timestamp?, cache: CacheRequest? = nil,
    into out: inout [UInt8]
  ) {
    writeAnswer(
      subject: subject, symbol: ledger.symbols.subjects.lookup(subject), at: at, asOf: asOf, cache: cache, into: &out)
  }

  /// The batch size from which `writeAnswers` indexes the uses first (a pass over the events).
  package static let usageIndexMinimumQueries = 4096

  /// Indexes the ledger's uses (`UsageIndex`) so that answers read usage sums instead of
  /// visiting every use; the answers are the same. Does nothing without a policy, for a
  /// ledger with moved subjects, or when already done.
  /// - Complexity: O(events), once.
  package mutating func prepareUsageIndex() {
    guard let policy, usageIndex == nil, ledger.relocated.isEmpty else { return }
    usageIndex = ledger.events.withUnsafeBufferPointer {
      UsageIndex(events: $0, subjectStarts: ledger.subjectStarts, policy: policy)
    }
    subjectFold.useIndex(usageIndex)
  }

  /// Answers every query of a batch in order, one line each, handing `out` to `emit` as it fills.
  ///
  /// Audits visit subjects in random order, so each query would start with cache misses
  /// on the subject's events; subjects are resolved first and events prefetched a few
  /// queries ahead.
  /// - Complexity: O(queries + events of the subjects asked about).
  package mutating func writeAnswers(
    _ batch: QueryBatch, flushBytes: Int = 1 << 20, emit: (inout [UInt8]) -> Void
  ) {
    if batch.count >= Self.usageIndexMinimumQueries { prepareUsageIndex() }
    var symbols: [Symbol?] = []
    symbols.reserveCapacity(batch.count)
    // With an index, each query's T and R too: its prefetch reads the uses only of the runs
    // whose summary does not answer the query.
    var instants: [(at: Timestamp, knownBy: Timestamp)] = []
    if usageIndex != nil {
      instants.reserveCapacity(batch.count)
      batch.forEach { subject, at, asOf, cache in
        symbols.append(ledger.symbols.subjects.lookup(subject))
        instants.append((at, cache?.verifiedAt ?? asOf ?? .distantFuture))
      }
    } else {
      batch.forEach { subject, _, _ in symbols.append(ledger.symbols.subjects.lookup(subject)) }
    }
    let distance = 4
    let startsDistance = 12
    var out: [UInt8] = []
    out.reserveCapacity(flushBytes + 4096)
    var index = 0
    // Read once, as plain pointers: each use of the stored property retains the index; `self` keeps it.
    let usageIndex = self.usageIndex?.view
    ledger.events.withUnsafeBufferPointer { events in
      batch.forEach { subject, at, asOf, cache in
        if index + startsDistance < symbols.count, let further = symbols[index + startsDistance],
          Int(further.rawValue) < ledger.subjectStarts.count
        {
          ledger.subjectStarts.withUnsafeBufferPointer { storeledger_prefetch($0.baseAddress! + Int(further.rawValue)) }
          if let usageIndex {
            // Without the events' prefetch below, the subscription counts would miss at the query.
            ledger.subscriptionCounts.withUnsafeBufferPointer {
              storeledger_prefetch($0.baseAddress! + Int(further.rawValue))
            }
            usageIndex.forEachHeaderLine(of: Int(further.rawValue)) { storeledger_prefetch($0) }
          }
        }
        if index + distance < symbols.count, let ahead = symbols[index + distance] {
          if let usageIndex {
            // The fold reads the index's copy of the events that are not uses, never the events.
            let (at, knownBy) = instants[index + distance]
            usageIndex.forEachAddress(of: Int(ahead.rawValue), at: at, knownBy: knownBy) { storeledger_prefetch($0) }
          } else {
            let (start, end, _) = ledger.extent(of: ahead)
            // A few cache lines of the subject's events; the hardware streams the rest.
            var address = UnsafeRawPointer(events.baseAddress! + start)
            let last = UnsafeRawPointer(events.baseAddress! + min(end, start + 4))
            while address < last {
              storeledger_prefetch(address)
              address += 64
            }
          }
        }
        writeAnswer(subject: subject, symbol: symbols[index], at: at, asOf: asOf, cache: cache, into: &out)
        out.append(10)
        index += 1
        if out.count >= flushBytes {
          emit(&out)
          out.removeAll(keepingCapacity: true)
        }
      }
    }
    if !out.isEmpty { emit(&out) }
  }

  /// The blocked entitlements of the folded subject, each with its blocking services.
  private func blockedAnswers() -> [String: [Holdings.Blocker]] {
    let references = ledger.symbols.transactions
    var result: [String: [Holdings.Blocker]] = [:]
    for entitlement in subjectFold.selection.blockedEntitlements {
      result[ledger.catalog.entitlementNames[entitlement]] = Selection.blockers(
        of: entitlement, in: subjectFold.state, name: references.string
      ).map {
        Holdings.Blocker(
          service: references.string($0.service), since: $0.since, reason: $0.reason.isSome ? references.string($0.reason) : nil)
      }
    }
    return result
  }

  private mutating func writeAnswer(
    subject: UnsafeBufferPointer<UInt8>, symbol: Symbol?, at: Timestamp, asOf: Timestamp?, cache: CacheRequest?,
    into out: inout [UInt8]
  ) {
    subjectFold.touches = nil
    // Only a subject some transfer names may hold without lines of its own.
    let name = symbol == nil && !ledger.owners.isEmpty ? String(decoding: subject, as: UTF8.self) : nil
    evaluate(subject: symbol, name: name, at: at, asOf: asOf, cache: cache)
    sortBalances()
    appendStatic(#"{"as_of":"#, to: &out)
    if let knownBy = cache?.verifiedAt ?? asOf { appendTimestamp(knownBy, &out) } else { appendStatic("null", to: &out) }
    appendStatic(#","at":"#, to: &out)
    appendTimestamp(at, &out)
    appendStatic(#","balances":{"#, to: &out)
    for (n, index) in balanceOrder.enumerated() {
      if n > 0 { out.append(44) }
      let balance = subjectFold.state.balances[index]
      out.append(contentsOf: currencyLiterals[Int(balance.currency.rawValue)])
      out.append(58)
      appendInteger(balance.amount, to: &out)
    }
    out.append(125)
    // Rare (contract v1.3 blocks): written through the JSON value, which the test pins byte for byte.
    if subjectFold.state.hasBlockEvents {
      appendStatic(#","blocked":"#, to: &out)
      JSONWriter.write(
        .object(blockedAnswers().map { ($0.key, .array($0.value.map(\.jsonValue))) }), into: &out, indent: nil, level: 0)
    }
    if let cache {
      appendStatic(#","cache":{"stale":"#, to: &out)
      appendStatic(cache.isStale(at: at) ? "true" : "false", to: &out)
      appendStatic(#","verified_at":"#, to: &out)
      appendTimestamp(cache.verifiedAt, &out)
      out.append(125)
    }
    appendStatic(#","entitlements":{"#, to: &out)
    writeEntitlements(at: at, into: &out)
    appendStatic(#"},"plans":{"#, to: &out)
    writePlans(at: at, into: &out)
    appendStatic(#"},"subject":"#, to: &out)
    appendEscaped(subject, &out)
    if hasPolicy { writePolicy(into: &out) }
    out.append(125)
  }

  /// Appends the members of `entitlements`: each entitlement's best candidate, keys sorted.
  private func writeEntitlements(at: Timestamp, into out: inout [UInt8]) {
    var first = true
    for (entitlement, candidate) in subjectFold.selection.bestByEntitlement.enumerated() where candidate.isSet {
      if !first { out.append(44) }
      first = false
      out.append(contentsOf: entitlementLiterals[entitlement])
      appendStatic(#":{"expires":"#, to: &out)
      let product: ProductIndex
      let ownership: Ownership
      let offer: Offer
      let stateName: StaticString
      if candidate.isSubscription {
        let sub = subjectFold.state.subscriptions[candidate.index]
        appendTimestamp(sub.expires, &out)
        appendGraceExpires(sub, at: at, &out)
        product = sub.product
        ownership = sub.ownership
        offer = sub.offer
        stateName = sub.reportedStatus(at: at).staticName
      } else {
        let item = subjectFold.state.items[candidate.index]
        if item.end == .distantFuture { appendStatic("null", to: &out) } else { appendTimestamp(item.end, &out) }
        product = item.isGrant ? .none : item.product
        ownership = item.isGrant ? .granted : item.ownership
        offer = item.offer
        stateName = "active"
      }
      appendStatic(#","ownership":""#, to: &out)
      appendStatic(ownership.staticName, to: &out)
      appendStatic(#"","period":""#, to: &out)
      appendStatic(offer.staticName, to: &out)
      appendStatic(#"","product":"#, to: &out)
      if product.isSome { out.append(contentsOf: productLiterals[Int(product.rawValue)]) } else { appendStatic("null", to: &out) }
      appendStatic(#","state":""#, to: &out)
      appendStatic(stateName, to: &out)
      appendStatic(#""}"#, to: &out)
    }
  }

  /// Appends the members of `plans`: each subscription group's best subscription, keys sorted.
  private func writePlans(at: Timestamp, into out: inout [UInt8]) {
    var first = true
    for (group, candidate) in subjectFold.selection.bestByGroup.enumerated() where candidate.isSet {
      if !first { out.append(44) }
      first = false
      let sub = subjectFold.state.subscriptions[candidate.index]
      out.append(contentsOf: groupLiterals[group])
      appendStatic(#":{"expires":"#, to: &out)
      appendTimestamp(sub.expires, &out)
      appendGraceExpires(sub, at: at, &out)
      appendStatic(#","original_transaction":"#, to: &out)
      appendSymbol(ledger.symbols.transactions, sub.originalTransaction, &out)
      appendStatic(#","ownership":""#, to: &out)
      appendStatic(sub.ownership.staticName, to: &out)
      appendStatic(#"","period":""#, to: &out)
      appendStatic(sub.offer.staticName, to: &out)
      appendStatic(#"","product":"#, to: &out)
      out.append(contentsOf: productLiterals[Int(sub.product.rawValue)])
      appendStatic(#","renews_to":"#, to: &out)
      if sub.renewsTo.isSome {
        out.append(contentsOf: productLiterals[Int(sub.renewsTo.rawValue)])
      } else {
        appendStatic("null", to: &out)
      }
      appendStatic(#","state":""#, to: &out)
      appendStatic(sub.reportedStatus(at: at).staticName, to: &out)
      appendStatic(#"","transaction":"#, to: &out)
      appendSymbol(ledger.symbols.transactions, sub.transaction, &out)
      appendStatic(#","will_renew":"#, to: &out)
      appendStatic(sub.willRenew ? "true" : "false", to: &out)
      out.append(125)
    }
  }

  /// Appends `,"tier":…,"trial":…,"usage":{…}` from the decided outcome, keys sorted.
  ///
  /// The policy keys triple an answer's size; written piece by piece into `out`, each
  /// `Array` append cost more than the fold. They are written through a `ByteCursor`
  /// into a reused scratch buffer sized for the policy, then appended at once.
  private func writePolicy(into out: inout [UInt8]) {
    var cursor = ByteCursor(policyScratch.base)
    writePolicy(to: &cursor)
    let count = cursor.pointer - policyScratch.base
    precondition(count <= policyScratch.capacity, "policy keys overran their bound")
    out.append(contentsOf: UnsafeBufferPointer(start: policyScratch.base, count: count))
  }

  private func writePolicy(to out: inout ByteCursor) {
    out.put(#","tier":"#)
    putTier(subjectFold.outcome.tier, &out)
    out.put(#","trial":"#)
    if let trial = subjectFold.outcome.trial {
      out.put(#"{"ends":"#)
      putTimestamp(trial.ends, &out)
      out.put(#","ends_by":"#)
      switch trial.endsBy {
      case .duration: out.put(#""duration""#)
      case .subscription: out.put(#""subscription""#)
      case .feature(let index): putLiteral(featureLiteralSpans[index], &out)
      }
      out.put(#","grace_ends":"#)
      if let graceEnds = trial.graceEnds { putTimestamp(graceEnds, &out) } else { out.put("null") }
      out.put(#","started":"#)
      putTimestamp(trial.started, &out)
      out.put(#","state":""#)
      out.put(trial.state.staticName)
      out.put(#""}"#)
    } else {
      out.put("null")
    }
    out.put(#","usage":{"#)
    for (index, feature) in subjectFold.outcome.features.enumerated() {
      if index > 0 { out.put(byte: 44) }
      putLiteral(featureLiteralSpans[index], &out)
      out.put(feature.allowed ? #":{"allowed":true,"limit":"# : #":{"allowed":false,"limit":"#)
      if let limit = feature.limit { out.integer(limit) } else { out.put("null") }
      out.put(#","tier":"#)
      putTier(feature.tier, &out)
      out.put(#","used":"#)
      out.integer(feature.used)
      out.put(#","window_ends":"#)
      if let ends = feature.windowEnds { putTimestamp(ends, &out) } else { out.put("null") }
      out.put(byte: 125)
    }
    out.put(byte: 125)
  }

  private func putTier(_ index: Int, _ out: inout ByteCursor) {
    if index >= 0 { putLiteral(tierLiteralSpans[index], &out) } else { out.put("null") }
  }

  /// Writes the name literal at `span` of `policyLiterals`.
  @inline(__always)
  private func putLiteral(_ span: UInt64, _ out: inout ByteCursor) {
    out.put(UnsafeBufferPointer(start: policyLiterals.base + Int(span >> 32), count: Int(span & 0xffff_ffff)))
  }

  private func putTimestamp(_ time: Timestamp, _ out: inout ByteCursor) {
    out.put(byte: 34)
    out.timestamp(time.millisecondsSinceEpoch)
    out.put(byte: 34)
  }

  /// `,"grace_expires":…` when the subscription is in grace at T (the key sorts after `expires`).
  private func appendGraceExpires(_ sub: SubscriptionState, at: Timestamp, _ out: inout [UInt8]) {
    guard let graceExpires = sub.graceExpires(at: at) else { return }
    appendStatic(#","grace_expires":"#, to: &out)
    appendTimestamp(graceExpires, &out)
  }

  private func appendTimestamp(_ time: Timestamp, _ out: inout [UInt8]) {
    out.append(34)
    time.appendRFC3339(to: &out)
    out.append(34)
  }

  private func appendSymbol(_ table: SymbolTable, _ symbol: Symbol, _ out: inout [UInt8]) {
    table.withBytes(symbol) { appendEscaped($0, &out) }
  }

  private func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 != 34 && $0 != 92 }) {
      out.append(34)
      out.append(contentsOf: bytes)
      out.append(34)
    } else {
      JSONWriter.writeString(String(decoding: bytes, as: UTF8.self), into: &out)
    }
  }
}
