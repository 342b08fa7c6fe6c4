import StoreLedgerCore

extension GooglePlayMapper {
  /// Emits the state changes of one order, from the notifications about it and the states
  /// its resource copies were fetched in (the mapping table of Docs/import-googleplay.md).
  ///
  /// Each change is identified by the order, the event type and a digest of what it says
  /// (`emit`), so a notification and a resource that report the same change give one event,
  /// and a change learned later with other values is a fact of its own, never a conflict.
  /// - Complexity: O(n) in the order's notifications and resource copies.
  mutating func stateEvents(
    _ order: GooglePlayOrder, isLast: Bool, context: GooglePlayStateContext,
    notifications: [GooglePlayNotificationPayload], copyResources: [GooglePlaySubscriptionPayload]
  ) {
    let facts = GooglePlayOrderFacts(
      order: order, context: context, notifications: notifications, copies: copyResources)
    renewalSwitchEvents(facts)
    let isOnHold = retryEvents(facts)
    deferralEvent(facts)
    expirationEvent(facts, isOnHold: isOnHold)
    revocationEvent(facts)
    deferredReplacementEvents(order, chain: context.chain, copies: copyResources)
    // A charge notification after the last known order: the resource that shows it is missing.
    if isLast,
      let charge = notifications.last(where: {
        $0.kind?.isCharge == true && $0.eventTime >= order.end
      })
    {
      problems.warning(
        charge.line,
        "\(charge.typeName) at \(charge.eventTime.rfc3339), but no resource in this import shows an order after '\(order.id)'; fetch purchases.subscriptionsv2.get after the notification to import the charge"
      )
    }
  }

  /// The context of the document a state is learned from (see `learnedFrom`).
  private func source(
    _ facts: GooglePlayOrderFacts, _ state: GooglePlaySubscriptionState?,
    _ kind: GooglePlaySubscriptionNotificationType?
  ) -> GooglePlayStateContext {
    learnedFrom(
      state, kind, facts.context, notifications: facts.notifications, copies: facts.copies)
  }

  /// Canceled (auto-renew off when the user, Google or the developer canceled) and restarted
  /// (the user undid the cancellation before the period ended).
  private mutating func renewalSwitchEvents(_ facts: GooglePlayOrderFacts) {
    let copies = facts.copies
    if !facts.isReplacement {
      cancellationEvents(facts)
      if facts.order.copies.contains(where: { $0.state == .canceled }),
        !copies.contains(where: { $0.cancelTime != nil }), facts.latest(.canceled) == nil
      {
        problems.warning(
          facts.order.resource.line,
          "order '\(facts.order.id)' is canceled but neither a cancelTime nor a SUBSCRIPTION_CANCELED notification tells when; no auto_renew_changed is imported for it"
        )
      }
    }
    for restart in facts.notifications where restart.kind == .restarted {
      emit(
        .autoRenewChanged, at: restart.eventTime, { $0.autoRenew = true },
        facts.context.learned(from: restart))
    }
  }

  /// Canceled: `auto_renew_changed` false at each copy's `cancelTime`, the store's own instant.
  /// A `SUBSCRIPTION_CANCELED` at or after a `cancelTime` with no restart between tells the
  /// same cancellation: no event of its own, and the copy's event is known from the earlier of
  /// the two. Alone (no copy carries its cancelTime yet) it cancels at its own time; a copy that
  /// comes later adds the same change no later, so no answer depends on which came first.
  private mutating func cancellationEvents(_ facts: GooglePlayOrderFacts) {
    let cancelTimes = Set(facts.copies.compactMap(\.cancelTime)).sorted()
    let restarts = facts.notifications.filter { $0.kind == .restarted }.map(\.eventTime)
    var told: [Timestamp: [Timestamp?]] = [:]
    for cancel in facts.notifications where cancel.kind == .canceled {
      let time = cancel.eventTime
      if let cancelTime = cancelTimes.last(where: { cancelTime in
        cancelTime <= time && !restarts.contains { $0 > cancelTime && $0 <= time }
      }) {
        told[cancelTime, default: []].append(recorded(cancel.knownAt))
        continue
      }
      emit(
        .autoRenewChanged, at: time, { $0.autoRenew = false },
        facts.context.learned(from: cancel))
    }
    for cancelTime in cancelTimes {
      let copies = facts.copies.filter { $0.cancelTime == cancelTime }
      var context = source(facts, .canceled, nil)
      context.line = copies[0].line
      context.knownAt = Self.earliest(
        copies.map { recorded($0.knownAt) } + (told[cancelTime] ?? []))
      emit(
        .autoRenewChanged, at: cancelTime, { $0.autoRenew = false },
        extraMeta: Self.surveyMeta(copies), context)
    }
  }

