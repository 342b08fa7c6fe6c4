import StoreLedgerCore

/// One base plan of a `monetization.subscriptions` document: the product configuration that
/// states the plan's billing period, which no purchase document carries.
struct GooglePlayBasePlan {
  /// `basePlanId`.
  var basePlanID: String
  /// `billingPeriodDuration` of its plan type (auto-renewing, prepaid or installments), raw;
  /// nil when the base plan has none.
  var billingPeriod: String?
  /// Where `billingPeriod` sits, for messages (`basePlans[0].autoRenewingBasePlanType.billingPeriodDuration`).
  var billingPeriodField: String?
  /// The plan type's member name (`autoRenewingBasePlanType`, …); nil when there is none.
  var planType: String?
}

/// A `monetization.subscriptions.get` response (a `Subscription`), or one element of a
/// `monetization.subscriptions.list` response (`subscriptions`).
struct GooglePlayPlansPayload {
  /// Input line of the document.
  var line: Int
  /// Where it sits, e.g. `subscriptions[1]` (empty at top level).
  var path: String
  /// `productId`: the subscription id, the first half of a plan's catalog product.
  var subscriptionID: String
  /// `basePlans`.
  var basePlans: [GooglePlayBasePlan]
  /// The document's text as compact JSON, so that a redelivery counts once.
  var identity: String

  /// The catalog product a base plan names: `SUBSCRIPTION_ID:BASE_PLAN_ID`, as the importer
  /// looks plans up (Docs/import-googleplay.md, "Subscriptions").
  func productID(of plan: GooglePlayBasePlan) -> String { subscriptionID + ":" + plan.basePlanID }
}

extension GooglePlayDocuments {
  /// The plan types of a base plan that carry a `billingPeriodDuration`, in Google's order.
  static let basePlanTypes = ["autoRenewingBasePlanType", "prepaidBasePlanType", "installmentsBasePlanType"]

  /// Whether a document is a `Subscription` of the monetization API: it has `basePlans`.
  static func isPlans(_ object: PayloadObject) -> Bool { object.has("basePlans") }

  /// The subscriptions of a `monetization.subscriptions.list` response (`subscriptions`).
  static func plansList(
    _ object: PayloadObject, line: Int, into payloads: inout [GooglePlayPayload],
    _ problems: inout ImportProblems
  ) {
    guard case .array(let items)? = object["subscriptions"] else {
      problems.error(line, "field 'subscriptions': expected an array")
      return
    }
    for entry in object.objects(items, in: "subscriptions", &problems) {
      if let plans = plans(entry, &problems) { payloads.append(.plans(plans)) }
    }
  }

  /// One `Subscription`: its id and each base plan's billing period, checked.
  static func plans(_ object: PayloadObject, _ problems: inout ImportProblems)
    -> GooglePlayPlansPayload?
  {
    let errorsBefore = problems.errors.count
    let why = "in a monetization.subscriptions document"
    let subscriptionID = object.requiredString("productId", &problems, why: why)
    var basePlans: [GooglePlayBasePlan] = []
    if case .array(let values)? = object["basePlans"] {
      for entry in object.objects(values, in: "basePlans", &problems) {
        if let plan = basePlan(entry, &problems) { basePlans.append(plan) }
      }
    } else {
      problems.error(
        object.line, "field '\(object.name("basePlans"))': expected an array, found \(object["basePlans"]?.kindName ?? "nothing")")
    }
    guard problems.errors.count == errorsBefore, let subscriptionID else { return nil }
    return GooglePlayPlansPayload(
      line: object.line, path: object.path, subscriptionID: subscriptionID, basePlans: basePlans,
      identity: object.identity)
  }

  /// One base plan: its id and the `billingPeriodDuration` of its plan type, which must be an
  /// ISO 8601 duration.
  private static func basePlan(_ entry: PayloadObject, _ problems: inout ImportProblems)
    -> GooglePlayBasePlan?
  {
    let errorsBefore = problems.errors.count
    let basePlanID = entry.requiredString("basePlanId", &problems, why: "in a base plan")
    var plan = GooglePlayBasePlan(basePlanID: basePlanID ?? "")
    for member in basePlanTypes {
      guard let type = entry.child(member, &problems) else { continue }
      guard plan.planType == nil else {
        problems.error(
          entry.line,
          "field '\(type.path)': a base plan has one plan type, but it also has \(plan.planType!)")
        break
      }
      plan.planType = member
      guard let text = type.string("billingPeriodDuration", &problems) else { continue }
      let field = type.name("billingPeriodDuration")
      guard ISODuration(text) != nil else {
        problems.error(
          entry.line,
          "field '\(field)': expected an ISO 8601 duration such as P1M or P1Y, found \"\(text)\"")
        continue
      }
      plan.billingPeriod = text
      plan.billingPeriodField = field
    }
    return problems.errors.count == errorsBefore && basePlanID != nil ? plan : nil
  }

  /// The catalog's nominal period (contract v1.3, section 2) a stated billing period is:
  /// `P1W` (or `P7D`), `P1M`, `P2M`, `P3M`, `P6M`, `P1Y` (or `P12M`); nil for any other
  /// (Google also sells `P4W`, `P4M` and `P8M` plans, which the catalog cannot state).
  static func nominalPeriod(_ text: String) -> NominalPeriod? {
    guard let duration = ISODuration(text), duration.timeMilliseconds == 0 else { return nil }
    if duration.years == 0 && duration.months == 0 { return duration.days == 7 ? .week : nil }
    guard duration.days == 0 else { return nil }
    switch duration.years * 12 + duration.months {
    case 1: return .month
    case 2: return .twoMonths
    case 3: return .quarter
    case 6: return .halfYear
    case 12: return .year
    default: return nil
    }
  }
}
