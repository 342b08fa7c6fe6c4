import StoreLedgerCore

/// `subscriptionNotification.notificationType` values of Google Play's real-time developer
/// notifications known to this importer (Docs/import-googleplay.md has the mapping of each).
///
/// A value Google adds later is not an error: it is counted, kept raw and warned about.
enum GooglePlaySubscriptionNotificationType: Int64, CaseIterable {
  case recovered = 1
  case renewed = 2
  case canceled = 3
  case purchased = 4
  case onHold = 5
  case inGracePeriod = 6
  case restarted = 7
  case priceChangeConfirmed = 8
  case deferred = 9
  case paused = 10
  case pauseScheduleChanged = 11
  case revoked = 12
  case expired = 13
  case itemsChanged = 17
  case cancellationScheduled = 18
  case priceChangeUpdated = 19
  case pendingPurchaseCanceled = 20
  case priceStepUpConsentUpdated = 22

  /// Google's name, used in `meta`, `skipped` and messages.
  var name: String {
    switch self {
    case .recovered: return "SUBSCRIPTION_RECOVERED"
    case .renewed: return "SUBSCRIPTION_RENEWED"
    case .canceled: return "SUBSCRIPTION_CANCELED"
    case .purchased: return "SUBSCRIPTION_PURCHASED"
    case .onHold: return "SUBSCRIPTION_ON_HOLD"
    case .inGracePeriod: return "SUBSCRIPTION_IN_GRACE_PERIOD"
    case .restarted: return "SUBSCRIPTION_RESTARTED"
    case .priceChangeConfirmed: return "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED"
    case .deferred: return "SUBSCRIPTION_DEFERRED"
    case .paused: return "SUBSCRIPTION_PAUSED"
    case .pauseScheduleChanged: return "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED"
    case .revoked: return "SUBSCRIPTION_REVOKED"
    case .expired: return "SUBSCRIPTION_EXPIRED"
    case .itemsChanged: return "SUBSCRIPTION_ITEMS_CHANGED"
    case .cancellationScheduled: return "SUBSCRIPTION_CANCELLATION_SCHEDULED"
    case .priceChangeUpdated: return "SUBSCRIPTION_PRICE_CHANGE_UPDATED"
    case .pendingPurchaseCanceled: return "SUBSCRIPTION_PENDING_PURCHASE_CANCELED"
    case .priceStepUpConsentUpdated: return "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED"
    }
  }

  /// Whether the notification reports a successful charge (a new order): its time is when
  /// that order's period began.
  var isCharge: Bool { self == .purchased || self == .renewed || self == .recovered }
}

/// `oneTimeProductNotification.notificationType` values.
enum GooglePlayOneTimeNotificationType: Int64 {
  case purchased = 1
  case canceled = 2

  /// Google's name.
  var name: String {
    self == .purchased ? "ONE_TIME_PRODUCT_PURCHASED" : "ONE_TIME_PRODUCT_CANCELED"
  }
}

/// `SubscriptionPurchaseV2.subscriptionState` values.
enum GooglePlaySubscriptionState: String {
  case unspecified = "SUBSCRIPTION_STATE_UNSPECIFIED"
  case pending = "SUBSCRIPTION_STATE_PENDING"
  case active = "SUBSCRIPTION_STATE_ACTIVE"
  case paused = "SUBSCRIPTION_STATE_PAUSED"
  case inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
  case onHold = "SUBSCRIPTION_STATE_ON_HOLD"
  case canceled = "SUBSCRIPTION_STATE_CANCELED"
  case expired = "SUBSCRIPTION_STATE_EXPIRED"
  case pendingPurchaseCanceled = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"

  /// Whether a line item's `expiryTime` in this state is not the end of the paid period:
  /// in grace Google moves it to the end of the grace period, on hold it is in the past.
  var hasBillingProblem: Bool { self == .inGracePeriod || self == .onHold }
}

/// How a subscription was canceled (`canceledStateContext`'s member).
enum GooglePlayCancellation: String {
  case user = "userInitiatedCancellation"
  case system = "systemInitiatedCancellation"
  case developer = "developerInitiatedCancellation"
  case replacement = "replacementCancellation"

  /// The ledger's expiration reason for a subscription canceled this way.
  var expirationReason: ExpirationReason {
    switch self {
    case .user: return .voluntary
    case .system: return .billing
    case .developer, .replacement: return .other
    }
  }
}

/// `productPurchase.purchaseState` values (purchases.products).
enum GooglePlayProductPurchaseState: Int64 {
  case purchased = 0
  case canceled = 1
  case pending = 2
}

/// Enum values of voided purchases that this importer names in messages and meta.
enum GooglePlayVoided {
  /// `voidedReason` names (voidedpurchases.list), kept in `meta.voidedReason`.
  static func reasonName(_ raw: Int64) -> String? {
    let names = [
      "other", "remorse", "not_received", "defective", "accidental_purchase", "fraud",
      "friendly_fraud", "chargeback", "unacknowledged_purchase",
    ]
    return raw >= 0 && raw < Int64(names.count) ? names[Int(raw)] : nil
  }

  /// `voidedSource` names.
  static func sourceName(_ raw: Int64) -> String? {
    let names = ["user", "developer", "google"]
    return raw >= 0 && raw < Int64(names.count) ? names[Int(raw)] : nil
  }

  /// `refundType` 2: a quantity-based partial refund.
  static let partialRefundType: Int64 = 2
}

/// The `meta.environment` values of Google Play events.
enum GooglePlayEnvironment {
  /// Real purchases.
  static let production = "production"
  /// License testers' purchases (`testPurchase`, `purchaseType` 0).
  static let test = "test"
}