  /// In grace (access until the grace copy's expiryTime), on hold (billing retry without
  /// access) and paused (no access from the period end until a resumed renewal). Returns
  /// whether the order was on hold.
  private mutating func retryEvents(_ facts: GooglePlayOrderFacts) -> Bool {
    let order = facts.order
    let graceEnd = order.expiries([.inGracePeriod]).max()
    if facts.has(.inGracePeriod, or: .inGracePeriod) {
      if let graceEnd, graceEnd > order.end {
        emit(
          .graceEntered, at: order.end, { $0.graceExpires = graceEnd },
          source(facts, .inGracePeriod, .inGracePeriod))
      } else {
        // Without a copy fetched in grace nothing tells when grace ends; a guess (no grace)
        // could not be taken back when that copy comes, so the grace waits for it.
        problems.warning(
          facts.latest(.inGracePeriod)?.line ?? order.resource.line,
          "order '\(order.id)' entered grace, but no resource fetched in grace tells when grace ends; nothing is imported for the grace until one is (with --append the notification is kept)"
        )
        deferredLines.formUnion(
          facts.notifications.filter { $0.kind == .inGracePeriod }.map(\.line))
      }
    }
    holdEvents(facts)
    if facts.has(.paused, or: .paused) {
      emit(
        .expiration, at: order.end, { $0.reason = ExpirationReason.voluntary.name },
        name: "paused", extraMeta: [("paused", .bool(true))], source(facts, .paused, .paused))
    }
    return facts.has(.onHold, or: .onHold)
  }

  /// On hold: a `billing_retry` from each source that tells when the hold began (a copy
  /// fetched on hold, at its `expiryTime`, the moment access ended; a notification, at its
  /// time), never before the period end. Each is a fact of its own, so what is written does
  /// not depend on which came first; a later one changes nothing the first did not.
  private mutating func holdEvents(_ facts: GooglePlayOrderFacts) {
    let order = facts.order
    for copy in facts.copies where copy.knownState == .onHold {
      guard let expiry = copy.lineItems.first?.expiryTime else { continue }
      var context = facts.context
      context.knownAt = copy.knownAt
      context.line = copy.line
      emit(.billingRetry, at: max(expiry, order.end), { _ in }, context)
    }
    for hold in facts.notifications where hold.kind == .onHold {
      emit(.billingRetry, at: max(hold.eventTime, order.end), { _ in }, facts.context.learned(from: hold))
    }
  }

  /// Deferred: the developer moved the end of the current period (`renewal_extended`).
  private mutating func deferralEvent(_ facts: GooglePlayOrderFacts) {
    let order = facts.order
    let extended = order.expiries([.active, .canceled, .paused]).max()
    var extendedSource = facts.context
    if let extended,
      let copy = facts.copies.first(where: { $0.lineItems.first?.expiryTime == extended })
    {
      extendedSource.knownAt = copy.knownAt
      extendedSource.line = copy.line
    }
    if let extended, extended > order.end {
      // The copy tells the new end (in effect at the old end at the latest); the
      // notification tells since when. Each is a fact of its own, whichever came first.
      emit(.renewalExtended, at: order.end, { $0.expires = extended }, extendedSource)
      for deferral in facts.notifications
      where deferral.kind == .deferred && deferral.eventTime < extended {
        emit(
          .renewalExtended, at: deferral.eventTime, { $0.expires = extended },
          facts.context.learned(from: deferral))
      }
    } else if let deferral = facts.latest(.deferred) {
      problems.warning(
        deferral.line,
        "SUBSCRIPTION_DEFERRED for order '\(order.id)', but no resource shows the new expiryTime; import a resource fetched after the deferral"
      )
    }
  }

