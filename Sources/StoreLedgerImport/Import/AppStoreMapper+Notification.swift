import StoreLedgerCore

/// What every event of one notification shares.
struct NotificationContext {
  /// `notificationUUID`: the same for every retry, so it keys the notification's own events.
  var uuid: String
  /// `signedDate`: effective time where the payload has no better date, and knowledge time.
  var signedDate: Timestamp
  /// The subscription's original transaction.
  var originalTransactionID: String
  /// The subject of the subscription.
  var subject: String
  /// `meta` of the notification's own events.
  var meta: [(String, JSONValue)]
}

extension AppStoreMapper {
  /// Emits the events of a V2 notification: those its transaction implies on its own, and
  /// those the notification type adds (the mapping table of Docs/import-appstore.md).
  mutating func notificationEvents(_ notification: NotificationPayload) {
    let line = notification.line
    guard
      isEnvironmentAllowed(
        notification.environment, line: line, field: notification.environmentField,
        isRequired: false),
      isEnvironmentAllowed(
        notification.renewalInfo?.environment, line: line,
        field: "data.signedRenewalInfo.environment", isRequired: false)
    else { return }
    guard let type = AppStoreNotificationType(rawValue: notification.type) else {
      problems.unknownValue(
        line, field: "notificationType", raw: .string(notification.type),
        consequence: "counted as skipped; the transaction it carries is still imported")
      markSkipped(notification)
      if let transaction = notification.transaction { _ = transactionEvents(transaction) }
      return
    }
    let subtype = knownSubtype(notification, type: type)
    // The transaction's own events come first and from the transaction alone; when they fail
    // the notification's errors are already reported and nothing more is learned from it.
    var chargeKind: EventKind?
    if let transaction = notification.transaction {
      chargeKind = transactionEvents(transaction)
      guard chargeKind != nil else { return }
    }
    switch type {
    case .subscribed, .oneTimeCharge:
      expectCharge(.purchase, chargeKind, notification)
    case .didRenew:
      expectCharge(.renewal, chargeKind, notification)
    case .didChangeRenewalPref, .offerRedeemed:
      if subtype == .upgrade {
        expectCharge(.purchase, chargeKind, notification)
      } else {
        renewalPreferenceEvents(notification, subtype: subtype)
      }
    case .didChangeRenewalStatus:
      autoRenewStatusEvent(notification, subtype: subtype)
    case .didFailToRenew:
      failedRenewalEvent(notification, subtype: subtype)
    case .gracePeriodExpired:
      guard let context = context(notification) else { return }
      let at = notification.renewalInfo?.gracePeriodExpiresDate ?? context.signedDate
      emit(.billingRetry, at: at, fields: { _ in }, context, notification)
    case .expired:
      expirationEvent(notification, subtype: subtype)
    case .refund:
      expectRevocation(.refund, notification)
    case .revoke:
      expectRevocation(.familyRevoked, notification)
    case .refundReversed:
      guard let transaction = required(notification), let context = context(notification) else {
        return
      }
      emit(
        .refundReversed, at: context.signedDate,
        fields: { $0.transaction = TransactionID(rawValue: transaction.transactionID) }, context, notification,
        hasOriginalTransaction: false)
    case .renewalExtended:
      renewalExtendedEvent(notification)
    case .consumptionRequest, .refundDeclined:
      refundRequestEvent(notification, type: type)
    case .rescindConsent: consentWithdrawals.append(notification)
    case .priceIncrease, .test, .renewalExtension,
      .externalPurchaseToken, .metadataUpdate, .migration, .priceChange:
      // No entitlement change: counted so the summary can say how many of each were seen.
      markSkipped(notification)
    }
  }

  /// The notification's subtype, nil (with an unknown-value report) when Apple sent one
  /// this importer does not know.
  private mutating func knownSubtype(
    _ notification: NotificationPayload, type: AppStoreNotificationType
  ) -> AppStoreSubtype? {
    guard let raw = notification.subtype else { return nil }
    let subtype = AppStoreSubtype(rawValue: raw)
    if subtype == nil {
      problems.unknownValue(
        notification.line, field: "subtype", raw: .string(raw),
        consequence: "handled like \(type.rawValue) without a subtype; kept raw in meta")
    }
    return subtype
  }

