import StoreLedgerCore

extension AppStoreMapper {
  /// Emits the events of one Get All Subscription Statuses entry.
  ///
  /// The latest transaction gives its own events. The status adds what the transaction cannot
  /// say, keyed by that transaction so that later snapshots repeat the same ids: an expired
  /// (2) subscription's `expiration`, billing retry (3) and grace (4) from the end of its
  /// period. A snapshot has no notification UUID, so the renewal preferences it shows
  /// (`autoRenewStatus`, `autoRenewProductId`) are events keyed by the renewal info's
  /// `signedDate` and take effect then: each new snapshot adds them once.
  mutating func statusEvents(_ entry: SubscriptionStatusPayload) {
    let transaction = entry.transaction
    let line = entry.line
    guard
      isEnvironmentAllowed(
        entry.renewalInfo?.environment, line: line,
        field: Self.field(entry.path, "signedRenewalInfo.environment"), isRequired: false)
    else { return }
    guard transactionEvents(transaction) != nil else { return }
    guard
      let subject = subject(
        token: transaction.appAccountToken,
        originalTransactionID: transaction.originalTransactionID,
        appTransactionID: transaction.appTransactionID, line: line)
    else { return }
    let renewal = entry.renewalInfo
    let recorded = renewal?.signedDate ?? transaction.signedDate
    var meta = baseMeta(environment: renewal?.environment ?? transaction.environment)
    if let status = entry.status { meta.append(("status", .integer(status))) }
    func event(
      _ kind: EventKind, _ at: Timestamp, _ fields: (inout NewEvent) -> Void, suffix: String = ""
    )
      -> ImportedEvent
    {
      let id = "appstore:\(transaction.transactionID):\(kind.name)\(suffix)"
      return ImportedEvent(
        id: id, kind: kind, subject: subject, at: at, recorded: recorded, meta: meta, line: line, identity: id
      ) {
        fields(&$0)
        $0.originalTransaction = TransactionID(rawValue: transaction.originalTransactionID)
      }
    }
    stateEvents(entry) { kind, at, fields in event(kind, at, fields) }
    guard let renewal, let signedDate = renewal.signedDate else { return }
    let suffix = "@\(signedDate.millisecondsSinceEpoch)"
    let isTerminal = entry.status == 2 || entry.status == 5
    if !isTerminal, let status = renewal.autoRenewStatus, let isOn = autoRenew(status, line: line) {
      emit(event(.autoRenewChanged, signedDate, { $0.autoRenew = isOn }, suffix: suffix))
    }
    if !isTerminal, let next = renewal.autoRenewProductID,
      autoRenewableProduct(
        next, field: Self.field(entry.path, "signedRenewalInfo.autoRenewProductId"), line: line)
    {
      emit(event(.planChanged, signedDate, { $0.product = ProductID(rawValue: next) }, suffix: suffix))
    }
  }

  /// The state a status entry reports: an expired (2) subscription's `expiration`, billing
  /// retry (3) and grace (4) from the end of its period; `event` builds each.
  private mutating func stateEvents(
    _ entry: SubscriptionStatusPayload,
    _ event: (EventKind, Timestamp, (inout NewEvent) -> Void) -> ImportedEvent
  ) {
    let transaction = entry.transaction
    let line = entry.line
    let renewal = entry.renewalInfo
    // Statuses 2-4 only exist for auto-renewables, whose transactions always have expiresDate.
    let periodEnd = transaction.expiresDate ?? transaction.purchaseDate
    switch entry.status.flatMap(AppStoreSubscriptionStatus.init(rawValue:)) {
    case .expired?:
      var reason: String?
      if let intent = renewal?.expirationIntent {
        if let known = AppStoreExpirationIntent.reason(intent) {
          reason = known.name
        } else {
          problems.unknownValue(
            line, field: Self.field(entry.path, "signedRenewalInfo.expirationIntent"),
            raw: .integer(intent), consequence: "no reason is recorded")
        }
      }
      emit(event(.expiration, periodEnd, { $0.reason = reason }))
    case .billingRetry?:
      emit(event(.billingRetry, periodEnd, { _ in }))
    case .billingGracePeriod?:
      if let graceEnd = renewal?.gracePeriodExpiresDate, graceEnd > periodEnd {
        emit(event(.graceEntered, periodEnd, { $0.graceExpires = graceEnd }))
      } else {
        problems.warning(
          line,
          "status 4 (billing grace period) without a gracePeriodExpiresDate later than the period end; imported as billing_retry"
        )
        emit(event(.billingRetry, periodEnd, { _ in }))
      }
    case .revoked?:
      if transaction.revocationDate == nil {
        problems.warning(
          line,
          "status 5 (revoked) but the transaction has no revocationDate, so no revocation is imported"
        )
      }
    case .active?:
      break
    case nil:
      if let status = entry.status {
        problems.unknownValue(
          line, field: Self.field(entry.path, "status"), raw: .integer(status),
          consequence: "only the transaction is imported")
      }
    }
  }
}
