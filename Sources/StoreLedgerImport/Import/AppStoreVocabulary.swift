import StoreLedgerCore

/// `notificationType` values of App Store Server Notifications V2 known to this importer.
///
/// A value Apple adds later is not an error: it is kept raw, counted and reported as a warning.
enum AppStoreNotificationType: String, CaseIterable {
  case subscribed = "SUBSCRIBED"
  case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
  case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
  case offerRedeemed = "OFFER_REDEEMED"
  case didRenew = "DID_RENEW"
  case expired = "EXPIRED"
  case didFailToRenew = "DID_FAIL_TO_RENEW"
  case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
  case priceIncrease = "PRICE_INCREASE"
  case refund = "REFUND"
  case refundDeclined = "REFUND_DECLINED"
  case consumptionRequest = "CONSUMPTION_REQUEST"
  case renewalExtended = "RENEWAL_EXTENDED"
  case revoke = "REVOKE"
  case test = "TEST"
  case renewalExtension = "RENEWAL_EXTENSION"
  case refundReversed = "REFUND_REVERSED"
  case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
  case oneTimeCharge = "ONE_TIME_CHARGE"
  case rescindConsent = "RESCIND_CONSENT"
  case metadataUpdate = "METADATA_UPDATE"
  case migration = "MIGRATION"
  case priceChange = "PRICE_CHANGE"
}

/// `subtype` values of App Store Server Notifications V2 known to this importer.
enum AppStoreSubtype: String, CaseIterable {
  case initialBuy = "INITIAL_BUY"
  case resubscribe = "RESUBSCRIBE"
  case downgrade = "DOWNGRADE"
  case upgrade = "UPGRADE"
  case autoRenewEnabled = "AUTO_RENEW_ENABLED"
  case autoRenewDisabled = "AUTO_RENEW_DISABLED"
  case voluntary = "VOLUNTARY"
  case billingRetry = "BILLING_RETRY"
  case priceIncrease = "PRICE_INCREASE"
  case gracePeriod = "GRACE_PERIOD"
  case pending = "PENDING"
  case accepted = "ACCEPTED"
  case billingRecovery = "BILLING_RECOVERY"
  case productNotForSale = "PRODUCT_NOT_FOR_SALE"
  case summary = "SUMMARY"
  case failure = "FAILURE"
  case unreported = "UNREPORTED"
}

/// The `environment` values Apple writes; only `Production` is imported by default.
enum AppStoreEnvironment {
  /// The live App Store.
  static let production = "Production"
  /// StoreKit Testing in Xcode: signed by Xcode's own certificate (`kid: Apple_Xcode_Key`),
  /// which chains to no Apple root.
  static let xcode = "Xcode"
  /// Every value Apple documents (`LocalTesting` appears only in Apple's library tests).
  static let known: Set<String> = ["Production", "Sandbox", "Xcode", "LocalTesting"]
}

/// Apple's `type` of a transaction and the catalog kind it corresponds to.
enum AppStoreProductType {
  /// The catalog kind for Apple's `type` raw value, or nil for a value Apple added later.
  static func kind(_ raw: String) -> ProductKind? {
    switch raw {
    case "Auto-Renewable Subscription": return .autoRenewable
    case "Non-Renewing Subscription": return .nonRenewing
    case "Non-Consumable": return .nonConsumable
    case "Consumable": return .consumable
    default: return nil
    }
  }
}

/// `data.status` of a notification or a subscription-status entry (Apple's `Status`).
enum AppStoreSubscriptionStatus: Int64 {
  case active = 1
  case expired = 2
  case billingRetry = 3
  case billingGracePeriod = 4
  case revoked = 5
}

/// Apple's `expirationIntent` (renewal info) as a ledger expiration reason.
enum AppStoreExpirationIntent {
  /// The reason for an `expirationIntent` value, or nil for a value Apple added later.
  static func reason(_ raw: Int64) -> ExpirationReason? {
    switch raw {
    case 1: return .voluntary
    case 2: return .billing
    case 3: return .priceIncrease
    case 4: return .productUnavailable
    case 5: return .other
    default: return nil
    }
  }
}