  /// Expired: the subscription ended (a replaced token's expiry is not the subscription's).
  private mutating func expirationEvent(_ facts: GooglePlayOrderFacts, isOnHold: Bool) {
    let order = facts.order
    guard !facts.isReplacement, facts.has(.expired, or: .expired) else { return }
    // The expired copy tells where access ended and why (canceledStateContext); a billing
    // expiry takes its time from the notification (when Google gave up). Until both are in,
    // the expiry waits: a guess could not be taken back.
    let cancellation = facts.copies.compactMap {
      $0.cancellation.flatMap(GooglePlayCancellation.init)
    }.first
    var reason = cancellation?.expirationReason ?? (isOnHold ? .billing : .other)
    // A system cancellation at a renewal whose price increase was never accepted is no
    // billing problem: it ends at the period end like Apple's EXPIRED / PRICE_INCREASE.
    if reason == .billing, cancellation == .system, facts.endedAwaitingConsent { reason = .priceIncrease }
    let gaveUp = facts.latest(.expired)?.eventTime
    guard let expiredEnd = order.expiries([.expired]).max(), reason != .billing || gaveUp != nil
    else {
      deferredLines.formUnion(facts.notifications.filter { $0.kind == .expired }.map(\.line))
      return
    }
    // Ended before its period did: revoked. The fetched copy is trusted: access ended then.
    if expiredEnd < order.end && reason != .billing {
      revokedCopyEvent(facts, at: max(expiredEnd, order.start))
      return
    }
    let at = reason == .billing ? (gaveUp ?? expiredEnd) : expiredEnd
    emit(
      .expiration, at: max(at, order.start), { $0.reason = reason.name },
      source(facts, .expired, .expired))
  }


  /// A copy fetched expired before its period's end (after `SUBSCRIPTION_REVOKED` Google moves
  /// `expiryTime` back to the revocation): the order's `revocation` at that expiryTime. It is
  /// the one store fact the voided purchase also tells, so it has the same id, is known from the
  /// earlier of the copy and the voided purchase, and the voided purchase adds nothing
  /// (`revokedByCopies`). A revocation the ledger already holds is that fact: it is written
  /// again only when now known earlier (see `relearned`).
  private mutating func revokedCopyEvent(_ facts: GooglePlayOrderFacts, at: Timestamp) {
    let order = facts.order
    revokedByCopies.insert(order.id)
    let context = source(facts, .expired, nil)
    let orderID = String(order.id.prefix { $0 != "#" })
    let listed = (voided[orderID] ?? []).filter { !$0.isFromNotification }
    let learned = Self.earliest(
      [recorded(context.knownAt)] + listed.map { recorded($0.knownAt) })
    let id = "googleplay:\(order.id):revocation"
    if knowledge.events[EventID(rawValue: id)] != nil {
      if let known = relearned(id, recorded: learned) { emit(known) }
      return
    }
    emitRevocation(
      orderID: order.id, at: at, subject: context.chain.subject,
      meta: Self.baseMeta(isTest: context.chain.isTest, resource: context.resource) + [
        ("subscriptionState", .string("SUBSCRIPTION_STATE_EXPIRED"))
      ],
      line: context.line, recorded: learned)
  }

  /// The event the ledger holds as `id`, again with `recorded`, when that is earlier than the
  /// ledger knew it (the append then knows it from then, Docs/log-format.md "Redeliveries");
  /// nil when it is not.
  private func relearned(_ id: String, recorded: Timestamp?) -> ImportedEvent? {
    guard let event = knowledge.events[EventID(rawValue: id)], let since = knowledge.knownAt[event.id],
      (recorded ?? event.at) < since
    else { return nil }
    return ImportedEvent(event, recorded: recorded, line: 0, identity: id)
  }

