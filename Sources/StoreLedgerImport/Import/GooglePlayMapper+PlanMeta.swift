import StoreLedgerCore

extension GooglePlayMapper {
  /// The `meta` of a charge of an installment plan: `installmentPayments` (the payments the
  /// plan commits to first, `initialCommittedPaymentsCount`) and `installmentRenewalPayments`
  /// (on renewal, `subsequentCommittedPaymentsCount`); fixed for the plan, so every copy of an
  /// order gives the same line. `remainingCommittedPaymentsCount` changes and is not kept.
  static func installmentMeta(_ item: GooglePlayLineItem) -> [(String, JSONValue)] {
    var meta: [(String, JSONValue)] = []
    if let initial = item.installments?.initial { meta.append(("installmentPayments", .integer(initial))) }
    if let subsequent = item.installments?.subsequent {
      meta.append(("installmentRenewalPayments", .integer(subsequent)))
    }
    return meta
  }

  /// The `meta` of a user's cancellation: `cancelSurveyReason`, the reason the user picked in
  /// Google's cancel survey (`cancelSurveyResult.reason`), from the copies that carry its
  /// `cancelTime` (the first by value when they differ, so input order changes nothing). The
  /// free text (`reasonUserInput`) is the user's own words and is not kept.
  static func surveyMeta(_ copies: [GooglePlaySubscriptionPayload]) -> [(String, JSONValue)] {
    guard let reason = copies.compactMap(\.cancelSurveyReason).min() else { return [] }
    return [("cancelSurveyReason", .string(reason))]
  }
}