  // MARK: - Per type

  /// DID_CHANGE_RENEWAL_PREF and OFFER_REDEEMED without UPGRADE: the next period's product.
  ///
  /// DOWNGRADE (and a crossgrade) takes effect at the next renewal, so it is a `plan_changed`
  /// to `autoRenewProductId`; without a subtype the preference went back to the current
  /// product, which cancels a pending change. Apple also re-enables auto-renew on these
  /// without a separate DID_CHANGE_RENEWAL_STATUS, so `autoRenewStatus` is recorded too.
  private mutating func renewalPreferenceEvents(
    _ notification: NotificationPayload, subtype: AppStoreSubtype?
  ) {
    guard let context = context(notification) else { return }
    let renewal = notification.renewalInfo
    let productID: String
    let field: String
    if let next = renewal?.autoRenewProductID {
      productID = next
      field = "data.signedRenewalInfo.autoRenewProductId"
    } else if subtype != .downgrade, let current = notification.transaction?.productID {
      productID = current
      field = "data.signedTransactionInfo.productId"
    } else {
      problems.error(
        notification.line,
        "field 'data.signedRenewalInfo.autoRenewProductId' is missing; \(notification.type) needs the product of the next period"
      )
      return
    }
    guard autoRenewableProduct(productID, field: field, line: notification.line) else { return }
    emit(
      .planChanged, at: context.signedDate, fields: { $0.product = ProductID(rawValue: productID) }, context,
      notification)
    if let status = renewal?.autoRenewStatus {
      if let isOn = autoRenew(status, line: notification.line) {
        emit(
          .autoRenewChanged, at: context.signedDate, fields: { $0.autoRenew = isOn },
          context, notification)
      }
    }
  }

  /// DID_CHANGE_RENEWAL_STATUS: the subtype says on or off; renewal info is the fallback.
  private mutating func autoRenewStatusEvent(
    _ notification: NotificationPayload, subtype: AppStoreSubtype?
  ) {
    guard let context = context(notification) else { return }
    let isOn: Bool
    switch subtype {
    case .autoRenewEnabled?: isOn = true
    case .autoRenewDisabled?: isOn = false
    default:
      guard let status = notification.renewalInfo?.autoRenewStatus,
        let fromRenewal = autoRenew(status, line: notification.line)
      else {
        problems.warning(
          notification.line,
          "\(notification.type) without AUTO_RENEW_ENABLED/DISABLED or autoRenewStatus: the new auto-renew status is unknown, so no event is imported for it"
        )
        return
      }
      isOn = fromRenewal
    }
    emit(
      .autoRenewChanged, at: context.signedDate, fields: { $0.autoRenew = isOn }, context,
      notification)
  }

  /// DID_FAIL_TO_RENEW: billing retry starts when the period ends; with GRACE_PERIOD, access
  /// continues until `gracePeriodExpiresDate`.
  private mutating func failedRenewalEvent(
    _ notification: NotificationPayload, subtype: AppStoreSubtype?
  ) {
    guard let context = context(notification) else { return }
    let at = notification.transaction?.expiresDate ?? context.signedDate
    let graceEnd = notification.renewalInfo?.gracePeriodExpiresDate
    let wantsGrace = subtype == .gracePeriod || (subtype == nil && notification.subtype != nil)
    if wantsGrace, let graceEnd, graceEnd > at {
      emit(
        .graceEntered, at: at, fields: { $0.graceExpires = graceEnd }, context,
        notification)
      return
    }
    if subtype == .gracePeriod {
      // Seen in real data (Apple forums): GRACE_PERIOD with no usable grace end.
      problems.warning(
        notification.line,
        "DID_FAIL_TO_RENEW/GRACE_PERIOD without a gracePeriodExpiresDate later than the period end; imported as billing_retry"
      )
    }
    emit(.billingRetry, at: at, fields: { _ in }, context, notification)
  }

