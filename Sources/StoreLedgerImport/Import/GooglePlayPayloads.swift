import StoreLedgerCore

/// A decoded `DeveloperNotification` (a real-time developer notification), from a Pub/Sub push
/// envelope, a Pub/Sub pull response or as written by a backend.
struct GooglePlayNotificationPayload {
  /// What the notification is about: exactly one of Google's mutually exclusive members.
  enum Body {
    /// `subscriptionNotification`.
    case subscription(type: Int64, token: String)
    /// `oneTimeProductNotification`.
    case oneTime(type: Int64, token: String, sku: String?)
    /// `voidedPurchaseNotification`.
    case voided(GooglePlayVoidedPayload)
    /// `pendingRefundReviewNotification`: the buyer asked for a refund of `orderID`, and Google
    /// waits 24 hours for the developer's answer (`orders.reviewrefund`, which needs the
    /// notification's `pendingRefundToken`, kept when present).
    case refundReview(token: String, orderID: String, refundToken: String?)
    /// `testNotification` (sent from the Play Console).
    case test
    /// A member that changes no entitlement (`pendingRefundReviewNotification`) or one this
    /// importer does not know, by its name.
    case other(name: String, isKnown: Bool)
  }

  /// Input line of the document.
  var line: Int
  /// Where it sits in the document, e.g. `message.data` (empty at top level).
  var path: String
  /// `eventTimeMillis`: when the change happened.
  var eventTime: Timestamp
  /// The notification's member.
  var body: Body
  /// When Google told us: the Pub/Sub message's `publishTime`; nil for a decoded
  /// notification stored without its envelope (the import's clock is used).
  var knownAt: Timestamp?

  /// Google's name of the notification type, for meta, `skipped` and messages.
  var typeName: String {
    switch body {
    case .subscription(let type, _):
      return GooglePlaySubscriptionNotificationType(rawValue: type)?.name
        ?? "subscriptionNotification.notificationType=\(type)"
    case .oneTime(let type, _, _):
      return GooglePlayOneTimeNotificationType(rawValue: type)?.name
        ?? "oneTimeProductNotification.notificationType=\(type)"
    case .voided: return "voidedPurchaseNotification"
    case .refundReview: return "pendingRefundReviewNotification"
    case .test: return "testNotification"
    case .other(let name, _): return name
    }
  }

  /// What makes two copies the same notification: its content (type, time and the token or
  /// order it is about), so a Pub/Sub push and the decoded notification it carried are one.
  var identity: String {
    let subject: String
    switch body {
    case .subscription(_, let token), .oneTime(_, let token, _): subject = token
    case .voided(let entry): subject = entry.orderID
    case .refundReview(_, let orderID, _): subject = orderID
    case .test, .other: subject = ""
    }
    return "\(typeName)@\(eventTime.millisecondsSinceEpoch):\(subject)"
  }
}

/// One line item of a `SubscriptionPurchaseV2`: a subscribed product and its current order.
struct GooglePlayLineItem {
  /// `productId`.
  var productID: String
  /// `offerDetails.basePlanId`.
  var basePlanID: String?
  /// `offerDetails.offerId`.
  var offerID: String?
  /// `expiryTime`: end of the paid period (in grace: end of grace; on hold: in the past).
  var expiryTime: Timestamp
  /// `latestSuccessfulOrderId`, or the resource's `latestOrderId` for a single item.
  var orderID: String?
  /// `autoRenewingPlan.autoRenewEnabled`; nil for a prepaid plan.
  var autoRenewEnabled: Bool?
  /// The member name of `offerPhase` (`freeTrial`, `introductoryPrice`, `basePrice`, …).
  var offerPhase: String?
  /// `autoRenewingPlan.recurringPrice` in thousandths of `currency`.
  var recurringPrice: (thousandths: Int64, currency: String)?
  /// Whether `prepaidPlan` is present.
  var isPrepaid: Bool
  /// `deferredItemReplacement.productId`: the product that replaces this one at its renewal.
  var deferredReplacementProductID: String? = nil
  /// `autoRenewingPlan.installmentDetails`: the payments an installment plan commits to, first
  /// and on renewal (fixed for the plan, unlike `remainingCommittedPaymentsCount`).
  var installments: (initial: Int64?, subsequent: Int64?)? = nil
  /// `autoRenewingPlan.priceChangeDetails`: a price change announced for this item.
  var priceChange: GooglePlayPriceChange? = nil
  /// `autoRenewingPlan.priceStepUpConsentDetails`: a price step-up that needs consent.
  var priceStepUp: GooglePlayPriceStepUp? = nil
}

/// `autoRenewingPlan.priceStepUpConsentDetails` of a line item: a price step-up that needs the
/// customer's consent (notified by `SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED`).
struct GooglePlayPriceStepUp {
  /// `state` raw (`PENDING` not yet consented, `CONFIRMED`, `COMPLETED`).
  var state: String?
  /// `consentDeadlineTime`: Google cancels the subscription when consent has not come by then.
  var deadline: Timestamp?