  /// Revoked: refunded and access removed at once. The voided purchases list is the trusted
  /// source (exact time and reason); SUBSCRIPTION_REVOKED alone revokes only when
  /// notifications are trusted (Docs/import-googleplay.md, "What each input is trusted for").
  private mutating func revocationEvent(_ facts: GooglePlayOrderFacts) {
    let order = facts.order
    let chain = facts.context.chain
    guard let revoked = facts.latest(.revoked), voided[order.id] == nil,
      !revokedByCopies.contains(order.id)
    else { return }
    if options.trustsNotifications {
      emitRevocation(
        orderID: order.id, at: revoked.eventTime, subject: chain.subject,
        meta: Self.baseMeta(isTest: chain.isTest, resource: facts.context.resource) + [
          ("notificationType", .string(revoked.typeName))
        ],
        line: revoked.line, recorded: recorded(revoked.knownAt))
    } else {
      untrusted(revoked, order: order.id)
    }
  }

  /// The document a state is learned from: the earliest known copy in that state or
  /// notification of that kind (its `recorded` and line); the order's resource when none.
  /// - Complexity: O(n) in the order's notifications and resource copies.
  private func learnedFrom(
    _ state: GooglePlaySubscriptionState?, _ kind: GooglePlaySubscriptionNotificationType?,
    _ context: GooglePlayStateContext, notifications: [GooglePlayNotificationPayload],
    copies: [GooglePlaySubscriptionPayload]
  ) -> GooglePlayStateContext {
    var candidates: [(Timestamp?, Int, GooglePlayStateContext)] = []
    for resource in copies where state != nil && resource.knownState == state {
      var copy = context
      copy.knownAt = resource.knownAt
      copy.line = resource.line
      candidates.append((recorded(resource.knownAt), resource.line, copy))
    }
    for notification in notifications where kind != nil && notification.kind == kind {
      candidates.append(
        (recorded(notification.knownAt), notification.line, context.learned(from: notification)))
    }
    // No knowledge time of its own: known from `at`, before any other.
    let first = Timestamp(millisecondsSinceEpoch: .min)
    return candidates.min { ($0.0 ?? first, $0.1) < ($1.0 ?? first, $1.1) }?.2 ?? context
  }

  /// Emits one state event of an order, unless the token was replaced by then. Its id is
  /// `googleplay:<order>:<name>:<digest>`, the digest of its type, time and fields: the
  /// same fact from any document gives the same id, another fact another id.
  private mutating func emit(
    _ kind: EventKind, at: Timestamp, _ fields: (inout NewEvent) -> Void,
    name: String? = nil, extraMeta: [(String, JSONValue)] = [], _ context: GooglePlayStateContext
  ) {
    if let replacedAt = context.chain.replacedAt, at >= replacedAt { return }
    var event = NewEvent(id: "", kind: kind, subject: SubjectID(rawValue: context.chain.subject), at: at)
    fields(&event)
    event.originalTransaction = TransactionID(rawValue: context.chain.root)
    let id = "googleplay:\(context.order.id):\(name ?? kind.name):\(Self.digest(event))"
    event.id = EventID(rawValue: id)
    event.setMeta(Self.baseMeta(isTest: context.chain.isTest, resource: context.resource) + extraMeta)
    emit(ImportedEvent(event, recorded: recorded(context.knownAt), line: context.line, identity: id))
  }

  /// The first 12 hex digits of the SHA-256 of a fact: its type, time and fields (`event`'s
  /// line without its id, subject, `recorded` and `meta`), and `extra` members.
  static func digest(_ event: NewEvent, adding extra: [(String, JSONValue)] = []) -> String {
    guard case .object(let members) = event.jsonValue else { preconditionFailure("an event's line is an object") }
    let header: Set<String> = ["id", "subject", "recorded", "meta"]
    let fact = JSONWriter.compact(.object(members.filter { !header.contains($0.0) } + extra))
    return String(SHA256.hash(Array(fact.utf8)).hex.prefix(12))
  }

  /// Reports a notification that would revoke on its own, which is not trusted by default.
  mutating func untrusted(_ notification: GooglePlayNotificationPayload, order: String) {
    skipped[notification.typeName + " untrusted", default: []].insert(notification.identity)
    problems.warning(
      notification.line,
      "\(notification.typeName) for order '\(order)' revokes nothing on its own: a notification carries no signature and no purchase data; fetch voidedpurchases.list and import the voided purchase (or trust notifications with --trust-notifications)"
    )
  }

