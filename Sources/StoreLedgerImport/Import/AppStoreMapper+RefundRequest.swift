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
    var fields: [(String, JSONValue)] = [("transaction", .string(transaction.transactionID))]
    let kind: EventKind = type == .consumptionRequest ? .refundRequested : .refundDeclined
    if kind == .refundRequested {
      if let raw = notification.consumptionReason {
        if let reason = Self.refundRequestReason(raw) {
          fields.append(("reason", .string(reason.name)))
        } else {
          problems.unknownValue(
            notification.line, field: "data.consumptionRequestReason", raw: .string(raw),
            consequence: "the request is imported without a reason")
        }
      }
      let deadline = context.signedDate.millisecondsSinceEpoch
        + Self.consumptionAnswerWindowMilliseconds
      fields.append(
        ("respond_by", .string(Timestamp(millisecondsSinceEpoch: deadline).rfc3339)))
    }
    emit(
      kind, at: context.signedDate, fields: fields, context, notification,
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