  /// EXPIRED: the subscription ended; the subtype (or `expirationIntent`) gives the reason.
  ///
  /// It took effect when the last period ended (`expiresDate`), except after billing retry,
  /// which ends when Apple gives up, i.e. when it signs the notification.
  private mutating func expirationEvent(
    _ notification: NotificationPayload, subtype: AppStoreSubtype?
  ) {
    guard let context = context(notification) else { return }
    var reason: ExpirationReason?
    switch subtype {
    case .voluntary?: reason = .voluntary
    case .billingRetry?: reason = .billing
    case .priceIncrease?: reason = .priceIncrease
    case .productNotForSale?: reason = .productUnavailable
    default: break
    }
    if reason == nil, let intent = notification.renewalInfo?.expirationIntent {
      reason = AppStoreExpirationIntent.reason(intent)
      if reason == nil {
        problems.unknownValue(
          notification.line, field: "data.signedRenewalInfo.expirationIntent",
          raw: .integer(intent), consequence: "reason 'other'")
      }
    }
    let finalReason = reason ?? .other
    var at = context.signedDate
    if finalReason != .billing, let expires = notification.transaction?.expiresDate {
      at = min(expires, context.signedDate)
    }
    emit(
      .expiration, at: at, fields: { $0.reason = finalReason.name }, context, notification)
  }

  /// RENEWAL_EXTENDED: the period now ends at the renewal info's `renewalDate` (Apple keeps a
  /// transaction's `expiresDate` static); the transaction's date is the fallback.
  private mutating func renewalExtendedEvent(_ notification: NotificationPayload) {
    guard let context = context(notification) else { return }
    guard
      let expires = notification.renewalInfo?.renewalDate ?? notification.transaction?.expiresDate
    else {
      problems.error(
        notification.line,
        "field 'data.signedRenewalInfo.renewalDate' is missing; RENEWAL_EXTENDED needs the new end of the period"
      )
      return
    }
    guard expires > context.signedDate else {
      problems.error(
        notification.line,
        "field 'data.signedRenewalInfo.renewalDate': the extended end \(expires.rfc3339) is not later than signedDate \(context.signedDate.rfc3339)"
      )
      return
    }
    emit(
      .renewalExtended, at: context.signedDate, fields: { $0.expires = expires },
      context, notification)
  }

  // MARK: - Helpers

  /// Checks that a charge notification carried the charge it announces.
  ///
  /// The transaction decides between purchase and renewal (so that its event is the same from
  /// every source); a notification that disagrees is reported, not obeyed.
  private mutating func expectCharge(
    _ expected: EventKind, _ actual: EventKind?, _ notification: NotificationPayload
  ) {
    guard required(notification) != nil, let actual, actual != expected else { return }
    problems.warning(
      notification.line,
      "\(notification.type)\(notification.subtype.map { "/" + $0 } ?? "") usually carries a \(expected.name), but its transaction's transactionReason makes it a \(actual.name); the transaction decides"
    )
  }

  /// REFUND and REVOKE: the transaction's `revocationDate` gives the revocation (emitted with
  /// the transaction's events); the notification only confirms it.
  private mutating func expectRevocation(
    _ expected: RevocationReason, _ notification: NotificationPayload
  ) {
    guard let transaction = required(notification) else { return }
    guard transaction.revocationDate != nil else {
      problems.error(
        notification.line,
        "field 'data.signedTransactionInfo.revocationDate' is missing; it is required for \(notification.type)"
      )
      return
    }
    let actual = revocationReason(transaction)
    if actual != expected {
      problems.warning(
        notification.line,
        "\(notification.type) of a transaction whose revocationType/inAppOwnershipType make it '\(actual.name)'; the transaction decides"
      )
    }
  }