  /// The `revocation` of an order (refund), keyed by the order so that every source of it
  /// (a voided purchase, a voided purchase notification, SUBSCRIPTION_REVOKED) gives one id.
  mutating func emitRevocation(
    orderID: String, at: Timestamp, subject: String, meta: [(String, JSONValue)], line: Int,
    recorded: Timestamp?, quantity: Int64? = nil
  ) {
    let id = "googleplay:\(orderID):revocation"
    emit(
      ImportedEvent(
        id: id, kind: .revocation, subject: subject, at: at, recorded: recorded, meta: meta, line: line, identity: id
      ) {
        $0.transaction = TransactionID(rawValue: orderID)
        $0.reason = RevocationReason.refund.name
        $0.quantity = quantity
      })
  }
}

extension GooglePlayMapper {
  /// A revocation the ledger holds for `transaction` under another subject (a voided purchase
  /// imported before the purchase it voids, when its subject could not be known) is learned
  /// again for the purchase's subject, as a fact of its own: its id adds a digest of the subject.
  mutating func revocationForKnownVoid(
    transaction: String, subject: String, meta: [(String, JSONValue)], line: Int,
    recorded: Timestamp?
  ) {
    guard let known = knowledge.revocations[transaction], known.subject != subject else { return }
    let digest = String(SHA256.hash(Array(subject.utf8)).hex.prefix(12))
    let id = "googleplay:\(transaction):revocation:\(digest)"
    emit(
      ImportedEvent(
        id: id, kind: .revocation, subject: subject, at: known.at, recorded: recorded, meta: meta, line: line,
        identity: id
      ) {
        $0.transaction = TransactionID(rawValue: transaction)
        $0.reason = RevocationReason.refund.name
      })
  }
}

/// What one order's state events are derived from: the order, its context, the
/// notifications that belong to it and its resource copies.
struct GooglePlayOrderFacts {
  /// The order.
  var order: GooglePlayOrder
  /// Its chain and the resource it was read from.
  var context: GooglePlayStateContext
  /// The notifications that belong to the order, by event time.
  var notifications: [GooglePlayNotificationPayload]
  /// The resources that show the order.
  var copies: [GooglePlaySubscriptionPayload]

  /// Whether a copy was canceled because another token replaced it.
  var isReplacement: Bool {
    copies.contains { $0.cancellation == GooglePlayCancellation.replacement.rawValue }
  }

  /// The latest notification of a kind.
  func latest(_ kind: GooglePlaySubscriptionNotificationType) -> GooglePlayNotificationPayload? {
    notifications.last(where: { $0.kind == kind })
  }

  /// Whether a copy was fetched in `state` or a notification of `kind` came.
  func has(_ state: GooglePlaySubscriptionState, or kind: GooglePlaySubscriptionNotificationType)
    -> Bool
  {
    order.copies.contains { $0.state == state } || latest(kind) != nil
  }
}

/// What the state events of one order share.
struct GooglePlayStateContext {
  /// The order.
  var order: GooglePlayOrder
  /// Its token's chain: subject, original transaction, replacement time.
  var chain: GooglePlayChain
  /// The resource the order was read from (token, add-on item).
  var resource: GooglePlaySubscriptionPayload
  /// The document the event is learned from: its knowledge time and line.
  var knownAt: Timestamp?
  /// The input line cited.
  var line: Int

  /// A context learning from the order's resource.
  init(order: GooglePlayOrder, chain: GooglePlayChain, resource: GooglePlaySubscriptionPayload) {
    self.order = order
    self.chain = chain
    self.resource = resource
    self.knownAt = resource.knownAt
    self.line = resource.line
  }

  /// The same context learning from a notification.
  func learned(from notification: GooglePlayNotificationPayload) -> GooglePlayStateContext {
    var context = self
    context.knownAt = notification.knownAt
    context.line = notification.line
    return context
  }
}