  /// How the summary names it: `PRICE_STEP_UP` and the state.
  var summaryKey: String { "PRICE_STEP_UP " + (state ?? "STATE_UNSPECIFIED") }
}

/// `autoRenewingPlan.priceChangeDetails` of a line item: a snapshot of a price change, whose
/// state changes while the customer decides (Docs/import-googleplay.md, "Price increases").
struct GooglePlayPriceChange {
  /// `priceChangeMode` raw (`PRICE_INCREASE` needs consent, `OPT_OUT_PRICE_INCREASE`,
  /// `PRICE_DECREASE`).
  var mode: String?
  /// `priceChangeState` raw (`OUTSTANDING` awaiting consent, `CONFIRMED`, `APPLIED`, `CANCELED`).
  var state: String?
  /// `newPrice` in thousandths of its currency.
  var newPrice: (thousandths: Int64, currency: String)?
  /// `expectedNewPriceChargeTime`: the renewal that will charge the new price.
  var expectedChargeTime: Timestamp?

  /// How the summary names it: mode and state.
  var summaryKey: String {
    (mode ?? "PRICE_CHANGE_MODE_UNSPECIFIED") + " " + (state ?? "PRICE_CHANGE_STATE_UNSPECIFIED")
  }
}

/// A stored `purchases.subscriptionsv2.get` result: `{"packageName", "purchaseToken",
/// "subscriptionPurchaseV2"}` (the resource itself does not carry its token).
struct GooglePlaySubscriptionPayload {
  /// Input line of the document.
  var line: Int
  /// Where the resource sits, e.g. `subscriptionPurchaseV2`.
  var path: String
  /// `purchaseToken` of the envelope.
  var token: String
  /// `startTime`: when the subscription (this token) was granted.
  var startTime: Timestamp?
  /// `subscriptionState` raw value.
  var state: String?
  /// `linkedPurchaseToken`: the token this one replaces (upgrade, downgrade, resubscribe).
  var linkedToken: String?
  /// `lineItems`.
  var lineItems: [GooglePlayLineItem]
  /// Whether `testPurchase` is present (a license tester's purchase).
  var isTest: Bool
  /// `externalAccountIdentifiers.obfuscatedExternalAccountId`.
  var accountID: String?
  /// The member of `canceledStateContext`, raw.
  var cancellation: String?
  /// `canceledStateContext.userInitiatedCancellation.cancelTime`.
  var cancelTime: Timestamp?
  /// `…userInitiatedCancellation.cancelSurveyResult.reason`: why the user canceled.
  var cancelSurveyReason: String? = nil
  /// `pausedStateContext.autoResumeTime`.
  var autoResumeTime: Timestamp?
  /// `regionCode`: the buyer's ISO 3166-1 alpha-2 country when the subscription was granted.
  var regionCode: String? = nil
  /// `acknowledgementState` raw (`ACKNOWLEDGEMENT_STATE_PENDING`, `…_ACKNOWLEDGED`).
  var acknowledgementState: String? = nil
  /// When the resource was fetched: the stored wrapper's `fetchTime`; nil when absent (the
  /// import's clock is used).
  var knownAt: Timestamp?

  /// The parsed state; nil for an absent or unknown value.
  var knownState: GooglePlaySubscriptionState? { state.flatMap(GooglePlaySubscriptionState.init) }
  /// Whether `signupPromotion` is present: a promotion (a promo code) applied at signup.
  var hasSignupPromotion = false
  /// `outOfAppPurchaseContext.expiredPurchaseToken`: the expired purchase a Play Store
  /// resubscription (no `linkedPurchaseToken`) comes back from.
  var expiredToken: String? = nil
  /// `outOfAppPurchaseContext.expiredExternalAccountIdentifiers.obfuscatedExternalAccountId`.
  var expiredAccountID: String? = nil
  /// Whether this stands for orders the ledger already holds (`LedgerKnowledge`), so that
  /// notifications about a known token are attributed to them; it charges nothing.
  var isFromLedger = false
  /// For one line item of a subscription with add-ons (several line items): its product id,
  /// which keys it as a subscription of its own; nil for a single-item resource.
  var addOnProduct: String?

  /// Whether this is one line item of a subscription with add-ons.
  var isAddOnItem: Bool { addOnProduct != nil }
  /// The subscription key: the token, or `<token>#<productId>` for an add-on line item.
  var key: String { addOnProduct.map { token + "#" + $0 } ?? token }
  /// What a line item's transaction adds to its order id: `#<productId>` for an add-on line
  /// item (the items of one order are charged separately, each once), else nothing.
  var transactionSuffix: String { addOnProduct.map { "#" + $0 } ?? "" }
  /// The key of the token this one replaces, for the same line item.
  var linkedKey: String? { linkedToken.map { link in addOnProduct.map { link + "#" + $0 } ?? link } }

