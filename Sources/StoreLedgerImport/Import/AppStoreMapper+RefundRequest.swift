import StoreLedgerCore

extension AppStoreMapper {
  /// How long Apple gives a developer to answer a CONSUMPTION_REQUEST: 12 hours from the
  /// notification (App Store Server API, Send Consumption Information).
  static let consumptionAnswerWindowMilliseconds: Int64 = 12 * 3_600_000

  /// CONSUMPTION_REQUEST: a `refund_requested` of its transaction at the notification's
  /// `signedDate`, with Apple's reason and the 12-hour deadline as `respond_by`;
  /// REFUND_DECLINED: a `refund_declined` (contract v1.3 section 11). Neither changes access.
  mutating func refundRequestEvent(_ notification: NotificationPayload, type: AppStoreNotificationType) {
    guard let transaction = required(notification), let context = context(notification) else {
      return
    }
    var reason: String?
    var respondBy: Timestamp?
    let kind: EventKind = type == .consumptionRequest ? .refundRequested : .refundDeclined
    if kind == .refundRequested {
      if let raw = notification.consumptionReason {
        if let known = Self.refundRequestReason(raw) {
          reason = known.name
        } else {
          problems.unknownValue(
            notification.line, field: "data.consumptionRequestReason", raw: .string(raw),
            consequence: "the request is imported without a reason")
        }
      }
      let deadline = context.signedDate.millisecondsSinceEpoch
        + Self.consumptionAnswerWindowMilliseconds
      respondBy = Timestamp(millisecondsSinceEpoch: deadline)
    }
    emit(
      kind, at: context.signedDate, fields: {
        $0.transaction = TransactionID(rawValue: transaction.transactionID)
        $0.reason = reason
        $0.respondBy = respondBy
      }, context, notification,
      hasOriginalTransaction: false)
  }

  /// The contract's reason for Apple's `consumptionRequestReason`; nil for one it does not know.
  static func refundRequestReason(_ raw: String) -> RefundRequestReason? {
    switch raw {
    case "UNINTENDED_PURCHASE": return .unintendedPurchase
    case "FULFILLMENT_ISSUE": return .fulfillmentIssue
    case "UNSATISFIED_WITH_PURCHASE": return .unsatisfied
    case "LEGAL": return .legal
    case "OTHER": return .other
    default: return nil
    }
  }
}
