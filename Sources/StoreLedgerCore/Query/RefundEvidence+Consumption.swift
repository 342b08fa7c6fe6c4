extension RefundEvidence {
  /// The share of a purchase consumed and the uses it paid for (newest first, all of them).
  struct Measure {
    var consumption: Consumption
    var consumedMilliunits: Int64?
    var uses: [Use]
  }

  /// Consumables by their credits, periods by time elapsed, lasting unlocks not at all.
  /// - Complexity: O(events of the two subjects · credits of the currency).
  static func measure(
    _ charge: Event, _ purchase: Purchase, _ ledger: Ledger, chargeEvents: [Event], subjectEvents: [Event], until: Timestamp
  ) -> Measure {
    let product = ledger.catalog[charge.product]
    if product.kind == .consumable { return credits(of: charge, product, ledger, chargeEvents) }
    let end: Timestamp? =
      charge.hasExpires ? charge.expires : ledger.catalog.grantDurations[Int(charge.product.rawValue)]?.added(to: charge.at)
    let uses = subjectEvents.filter { use in
      use.kind == .usage && use.quantity > 0 && use.at >= charge.at && end.map { use.at < $0 } ?? true
    }.reversed().map { use in
      let feature = ledger.catalog.policy?.features[Int(use.feature)].name ?? "?"
      return Use(at: use.at, description: "\(ledger.symbols.ids.string(use.id)): \(Plural.counted(use.quantity, "use")) of \(feature)")
    }
    guard let end else { return Measure(consumption: .unmeasured, consumedMilliunits: nil, uses: uses) }
    let lengthMs = end.millisecondsSinceEpoch - charge.at.millisecondsSinceEpoch
    let elapsedMs = min(max(until.millisecondsSinceEpoch - charge.at.millisecondsSinceEpoch, 0), lengthMs)
    return Measure(
      consumption: .period(start: charge.at, end: end, elapsedMs: elapsedMs),
      consumedMilliunits: milliunits(elapsedMs, of: lengthMs), uses: uses)
  }

  /// One purchase's credit of a currency, what is left of it, and what spends took from it.
  private struct Credit {
    var line: UInt32
    var transaction: Symbol
    var unitsPerPack: Int64
    var credited: Int64
    var left: Int64
    var spent: Int64 = 0
  }

  /// Replays the subject's credits and spends of the purchase's currency, oldest credits spent
  /// first: a purchase adds a credit; a spend takes from the oldest credits with units left; a
  /// revocation takes its packs from its own credit first, then from the oldest; its reversal
  /// gives back to each credit what it took.
  private static func credits(of charge: Event, _ product: Product, _ ledger: Ledger, _ events: [Event]) -> Measure {
    let currency = product.currency
    var credits: [Credit] = []
    var taken: [Symbol: [(credit: Int, units: Int64)]] = [:]
    var uses: [Use] = []
    func take(_ units: Int64, preferring own: Int?) -> [(credit: Int, units: Int64)] {
      var rest = units
      var parts: [(credit: Int, units: Int64)] = []
      for index in ([own].compactMap { $0 } + Array(credits.indices)) where rest > 0 && credits[index].left > 0 {
        let part = min(rest, credits[index].left)
        credits[index].left -= part
        rest -= part
        parts.append((index, part))
      }
      return parts
    }
    for event in events {
      switch event.kind {
      case .purchase where ledger.catalog.kind(event.product) == .consumable && ledger.catalog[event.product].currency == currency:
        let perPack = ledger.catalog.units[Int(event.product.rawValue)]
        let units = max(event.quantity, 1) * perPack
        credits.append(Credit(line: event.line, transaction: event.transaction, unitsPerPack: perPack, credited: units, left: units))
      case .consumption where ledger.symbols.currencies.string(event.balanceCurrency) == currency:
        for part in take(event.quantity, preferring: nil) {
          credits[part.credit].spent += part.units
          if credits[part.credit].line == charge.line {
            uses.append(
              Use(at: event.at, description: "\(ledger.symbols.ids.string(event.id)): \(part.units) of \(event.quantity) \(currency) spent from this purchase"))
          }
        }
      case .revocation:
        guard let own = credits.firstIndex(where: { $0.transaction == event.transaction }), taken[event.transaction] == nil else { continue }
        // `quantity` packs of it (contract v1.3, section 11), or the whole credit.
        let units = event.quantity > 0 ? event.quantity * credits[own].unitsPerPack : credits[own].credited
        taken[event.transaction] = take(units, preferring: own)
      case .refundReversed:
        for part in taken.removeValue(forKey: event.transaction) ?? [] { credits[part.credit].left += part.units }
      default: continue
      }
    }
    let mine = credits.first { $0.line == charge.line } ?? Credit(line: charge.line, transaction: charge.transaction, unitsPerPack: 1, credited: 0, left: 0)
    return Measure(
      consumption: .credits(currency: currency, credited: mine.credited, spent: mine.spent),
      consumedMilliunits: milliunits(mine.spent, of: mine.credited), uses: uses.reversed())
  }
}
