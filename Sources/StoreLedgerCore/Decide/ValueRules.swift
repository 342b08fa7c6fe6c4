/// The per-kind value rules of Docs/log-format.md on a typed event, the one place they are
/// written: which values a kind (and its product's kind) requires or refuses, their ranges, and
/// how they relate (an end after `at`, a credit within `Limits.amountMax`).
///
/// Both readers of events ask these rules: the parser (`FieldValidator`) once a line's text is
/// read into an `Event`, wording the first rule the line breaks, and restore (`RecordChecks`) for
/// every record of a snapshot, refusing a record that breaks any (its message says only that the
/// record is damaged). What the typed event cannot hold stays the parser's: a field's JSON type,
/// a name's spelling, two fields of which exactly one is allowed, a `price` without `currency`.
///
/// Each rule reads the event's values, never its strings (the parser has not interned them yet),
/// and builds a `Problem` only when a rule is broken, so the hot path allocates nothing.
struct ValueRules {
  let catalog: Catalog

  /// The rules in the parser's order: the product, the end, the kind's own values, the price.
  /// `present` holds the fields a line wrote (a record's: `storedFields(_:_:)`).
  @inline(__always)
  func problem(_ e: Event, _ details: EventDetails, present: FieldSet) -> Problem? {
    if let problem = productProblem(e) { return problem }
    if let problem = endProblem(e) { return problem }
    if let problem = kindProblem(e, details, present: present) { return problem }
    return priceProblem(e, details, present: present)
  }

  /// The fields whose presence the rules read, as a stored record shows them (a record keeps a
  /// value, not whether its line wrote it: a zero `quantity` or no `original_transaction` is absent).
  @inline(__always)
  static func storedFields(_ e: Event, _ details: EventDetails) -> FieldSet {
    var present: FieldSet = []
    if e.originalTransaction.isSome { present.insert(.originalTransaction) }
    if e.quantity != 0 { present.insert(.quantity) }
    if details.hasPrice { present.insert(.price) }
    return present
  }

  /// A kind that refers to a subscription names an `auto_renewable` product.
  @inline(__always)
  func productProblem(_ e: Event) -> Problem? {
    guard e.kind.scope.contains(.subscription), e.product.isSome, catalog.kind(e.product) != .autoRenewable else {
      return nil
    }
    return .invalidValue(
      field: "product", expected: "an auto_renewable product for '\(e.kind.name)'",
      found: "'\(catalog[e.product].id)' (\(catalog[e.product].kind.rawValue))")
  }

  /// An end (`expires`, or `grace_expires`: one per kind, by its row) is later than `at`.
  @inline(__always)
  func endProblem(_ e: Event) -> Problem? {
    guard e.hasExpires, e.expires <= e.at, e.kind.mayCarry([.expires, .graceExpires]) else { return nil }
    return .invalidValue(
      field: e.kind.mayCarry(.graceExpires) ? Field.graceExpires.name : Field.expires.name,
      expected: "a time later than 'at' (\(e.at.rfc3339))", found: "\"\(e.expires.rfc3339)\"")
  }

  /// The rules of the values only some kinds carry, one function per kind that has any; a kind
  /// whose row has no `quantity` (nor `entitlements`, kept there) holds none.
  @inline(__always)
  func kindProblem(_ e: Event, _ details: EventDetails, present: FieldSet) -> Problem? {
    switch e.kind {
    case .purchase: return purchaseProblem(e, present: present)
    case .consumption: return positiveQuantityProblem(e)
    case .usage: return usageProblem(e)
    case .revocation: return revocationProblem(e, details, present: present)
    case .grant, .block:
      guard e.entitlementMask == 0 else { return nil }
      return .invalidValue(field: "entitlements", expected: "a non-empty list of entitlement ids", found: "[]")
    case .transfer:
      // Which field named the unit, in `reasonRaw` (`Event+Transfer`): one of two values.
      guard e.reasonRaw <= Event.transferByTransaction else {
        return .invalidValue(field: "transaction", expected: "exactly one of 'original_transaction' or 'transaction'", found: "both")
      }
      return noQuantityProblem(e)
    case .purchasePending, .renewal, .billingRetry, .graceEntered, .expiration, .autoRenewChanged, .planChanged,
      .renewalExtended, .refundReversed, .refundRequested, .refundDeclined, .grantRevoked, .unblock:
      return noQuantityProblem(e)
    }
  }

  /// A kind whose row has no `quantity` holds none.
  @inline(__always)
  private func noQuantityProblem(_ e: Event) -> Problem? {
    guard e.quantity != 0 else { return nil }
    return .fieldNotAllowed(field: "quantity", type: e.kind.name, why: "")
  }

  /// A charge's `price` is ≥ 0 (whether `currency` came with it is the parser's).
  @inline(__always)
  func priceProblem(_ e: Event, _ details: EventDetails, present: FieldSet) -> Problem? {
    guard e.kind.isCharge, present.contains(.price), details.price < 0 else { return nil }
    return .invalidValue(field: "price", expected: "an integer ≥ 0 in thousandths", found: String(details.price))
  }
}

extension ValueRules {
  /// The most a `usage` event's `quantity` may be, either way (Docs/log-format.md).
  static let usageQuantityMax: Int64 = 1_000_000

