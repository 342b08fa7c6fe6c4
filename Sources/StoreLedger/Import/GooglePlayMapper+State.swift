extension GooglePlayMapper {
  /// Emits the state changes of one order, from the notifications about it and the states
  /// its resource copies were fetched in (the mapping table of Docs/import-googleplay.md).
  ///
  /// Each change is keyed by the order and the event type, and its values come from
  /// everything known about the order, so a notification and a resource that report the same
  /// change give one event.
  /// - Complexity: O(n) in the order's notifications and resource copies.
  mutating func stateEvents(
    _ order: GooglePlayOrder, isLast: Bool, token: String, chain: GooglePlayChain,
    notifications: [GooglePlayNotificationPayload], copyResources: [GooglePlaySubscriptionPayload]
  ) {
    func latest(_ kind: GooglePlaySubscriptionNotificationType) -> GooglePlayNotificationPayload? {
      notifications.last(where: { $0.kind == kind })
    }
    func has(_ state: GooglePlaySubscriptionState, or kind: GooglePlaySubscriptionNotificationType)
      -> Bool
    {
      order.copies.contains { $0.state == state } || latest(kind) != nil
    }
    let isReplacement = copyResources.contains {
      $0.cancellation == GooglePlayCancellation.replacement.rawValue
    }
    let context = GooglePlayStateContext(order: order, chain: chain, token: token)

    // Canceled: auto-renew turned off when the user (or Google, or the developer) canceled.
    if !isReplacement,
      has(.canceled, or: .canceled) || copyResources.contains(where: { $0.cancelTime != nil })
    {
      if let at = copyResources.compactMap(\.cancelTime).min() ?? latest(.canceled)?.eventTime {
        emit(
          .autoRenewChanged, at: at, [("auto_renew", .bool(false))],
          suffix: "@\(at.millisecondsSinceEpoch)", context)
      } else {
        problems.warning(
          order.resource.line,
          "order '\(order.id)' is canceled but neither a cancelTime nor a SUBSCRIPTION_CANCELED notification tells when; no auto_renew_changed is imported for it"
        )
      }
    }
    // Restarted: the user undid the cancellation before the period ended.
    for restart in notifications where restart.kind == .restarted {
      let at = restart.eventTime
      emit(
        .autoRenewChanged, at: at, [("auto_renew", .bool(true))],
        suffix: "@\(at.millisecondsSinceEpoch)", context)
    }
    // In grace: access continues until the end of grace (the grace copy's expiryTime).
    let graceEnd = order.expiries([.inGracePeriod]).max()
    if has(.inGracePeriod, or: .inGracePeriod) {
      if let graceEnd, graceEnd > order.end {
        emit(.graceEntered, at: order.end, [("grace_expires", .string(graceEnd.rfc3339))], context)
      } else {
        problems.warning(
          latest(.inGracePeriod)?.line ?? order.resource.line,
          "order '\(order.id)' entered grace, but no resource fetched in grace tells when grace ends; imported as billing_retry (no access after the period end)"
        )
        emit(.billingRetry, at: order.end, [], suffix: "@grace", context)
      }
    }
    // On hold: billing retry without access (the period has ended).
    let isOnHold = has(.onHold, or: .onHold)
    if isOnHold {
      let at = latest(.onHold)?.eventTime ?? graceEnd ?? order.end
      emit(.billingRetry, at: max(at, order.end), [], context)
    }
    // Paused: no access from the end of the period until a resumed renewal.
    if has(.paused, or: .paused) {
      emit(
        .expiration, at: order.end, [("reason", .string(ExpirationReason.voluntary.name))],
        name: "paused", extraMeta: [("paused", .bool(true))], context)
    }
    // Deferred: the developer moved the end of the current period.
    let extended = order.expiries([.active, .canceled, .paused]).max()
    if let extended, extended > order.end {
      let deferral = notifications.last(where: { $0.kind == .deferred && $0.eventTime < extended })
      let at = deferral?.eventTime ?? order.end
      emit(
        .renewalExtended, at: at, [("expires", .string(extended.rfc3339))],
        suffix: "@\(extended.millisecondsSinceEpoch)", context)
    } else if let deferral = latest(.deferred) {
      problems.warning(
        deferral.line,
        "SUBSCRIPTION_DEFERRED for order '\(order.id)', but no resource shows the new expiryTime; import a resource fetched after the deferral"
      )
    }
    // Expired: the subscription ended (a replaced token's expiry is not the subscription's).
    if !isReplacement, has(.expired, or: .expired) {
      let cancellation = copyResources.compactMap {
        $0.cancellation.flatMap(GooglePlayCancellation.init)
      }.first
      let reason = cancellation?.expirationReason ?? (isOnHold ? .billing : .other)
      let expiredEnd = order.expiries([.expired]).max()
      let at =
        reason == .billing
        ? (latest(.expired)?.eventTime ?? expiredEnd ?? order.end)
        : (expiredEnd ?? max(extended ?? order.end, order.end))
      emit(.expiration, at: max(at, order.start), [("reason", .string(reason.name))], context)
    }
    // Revoked: refunded and access removed at once; a voided purchase of the order, when
    // present, is the better source (exact time and reason) and gives the same event.
    if let revoked = latest(.revoked), voided[order.id] == nil {
      emitRevocation(
        orderID: order.id, at: revoked.eventTime, subject: chain.subject,
        meta: Self.baseMeta(isTest: chain.isTest, token: token) + [
          ("notificationType", .string(revoked.typeName))
        ],
        line: revoked.line)
    }
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

  /// Emits one state event of an order, unless the token was replaced by then.
  private mutating func emit(
    _ kind: EventKind, at: Timestamp, _ fields: [(String, JSONValue)], suffix: String = "",
    name: String? = nil, extraMeta: [(String, JSONValue)] = [], _ context: GooglePlayStateContext
  ) {
    if let replacedAt = context.chain.replacedAt, at >= replacedAt { return }
    let id = "googleplay:\(context.order.id):\(name ?? kind.name)\(suffix)"
    emit(
      ImportedEvent(
        id: id, kind: kind, subject: context.chain.subject, at: at, recorded: nil,
        fields: fields + [("original_transaction", .string(context.chain.root))],
        meta: Self.baseMeta(isTest: context.chain.isTest, token: context.token) + extraMeta,
        line: context.order.resource.line, identity: id))
  }

  /// The `revocation` of an order (refund), keyed by the order so that every source of it
  /// (a voided purchase, a voided purchase notification, SUBSCRIPTION_REVOKED) gives one id.
  mutating func emitRevocation(
    orderID: String, at: Timestamp, subject: String, meta: [(String, JSONValue)], line: Int
  ) {
    let id = "googleplay:\(orderID):revocation"
    emit(
      ImportedEvent(
        id: id, kind: .revocation, subject: subject, at: at, recorded: nil,
        fields: [
          ("transaction", .string(orderID)), ("reason", .string(RevocationReason.refund.name)),
        ],
        meta: meta, line: line, identity: id))
  }
}

/// What the state events of one order share.
struct GooglePlayStateContext {
  /// The order.
  var order: GooglePlayOrder
  /// Its token's chain: subject, original transaction, replacement time.
  var chain: GooglePlayChain
  /// Its purchase token.
  var token: String
}
