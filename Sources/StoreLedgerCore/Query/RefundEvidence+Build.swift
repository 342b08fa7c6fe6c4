/// How `storeledger evidence` names a refund request: by its event id, or by its transaction
/// and effective time.
package enum RefundRequestSelector: Sendable, Equatable {
  case id(String)
  case transaction(String, at: Timestamp)
}

extension RefundEvidence {
  /// The evidence for the request `selector` names, from the events effective before the
  /// request's `at` and known at its `recorded`; `logPath` (nil: none) is read again for the
  /// request's `meta.pendingRefundToken`.
  /// - Throws: `unknownRefundRequest` (usage, 64) when no `refund_requested` matches;
  ///   `evidenceWithoutCharge` (65) when the ledger knew no charge of its transaction then.
  /// - Complexity: O(events of the subject), O(events) to find a request by id or a charge
  ///   under another subject.
  package static func build(
    ledger: Ledger, selector: RefundRequestSelector, customerConsented: Bool, logPath: String?
  ) throws(Diagnostic) -> RefundEvidence {
    let (requestEvent, subject) = try findRequest(ledger, selector)
    let known = Knowledge(at: requestEvent.at, recorded: requestEvent.recorded)
    let request = Request(
      id: ledger.symbols.ids.string(requestEvent.id), line: requestEvent.line,
      subject: ledger.symbols.subjects.string(subject),
      transaction: ledger.symbols.transactions.string(requestEvent.transaction), at: requestEvent.at,
      recorded: requestEvent.recorded, respondBy: requestEvent.hasExpires ? requestEvent.expires : nil,
      reason: RefundRequestReason(rawValue: requestEvent.reasonRaw)?.name)
    guard let (charge, chargeSubject) = findCharge(ledger, requestEvent.transaction, near: subject, known) else {
      throw Diagnostic(
        file: logPath, line: Int(requestEvent.line),
        .evidenceWithoutCharge(request: request.id, transaction: request.transaction, recorded: request.recorded.rfc3339))
    }
    let chargeEvents = ledger.events(of: chargeSubject).filter(known.counts)
    let subjectEvents = ledger.events(of: subject).filter(known.counts)
    let purchase = purchase(of: charge, ledger, revoked: isRevoked(charge.transaction, chargeEvents))
    let measured = measure(charge, purchase, ledger, chargeEvents: chargeEvents, subjectEvents: subjectEvents, until: request.at)
    let consumed = measured.consumedMilliunits
    let policy = ledger.catalog.refundPreference
    var evidence = RefundEvidence(
      request: request, purchase: purchase, consumption: measured.consumption, consumedMilliunits: consumed,
      sample: sample(before: charge, subjectEvents, ledger), history: history(subjectEvents, ledger, first: request.at),
      uses: Array(measured.uses.prefix(usesMax)), usesTotal: measured.uses.count,
      preference: policy.outcome(consumedMilliunits: consumed), preferenceFromCatalog: policy.isFromCatalog,
      customerConsented: customerConsented, pendingRefundToken: nil, tokenMissing: nil)
    evidence.readToken(logPath: logPath, line: requestEvent.line)
    return evidence
  }

  /// Effective before the request's `at`, known at its `recorded`.
  struct Knowledge {
    var at: Timestamp
    var recorded: Timestamp
    func counts(_ event: Event) -> Bool { event.at < at && event.recorded <= recorded }
  }

  /// The `refund_requested` event the selector names, and its subject.
  /// - Complexity: O(events).
  static func findRequest(_ ledger: Ledger, _ selector: RefundRequestSelector) throws(Diagnostic) -> (Event, Symbol) {
    var found: (Event, Symbol)? = nil
    var requestIDs: [String] = []
    var sameTransaction: [String] = []
    // Ids are not indexed once loaded (they are read back from the log): requests are compared by text.
    ledger.forEachEvent { event, subject in
      guard event.kind == .refundRequested, found == nil else { return }
      switch selector {
      case .id(let id):
        let name = ledger.symbols.ids.string(event.id)
        if name == id { found = (event, subject) } else { requestIDs.append(name) }
      case .transaction(let transaction, let at):
        guard ledger.symbols.transactions.string(event.transaction) == transaction else { return }
        if event.at == at { found = (event, subject) } else { sameTransaction.append(event.at.rfc3339) }
      }
    }
    if let found { return found }
    switch selector {
    case .id(let id):
      throw Diagnostic(.unknownRefundRequest(named: "'\(id)'", nearest: NearMatch.suggestions(for: id, among: requestIDs)))
    case .transaction(let transaction, let at):
      throw Diagnostic(
        .unknownRefundRequest(named: "of transaction '\(transaction)' at \(at.rfc3339)", nearest: sameTransaction.sorted()))
    }
  }

