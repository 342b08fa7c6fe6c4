/// Records which applied events touched each subscription, grant and currency,
/// so `--explain` can name the events that decided an answer.
///
/// Only built when an explanation is asked for; the plain query path never allocates it.
struct ExplainLog {
  private var bySubscription: [Int: [Int]] = [:]
  private var byItem: [Int: [Int]] = [:]
  private var byCurrency: [Symbol: [Int]] = [:]

  /// Notes an applied event at `position` within its subject.
  mutating func note(_ event: Event, position: Int, context: FoldContext) {
    let catalog = context.catalog
    switch event.kind {
    case .purchase:
      let product = catalog[event.product]
      switch product.kind {
      case .autoRenewable:
        bySubscription[Int(event.slot)] = [position]
      case .consumable:
        byItem[Int(event.slot)] = [position]
        byCurrency[context.productCurrencies[Int(event.product.rawValue)], default: []].append(position)
      case .nonRenewing, .nonConsumable:
        byItem[Int(event.slot)] = [position]
      }
    case .renewal:
      bySubscription[Int(event.slot)] = [position]
    case .billingRetry, .graceEntered, .expiration, .autoRenewChanged, .planChanged, .renewalExtended:
      bySubscription[Int(event.slot), default: []].append(position)
    case .revocation, .refundReversed:
      guard event.targetProduct.isSome else { return }
      if catalog[event.targetProduct].kind == .autoRenewable {
        bySubscription[Int(event.slot), default: []].append(position)
      } else {
        byItem[Int(event.slot), default: []].append(position)
        if catalog[event.targetProduct].kind == .consumable {
          byCurrency[context.productCurrencies[Int(event.targetProduct.rawValue)], default: []].append(position)
        }
      }
    case .consumption:
      byCurrency[event.currency, default: []].append(position)
    case .purchasePending, .usage:
      break
    }
  }

  /// Builds the explanation of an answer from what was noted.
  func explanation(
    answer: Answer, bestByEntitlement: [QueryEngine.Candidate], bestByGroup: [QueryEngine.Candidate],
    ledger: Ledger, subject: Symbol?
  ) -> Explanation {
    guard let subject else { return Explanation(entitlements: [], plans: [], balances: []) }
    let events = ledger.events(of: subject)
    let base = events.startIndex
    func evidence(_ positions: [Int]) -> [Evidence] {
      positions.map { position in
        let event = events[base + position]
        return Evidence(id: ledger.symbols.ids.string(event.id), line: Int(event.line))
      }
    }
    func positions(_ candidate: QueryEngine.Candidate) -> [Int] {
      candidate.isSubscription ? bySubscription[candidate.index] ?? [] : byItem[candidate.index] ?? []
    }
    var result = Explanation(entitlements: [], plans: [], balances: [])
    for (entitlement, candidate) in bestByEntitlement.enumerated() where candidate.isSet {
      result.entitlements.append((ledger.catalog.entitlementNames[entitlement], evidence(positions(candidate))))
    }
    for (group, candidate) in bestByGroup.enumerated() where candidate.isSet {
      result.plans.append((ledger.catalog.groupNames[group], evidence(positions(candidate))))
    }
    for balance in answer.balances {
      let currency = ledger.symbols.currencies.lookup(balance.currency) ?? .none
      result.balances.append((balance.currency, evidence(byCurrency[currency] ?? [])))
    }
    return result
  }
}
