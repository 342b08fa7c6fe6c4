import StoreLedgerCore

/// What a transaction says about its plan and offer (App Store Server API through 2026-04):
/// fields that never change for a transaction, kept in its charge's `meta` under Apple's names
/// so reports can group by them, and the nominal period `emitCatalog` drafts.
struct TransactionPlanFacts {
  /// `offerIdentifier`: the promotional offer or offer code redeemed.
  var offerIdentifier: String?
  /// `offerPeriod`: the offer's ISO 8601 duration (`P1Y`).
  var offerPeriod: String?
  /// `billingPlanType`: `BILLED_UPFRONT`, or `MONTHLY` for a 12-month commitment billed monthly.
  var billingPlanType: String?
  /// `commitmentInfo.billingPeriodNumber`: which payment of the commitment this is.
  var billingPeriodNumber: Int64?
  /// `commitmentInfo.totalBillingPeriods`: how many payments the commitment has.
  var totalBillingPeriods: Int64?
  /// `advancedCommerceInfo.period`: the subscription's period, where Advanced Commerce states it.
  var statedPeriod: String?

  /// Reads the facts from a transaction object; a mistyped field is reported like any other.
  static func read(_ object: PayloadObject, _ problems: inout ImportProblems) -> TransactionPlanFacts {
    let commitment = object.child("commitmentInfo", &problems)
    let commerce = object.child("advancedCommerceInfo", &problems)
    return TransactionPlanFacts(
      offerIdentifier: object.string("offerIdentifier", &problems),
      offerPeriod: object.string("offerPeriod", &problems),
      billingPlanType: object.string("billingPlanType", &problems),
      billingPeriodNumber: commitment?.int64("billingPeriodNumber", &problems),
      totalBillingPeriods: commitment?.int64("totalBillingPeriods", &problems),
      statedPeriod: commerce?.string("period", &problems))
  }

  /// The `meta` members of a charge, under Apple's field names.
  var meta: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
    if let offerIdentifier { members.append(("offerIdentifier", .string(offerIdentifier))) }
    if let offerPeriod { members.append(("offerPeriod", .string(offerPeriod))) }
    if let billingPlanType { members.append(("billingPlanType", .string(billingPlanType))) }
    if let billingPeriodNumber { members.append(("billingPeriodNumber", .integer(billingPeriodNumber))) }
    if let totalBillingPeriods { members.append(("totalBillingPeriods", .integer(totalBillingPeriods))) }
    return members
  }
}
