import StoreLedgerCore

extension ReportBuilder {
  /// The facts a charge on `line` states (nil when it states none, or they were not read).
  func statedFacts(line: UInt32) -> ChargeFacts.Facts? {
    guard !facts.isEmpty, ledger.details.details(line: line).factsHash != 0 else { return nil }
    return facts.facts(line: line)
  }

  /// Whether `event` is in the pass's segment: a charge by its own values, a revocation, reversal or
  /// refund request by its charge's, a billing state by its subscription's current charge, and
  /// anything of no charge (consumption, usage, grants, blocks, transfers) in `unknown`.
  /// - Complexity: O(events of the subject) for events about a transaction, O(1) otherwise.
  func isInSegment(_ event: Event, subjectEvents: UnsafeBufferPointer<Event>) -> Bool {
    guard let segment else { return true }
    switch event.kind.reportCount {
    case .charge:
      return segment.matches(product: event.product, offer: event.offer, facts: statedFacts(line: event.line))
    case .revocation, .refundReversal, .refundRequest, .refundDecline:
      guard
        let charge = subjectEvents.first(where: {
          $0.kind.isCharge && $0.transaction == event.transaction && $0.recorded <= knownBy
        })
      else { return segment.isUnknown }
      return segment.matches(product: charge.product, offer: charge.offer, facts: statedFacts(line: charge.line))
    case .billingState:
      let slot = Int(event.slot)
      return slot < charges.count ? charges[slot].isInSegment : segment.isUnknown
    case .nothing, .balanceSpend, .use:
      return segment.isUnknown
    }
  }

  /// Whether what gives an entitlement is in the pass's segment: a subscription by its current
  /// charge, a purchased item by its purchase, a grant in `unknown`.
  func isInSegment(_ candidate: Selection.Candidate) -> Bool {
    guard let segment else { return true }
    if candidate.isSubscription { return charges[candidate.index].isInSegment }
    let item = state.items[candidate.index]
    if item.isGrant { return segment.isUnknown }
    return segment.matches(product: item.product, offer: item.offer, facts: statedFacts(line: item.line))
  }

  /// Adds `amount` of a charge's price (negative: taken back by a revocation) to the proceeds:
  /// with the charge's stated `proceeds`, the same share of them to `proceeds` and the rest to
  /// `store_fees`; with proceeds estimated from the catalog's `store_fees`, likewise to
  /// `proceeds_estimated` and `store_fees_estimated`; without either, the whole amount to
  /// `proceeds_unknown_revenue`. Docs/reports.md, "Proceeds".
  mutating func addProceeds(_ amount: Int64, of price: EventDetails, line: UInt32, bucket: Int) {
    let currency = Int(price.priceCurrency.rawValue)
    guard let proceeds = statedFacts(line: line)?.proceeds else {
      if let estimated = statedFacts(line: line)?.estimatedProceeds {
        let share = Self.share(of: estimated, amount: amount, price: price.price)
        add(share, to: \.proceedsEstimated, .proceedsEstimated, key: currency, bucket: bucket)
        add(amount - share, to: \.storeFeesEstimated, .storeFeesEstimated, key: currency, bucket: bucket)
        return
      }
      add(amount, to: \.proceedsUnknownRevenue, .proceedsUnknownRevenue, key: currency, bucket: bucket)
      return
    }
    let share = Self.share(of: proceeds, amount: amount, price: price.price)
    add(share, to: \.proceeds, .proceeds, key: currency, bucket: bucket)
    add(amount - share, to: \.storeFees, .storeFees, key: currency, bucket: bucket)
  }

  /// `proceeds` × `amount` ÷ `price`, rounded half away from zero (0 for a price of 0); within
  /// ±`proceeds`, as 0 ≤ proceeds ≤ price and |amount| ≤ price.
  static func share(of proceeds: Int64, amount: Int64, price: Int64) -> Int64 {
    guard price > 0 else { return 0 }
    if amount == price { return proceeds }
    let product = proceeds.magnitude.multipliedFullWidth(by: amount.magnitude)
    let doubled = (high: product.high << 1 | product.low >> 63, low: product.low << 1)
    let (sum, carry) = doubled.low.addingReportingOverflow(price.magnitude)
    let (quotient, _) = (2 * price.magnitude).dividingFullWidth((doubled.high + (carry ? 1 : 0), sum))
    return amount < 0 ? -Int64(quotient) : Int64(quotient)
  }

  /// Adds the subject to `blocks_active` under each service blocking it at the bucket's end
  /// (blocks belong to no charge: a segment's pass counts them in `unknown` only).
  /// - Complexity: O(services of the subject).
  mutating func tallyBlocks(bucket: Int) {
    guard segment?.isUnknown ?? true else { return }
    for block in state.blocks where block.isBlocking {
      tallies[bucket].blocksActive[ledger.symbols.transactions.string(block.service), default: 0] += 1
    }
  }
}