  /// The resource split by line item: itself when it has one, else one copy per line item,
  /// each keyed by its product (Docs/import-googleplay.md, "Add-ons").
  func items() -> [GooglePlaySubscriptionPayload] {
    guard lineItems.count > 1 else { return [self] }
    return lineItems.map { item in
      var copy = self
      copy.lineItems = [item]
      copy.addOnProduct = item.productID
      return copy
    }
  }
}

/// A stored `purchases.products.get` result: `{"packageName", "purchaseToken", "productId",
/// "productPurchase"}`.
struct GooglePlayProductPayload {
  /// Input line of the document.
  var line: Int
  /// Where the resource sits, e.g. `productPurchase`.
  var path: String
  /// `purchaseToken`.
  var token: String
  /// `productId` of the envelope (or the resource's own).
  var productID: String
  /// `purchaseTimeMillis`.
  var purchaseTime: Timestamp
  /// `purchaseState`: 0 purchased, 1 canceled, 2 pending.
  var state: Int64?
  /// `orderId`; promotional purchases may have none.
  var orderID: String?
  /// `quantity` (default 1).
  var quantity: Int64?
  /// `purchaseType`: 0 test, 1 promo, 2 rewarded; absent for a normal purchase.
  var purchaseType: Int64?
  /// `obfuscatedExternalAccountId`.
  var accountID: String?
  /// The stored wrapper's `fetchTime`; nil when absent.
  var knownAt: Timestamp?
  /// The field that marks a test purchase, for messages (`purchaseType`, `testPurchaseContext`).
  var testField: String? = nil
  /// A line item of a `ProductPurchaseV2` (`GooglePlayDocuments+ProductV2.swift`); nil for a
  /// `ProductPurchase`.
  var v2: GooglePlayProductV2Details? = nil

  /// The transaction of its charge: the order id (`#<productId>` added for one of several line
  /// items), else the token.
  var transaction: String {
    guard let orderID else { return token }
    return orderID + (v2?.transactionSuffix(productID: productID) ?? "")
  }
}

/// A voided purchase: an element of a `voidedpurchases.list` response, or a
/// `voidedPurchaseNotification` (then `voidedTime` is the notification's event time).
struct GooglePlayVoidedPayload {
  /// Input line of the document.
  var line: Int
  /// Where it sits, e.g. `voidedPurchases[2]`.
  var path: String
  /// `purchaseToken`.
  var token: String
  /// `orderId`.
  var orderID: String
  /// `voidedTimeMillis` (or the notification's `eventTimeMillis`).
  var voidedTime: Timestamp
  /// `voidedReason` raw value.
  var reason: Int64?
  /// `voidedSource` raw value.
  var source: Int64?
  /// `refundType`: 1 full, 2 quantity-based partial.
  var refundType: Int64?
  /// `voidedQuantity` of a partial refund.
  var voidedQuantity: Int64?
  /// Whether it came from a notification rather than the list (the list's time is exact).
  var isFromNotification: Bool
  /// When it was learned: the list response's (or entry's) `fetchTime`, a notification's
  /// `publishTime`; nil when absent.
  var knownAt: Timestamp?
}

/// A payload found in a Google Play import input.
enum GooglePlayPayload {
  /// A real-time developer notification.
  case notification(GooglePlayNotificationPayload)
  /// A stored subscription resource.
  case subscription(GooglePlaySubscriptionPayload)
  /// A stored one-time product resource.
  case product(GooglePlayProductPayload)
  /// A voided purchase of a list response.
  case voided(GooglePlayVoidedPayload)
  /// An order (`orders.get`, an element of `orders.batchget`).
  case order(GooglePlayOrderPayload)
  /// A subscription's base plans (`monetization.subscriptions`): about no purchase.
  case plans(GooglePlayPlansPayload)
}

extension GooglePlayPayload {
  /// Input line of the document.
  var line: Int {
    switch self {
    case .notification(let payload): payload.line
    case .subscription(let payload): payload.line
    case .product(let payload): payload.line
    case .voided(let payload): payload.line
    case .order(let payload): payload.line
    case .plans(let payload): payload.line
    }
  }

  /// The purchase tokens the payload is about (none for a test notification).
  var ownTokens: [String] {
    switch self {
    case .notification(let payload):
      switch payload.body {
      case .subscription(_, let token), .oneTime(_, let token, _): [token]
      case .voided(let entry): [entry.token]
      case .refundReview(let token, _, _): [token]
      case .test, .other: []
      }
    // A resubscription is kept under its expired token too, so that the expired purchase,
    // imported later, finds it.
    case .subscription(let payload): [payload.token] + (payload.expiredToken.map { [$0] } ?? [])
    case .product(let payload): [payload.token]
    case .voided(let payload): [payload.token]
    case .order(let payload): [payload.token]
    case .plans: []
    }
  }

  /// Its own tokens and the token a subscription resource says it replaces.
  var tokens: [String] {
    guard case .subscription(let payload) = self, let link = payload.linkedToken else {
      return ownTokens
    }
    return ownTokens + [link]
  }
}