  /// The notification's transaction, reporting its absence.
  mutating func required(_ notification: NotificationPayload) -> TransactionPayload? {
    guard let transaction = notification.transaction else {
      problems.error(
        notification.line,
        "field 'data.signedTransactionInfo' is missing; \(notification.type) needs the transaction"
      )
      return nil
    }
    return transaction
  }

  /// The shared part of a notification's own events, reporting what is missing.
  mutating func context(_ notification: NotificationPayload) -> NotificationContext? {
    let line = notification.line
    let why = "to import \(notification.type)"
    guard let uuid = notification.uuid, !uuid.isEmpty else {
      problems.error(line, "field 'notificationUUID' is missing; it is required \(why)")
      return nil
    }
    guard let signedDate = notification.signedDate else {
      problems.error(line, "field 'signedDate' is missing; it is required \(why)")
      return nil
    }
    let transaction = notification.transaction
    let renewal = notification.renewalInfo
    guard
      let originalTransactionID = transaction?.originalTransactionID
        ?? renewal?.originalTransactionID
    else {
      problems.error(
        line,
        "field 'data.signedTransactionInfo' is missing; it is required \(why) (the subscription's originalTransactionId)"
      )
      return nil
    }
    // The transaction's token wins so that these events have the subject of the purchase.
    let token = transaction != nil ? transaction?.appAccountToken : renewal?.appAccountToken
    guard
      let subject = subject(
        token: token, originalTransactionID: originalTransactionID,
        appTransactionID: transaction?.appTransactionID, line: line)
    else { return nil }
    var meta = baseMeta(
      environment: notification.environment ?? transaction?.environment ?? renewal?.environment)
    meta.append(("notificationType", .string(notification.type)))
    if let subtype = notification.subtype { meta.append(("subtype", .string(subtype))) }
    meta += Self.priceIncreaseMeta(renewal)
    return NotificationContext(
      uuid: uuid, signedDate: signedDate, originalTransactionID: originalTransactionID,
      subject: subject, meta: meta)
  }

  /// Emits one of a notification's own events, keyed by its UUID and the event type.
  mutating func emit(
    _ kind: EventKind, at: Timestamp, fields: (inout NewEvent) -> Void,
    _ context: NotificationContext, _ notification: NotificationPayload,
    hasOriginalTransaction: Bool = true
  ) {
    let id = "appstore:\(context.uuid):\(kind.name)"
    emit(
      ImportedEvent(
        id: id, kind: kind, subject: context.subject, at: at, recorded: context.signedDate,
        meta: context.meta, line: notification.line, identity: id
      ) {
        fields(&$0)
        if hasOriginalTransaction { $0.originalTransaction = TransactionID(rawValue: context.originalTransactionID) }
      })
  }

  /// Counts a notification that changes no entitlement, once per `notificationUUID`.
  private mutating func markSkipped(_ notification: NotificationPayload) {
    let identity = notification.uuid ?? "line \(notification.line)"
    skipped[notification.type, default: []].insert(identity)
  }

  /// `autoRenewStatus` as a boolean; an unknown value is reported.
  mutating func autoRenew(_ status: Int64, line: Int) -> Bool? {
    switch status {
    case 1: return true
    case 0: return false
    default:
      problems.unknownValue(
        line, field: "autoRenewStatus", raw: .integer(status),
        consequence: "no auto_renew_changed is imported for it")
      return nil
    }
  }

  /// Whether `productID` is an auto-renewable product of the catalog; reports it when not.
  mutating func autoRenewableProduct(_ productID: String, field: String, line: Int) -> Bool {
    guard let index = catalog.index(of: productID) else {
      problems.error(
        line,
        "field '\(field)': unknown product '\(productID)' (not in the catalog); add it, or start a catalog with emitCatalog (--emit-catalog)"
      )
      return false
    }
    guard catalog[index].kind == .autoRenewable else {
      problems.error(
        line,
        "field '\(field)': '\(productID)' is \(catalog[index].kind.rawValue) in the catalog, but a renewal preference names an auto_renewable product"
      )
      return false
    }
    return true
  }
}