  /// A purchase's rules by its product's kind: `expires`, `original_transaction`, the computed
  /// amounts, `quantity` and `ownership`.
  @inline(__always)
  private func purchaseProblem(_ e: Event, present: FieldSet) -> Problem? {
    // The product's kind only: copying a whole `Product` per line costs retains.
    let productKind = catalog.kind(e.product)
    func productLabel() -> String { "'\(catalog[e.product].id)' is \(catalog[e.product].kind.rawValue)" }
    switch productKind {
    case .autoRenewable:
      guard e.hasExpires else { return .missingField(field: "expires", type: "purchase of an auto_renewable product") }
    case .nonRenewing:
      break
    case .nonConsumable, .consumable:
      if e.hasExpires { return .fieldNotAllowed(field: "expires", type: EventKind.purchase.name, why: productLabel()) }
    }
    if present.contains(.originalTransaction) && productKind != .autoRenewable {
      return .fieldNotAllowed(
        field: "original_transaction", type: EventKind.purchase.name, why: "only for auto_renewable products; " + productLabel())
    }
    if let problem = computedAmountProblem(e, productKind: productKind) { return problem }
    if productKind != .consumable && present.contains(.quantity) {
      return .fieldNotAllowed(
        field: "quantity", type: EventKind.purchase.name, why: "only for consumable products; " + productLabel())
    }
    if e.hasOwnership && e.ownership == .familyShared && !catalog.products[Int(e.product.rawValue)].isFamilyShareable {
      return .invalidValue(
        field: "ownership", expected: "'purchased' ('\(catalog[e.product].id)' is not family_shareable)",
        found: "\"family_shared\"")
    }
    return productKind == .consumable ? positiveQuantityProblem(e) : nil
  }

  /// Refuses a purchase whose computed values leave their range (Docs/log-format.md, "Limits"):
  /// a grant end from the catalog's duration past the latest time a log can hold, or a
  /// consumable credit (`quantity` × the product's `units`) above `Limits.amountMax`.
  private func computedAmountProblem(_ e: Event, productKind: ProductKind) -> Problem? {
    if productKind == .consumable {
      let units = catalog[e.product].units
      let (credit, overflow) = e.quantity.multipliedReportingOverflow(by: units)
      guard overflow || credit > Limits.amountMax else { return nil }
      return .invalidValue(
        field: "quantity",
        expected: "at most \(Limits.amountMax / units) of '\(catalog[e.product].id)' (\(units) units each; "
          + "one event credits at most \(Limits.amountMax) units)",
        found: String(e.quantity))
    }
    guard !e.hasExpires, let duration = catalog.grantDurations[Int(e.product.rawValue)],
      e.at.millisecondsSinceEpoch > Timestamp.latestMilliseconds - duration.upperBoundMilliseconds
    else { return nil }
    let end = duration.added(to: e.at)
    guard end.millisecondsSinceEpoch > Timestamp.latestMilliseconds else { return nil }
    return .invalidValue(
      field: "at",
      expected: "a time from which '\(catalog[e.product].id)' (\(duration)) ends by \(Timestamp.latest.rfc3339), "
        + "the latest time a log can hold",
      found: "\"\(e.at.rfc3339)\" (it would end at \(end.rfc3339))")
  }

  /// A `quantity` outside `usage`: a positive count.
  @inline(__always)
  private func positiveQuantityProblem(_ e: Event) -> Problem? {
    guard e.quantity < 1 else { return nil }
    return .invalidValue(field: "quantity", expected: "an integer ≥ 1", found: String(e.quantity))
  }

  /// A usage's feature of the catalog's policy, the trial its use may start (ending at a time an
  /// answer can print) and its `quantity`: non-zero, within `usageQuantityMax` either way.
  private func usageProblem(_ e: Event) -> Problem? {
    guard let policy = catalog.policy, Int(e.feature) < policy.features.count else {
      return .invalidValue(field: "feature", expected: "a feature of the catalog's 'policy'", found: String(e.feature))
    }
    // Any usage may be the trial's first: its end and grace end must be times an answer can
    // print. Only a usage near the end of time can fail, so the calendar sum is done only there.
    if let trial = policy.trial,
      e.at.millisecondsSinceEpoch
        > Timestamp.latestMilliseconds - trial.duration.upperBoundMilliseconds
          - (trial.grace?.upperBoundMilliseconds ?? 0)
    {
      let ends = trial.duration.added(to: e.at)
      let graceEnds = trial.grace.map { $0.added(to: ends) } ?? ends
      guard graceEnds.isReadable else {
        return .invalidValue(
          field: "at",
          expected: "a time from which the policy's trial (\(trial.duration)\(trial.grace.map { " and grace \($0)" } ?? "")) "
            + "ends by \(Timestamp.latest.rfc3339), the latest time a log can hold",
          found: "\"\(e.at.rfc3339)\" (it would end at \(graceEnds.rfc3339))")
      }
    }
    guard e.quantity != 0, e.quantity.magnitude <= Self.usageQuantityMax.magnitude else {
      return .invalidValue(
        field: "quantity",
        expected: "a non-zero integer from -\(Self.usageQuantityMax) to \(Self.usageQuantityMax) (negative: held items released)",
        found: String(e.quantity))
    }
    return nil
  }

  /// A revocation's v1.3 `quantity` (packs refunded, ≥ 1) and `refunded` (thousandths, ≥ 0, kept
  /// as its details' `price`); what they may be against the revoked charge is `SubjectRules`'.
  private func revocationProblem(_ e: Event, _ details: EventDetails, present: FieldSet) -> Problem? {
    if present.contains(.quantity) && e.quantity < 1 {
      return .invalidValue(field: "quantity", expected: "an integer ≥ 1 (packs refunded)", found: String(e.quantity))
    }
    guard e.hasRefunded, details.price < 0 else { return nil }
    return .invalidValue(
      field: "refunded", expected: "an integer ≥ 0 in thousandths of the charge's currency", found: String(details.price))
  }
}