  /// The `purchase` or `renewal` of `transaction` known at the request: the subject's own
  /// first, then any subject's (a unit transferred to the subject).
  /// - Complexity: O(events of the subject), O(events) when it is another subject's.
  static func findCharge(_ ledger: Ledger, _ transaction: Symbol, near subject: Symbol, _ known: Knowledge) -> (Event, Symbol)? {
    func isIt(_ event: Event) -> Bool { event.kind.isCharge && event.transaction == transaction && known.counts(event) }
    if let own = ledger.events(of: subject).first(where: isIt) { return (own, subject) }
    var found: (Event, Symbol)? = nil
    ledger.forEachEvent { event, owner in if found == nil && isIt(event) { found = (event, owner) } }
    return found
  }

  /// Whether a revocation of `transaction` is in force after `events` (revoke, reverse, revoke…).
  static func isRevoked(_ transaction: Symbol, _ events: [Event]) -> Bool {
    var revoked = false
    for event in events where event.transaction == transaction {
      if event.kind == .revocation { revoked = true } else if event.kind == .refundReversed { revoked = false }
    }
    return revoked
  }

  /// The charge in words and numbers.
  static func purchase(of charge: Event, _ ledger: Ledger, revoked: Bool) -> Purchase {
    let product = ledger.catalog[charge.product]
    let details = ledger.details.details(line: charge.line)
    return Purchase(
      product: product.id, kind: product.kind, line: charge.line, at: charge.at,
      price: details.hasPrice ? details.price : nil,
      currency: details.hasPrice ? ledger.symbols.currencies.string(details.priceCurrency) : nil,
      offer: charge.offer, revoked: revoked)
  }

  /// A trial or sample before the charge: an earlier charge with `offer: trial`, else the
  /// catalog policy's usage-based trial when the subject was seen before the charge.
  static func sample(before charge: Event, _ events: [Event], _ ledger: Ledger) -> String? {
    if let trial = events.first(where: { $0.kind.isCharge && $0.offer == .trial && $0.at < charge.at && $0.line != charge.line }) {
      return "a free trial of \(ledger.catalog[trial.product].id) from \(AnswerWords.instant(trial.at))"
    }
    if ledger.catalog.policy?.trial != nil, let first = events.first, first.at < charge.at {
      return "the usage-based trial of the catalog's policy, from \(AnswerWords.instant(first.at))"
    }
    return nil
  }

  /// The subject's purchases, refunds and requests known at the request.
  /// - Complexity: O(events · log charges), the subject's.
  static func history(_ events: [Event], _ ledger: Ledger, first request: Timestamp) -> History {
    var history = History(firstSeen: events.first?.at ?? request)
    var prices: [Symbol: (amount: Int64, currency: String)] = [:]
    for event in events {
      let details = ledger.details.details(line: event.line)
      // Every charge kind, by the kind table's scope: a new one is in the history without a case here.
      if event.kind.isCharge {
        guard details.hasPrice else { continue }
        let currency = ledger.symbols.currencies.string(details.priceCurrency)
        prices[event.transaction] = (details.price, currency)
        history.purchases += 1
        history.purchased[currency, default: 0] += details.price
        continue
      }
      switch event.kind {
      case .revocation:
        guard event.reasonRaw != RevocationReason.familyRevoked.rawValue else { continue }
        history.refunds += 1
        if let price = prices[event.transaction] {
          history.refunded[price.currency, default: 0] += event.hasRefunded ? details.price : price.amount
        }
      case .refundRequested: history.earlierRequests += 1
      case .refundDeclined: history.declines += 1
      default: continue
      }
    }
    return history
  }

  /// Reads the request's line again for `meta.pendingRefundToken` (the ledger keeps only a hash of `meta`).
  mutating func readToken(logPath: String?, line: UInt32) {
    guard let logPath, logPath != "-" else {
      tokenMissing = "the log was not read from a file, so the request's meta could not be read again"
      return
    }
    var meta: JSONValue? = nil
    do {
      try LogLineReader.read(path: logPath, lines: [line]) { _, bytes in meta = (try? JSONValue.parse(bytes: bytes))?["meta"] }
    } catch {
      tokenMissing = "the log could not be read again (\(error.message))"
      return
    }
    if let token = meta?["pendingRefundToken"]?.stringValue, !token.isEmpty {
      pendingRefundToken = token
    } else {
      tokenMissing = "the request's meta has no pendingRefundToken"
    }
  }
}
