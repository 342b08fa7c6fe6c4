import StoreLedgerCore

/// The fields of a `JWSTransactionDecodedPayload` (also StoreKit 2's `jsonRepresentation`)
/// that the importer uses.
///
/// Only fields that never change for a transaction feed its purchase or renewal event:
/// `signedDate`, `isUpgraded` and the revocation fields change between copies of the same
/// transaction, so they are read separately and kept out of those events.
struct TransactionPayload {
  /// Input line of the document that carried it.
  var line: Int
  /// Where it sits in the document, e.g. `data.signedTransactionInfo` (empty at top level).
  var path: String
  /// `transactionId`.
  var transactionID: String
  /// `originalTransactionId`.
  var originalTransactionID: String
  /// `productId`.
  var productID: String
  /// `purchaseDate`: when the App Store charged (purchase, renewal, upgrade).
  var purchaseDate: Timestamp
  /// `expiresDate` (auto-renewables).
  var expiresDate: Timestamp?
  /// `signedDate`: when Apple signed this copy.
  var signedDate: Timestamp?
  /// `quantity` (consumables).
  var quantity: Int64?
  /// `type` raw value.
  var productType: String?
  /// `subscriptionGroupIdentifier`.
  var subscriptionGroupID: String?
  /// `appAccountToken`.
  var appAccountToken: String?
  /// `inAppOwnershipType` raw value.
  var ownership: String?
  /// `offerType` raw value.
  var offerType: Int64?
  /// `offerDiscountType` raw value.
  var offerDiscountType: String?
  /// `price` in milliunits.
  var price: Int64?
  /// `currency` (ISO 4217).
  var currency: String?
  /// `environment`, or the enclosing document's when the payload has none.
  var environment: String?
  /// `transactionReason` raw value.
  var transactionReason: String?
  /// `revocationDate`.
  var revocationDate: Timestamp?
  /// `revocationReason` raw value.
  var revocationReason: Int64?
  /// `revocationType` raw value.
  var revocationType: String?
  /// `revocationPercentage` in milliunits.
  var revocationPercentage: Int64?
  /// `storefront`: the App Store country (ISO 3166-1 alpha-3).
  var storefront: String? = nil
  /// `appTransactionId`: one per Apple Account and app (App Store Server API 1.15).
  var appTransactionID: String? = nil
  /// Its offer and plan (`TransactionPlanFacts.swift`).
  var plan = TransactionPlanFacts()

  /// Reads a transaction, reporting every missing or mistyped field; nil when any is wrong.
  static func read(
    _ object: PayloadObject, environment inherited: String?, _ problems: inout ImportProblems
  ) -> TransactionPayload? {
    let errorsBefore = problems.errors.count
    let why = "in a transaction"
    let transactionID = object.requiredString("transactionId", &problems, why: why)
    let originalTransactionID = object.requiredString("originalTransactionId", &problems, why: why)
    let productID = object.requiredString("productId", &problems, why: why)
    let purchaseDate = object.requiredTimestamp("purchaseDate", &problems, why: why)
    var payload = TransactionPayload(
      line: object.line, path: object.path,
      transactionID: transactionID ?? "", originalTransactionID: originalTransactionID ?? "",
      productID: productID ?? "",
      purchaseDate: purchaseDate ?? Timestamp(millisecondsSinceEpoch: 0),
      expiresDate: object.timestamp("expiresDate", &problems),
      signedDate: object.timestamp("signedDate", &problems),
      quantity: object.integer("quantity", &problems),
      productType: object.string("type", &problems),
      subscriptionGroupID: object.string("subscriptionGroupIdentifier", &problems),
      appAccountToken: object.string("appAccountToken", &problems),
      ownership: object.string("inAppOwnershipType", &problems),
      offerType: object.integer("offerType", &problems),
      offerDiscountType: object.string("offerDiscountType", &problems),
      price: object.integer("price", &problems),
      currency: object.string("currency", &problems),
      environment: object.string("environment", &problems) ?? inherited,
      transactionReason: object.string("transactionReason", &problems),
      revocationDate: object.timestamp("revocationDate", &problems),
      revocationReason: object.integer("revocationReason", &problems),
      revocationType: object.string("revocationType", &problems),
      revocationPercentage: object.integer("revocationPercentage", &problems),
      storefront: object.string("storefront", &problems),
      appTransactionID: object.string("appTransactionId", &problems))
    payload.plan = TransactionPlanFacts.read(object, &problems)
    return problems.errors.count == errorsBefore ? payload : nil
  }
}

/// The fields of a `JWSRenewalInfoDecodedPayload` that the importer uses.
struct RenewalInfoPayload {
  /// `originalTransactionId`.
  var originalTransactionID: String?
  /// `productId`: the current product.
  var productID: String?
  /// `autoRenewProductId`: the product of the next period (a pending downgrade shows here).
  var autoRenewProductID: String?
  /// `autoRenewStatus`: 1 on, 0 off.
  var autoRenewStatus: Int64?
  /// `expirationIntent`.
  var expirationIntent: Int64?
  /// `gracePeriodExpiresDate`.
  var gracePeriodExpiresDate: Timestamp?
  /// `renewalDate`: when the most recent period expires (moved by renewal extensions).
  var renewalDate: Timestamp?
  /// `signedDate`.
  var signedDate: Timestamp?
  /// `environment`, or the enclosing document's.
  var environment: String?
  /// `appAccountToken`.
  var appAccountToken: String?
  /// `priceIncreaseStatus`: present only while a price increase is announced; 0 the customer
  /// has not answered one that needs consent, 1 consented (or one that needs none was notified).
  var priceIncreaseStatus: Int64? = nil
  /// `renewalPrice` (thousandths of `currency`) and `currency`: what the next period charges.
  var renewalPrice: (thousandths: Int64, currency: String)? = nil

  /// Reads renewal info; nil when a field has the wrong type.
  static func read(
    _ object: PayloadObject, environment inherited: String?, _ problems: inout ImportProblems
  ) -> RenewalInfoPayload? {
    let errorsBefore = problems.errors.count
    let payload = RenewalInfoPayload(
      originalTransactionID: object.string("originalTransactionId", &problems),
      productID: object.string("productId", &problems),
      autoRenewProductID: object.string("autoRenewProductId", &problems),
      autoRenewStatus: object.integer("autoRenewStatus", &problems),
      expirationIntent: object.integer("expirationIntent", &problems),
      gracePeriodExpiresDate: object.timestamp("gracePeriodExpiresDate", &problems),
      renewalDate: object.timestamp("renewalDate", &problems),
      signedDate: object.timestamp("signedDate", &problems),
      environment: object.string("environment", &problems) ?? inherited,
      appAccountToken: object.string("appAccountToken", &problems))
    var withPrice = payload
    withPrice.priceIncreaseStatus = object.integer("priceIncreaseStatus", &problems)
    if let price = object.integer("renewalPrice", &problems), let currency = object.string("currency", &problems) {
      withPrice.renewalPrice = (price, currency)
    }
    return problems.errors.count == errorsBefore ? withPrice : nil
  }
}

/// The fields of a `ResponseBodyV2DecodedPayload` (a V2 notification) that the importer uses.
struct NotificationPayload {
  /// Input line of the document.
  var line: Int
  /// `notificationType` raw value.
  var type: String
  /// `subtype` raw value.
  var subtype: String?
  /// `notificationUUID`: the same for every retry of one notification.
  var uuid: String?
  /// `signedDate`: when Apple created the notification (kept by retries).
  var signedDate: Timestamp?
  /// `data.environment` (or `summary`'s, `appData`'s, or derived from an external token).
  var environment: String?
  /// Where `environment` was read, for messages.
  var environmentField = "data.environment"
  /// `data.status`.
  var status: Int64?
  /// `data.signedTransactionInfo`, decoded.
  var transaction: TransactionPayload?
  /// `data.signedRenewalInfo`, decoded.
  var renewalInfo: RenewalInfoPayload?
  /// `data.consumptionRequestReason` of a CONSUMPTION_REQUEST, raw.
  var consumptionReason: String? = nil
  /// `appTransactionId` of the app transaction a RESCIND_CONSENT carries
  /// (`appData.signedAppTransactionInfo`).
  var appTransactionID: String? = nil
}

/// One entry of a Get All Subscription Statuses response: the latest transaction of a
/// subscription, its renewal info and Apple's status as of the renewal info's `signedDate`.
struct SubscriptionStatusPayload {
  /// Input line of the document.
  var line: Int
  /// Where it sits, e.g. `data[0].lastTransactions[1]`.
  var path: String
  /// `status`.
  var status: Int64?
  /// `signedTransactionInfo`, decoded.
  var transaction: TransactionPayload
  /// `signedRenewalInfo`, decoded.
  var renewalInfo: RenewalInfoPayload?
}

/// A payload found in the input, after JWS decoding and shape detection.
enum AppStorePayload {
  /// A transaction on its own (StoreKit 2, transaction history, transaction info).
  case transaction(TransactionPayload)
  /// A V2 notification.
  case notification(NotificationPayload)
  /// An entry of a subscription-status response.
  case subscriptionStatus(SubscriptionStatusPayload)
  /// A payload that carries no purchase (renewal info alone, an app transaction): counted once
  /// per distinct content (`identity`).
  case ignored(kind: String, line: Int, environment: String?, identity: String)

  /// The input line.
  var line: Int {
    switch self {
    case .transaction(let payload): return payload.line
    case .notification(let payload): return payload.line
    case .subscriptionStatus(let payload): return payload.line
    case .ignored(_, let line, _, _): return line
    }
  }

  /// The payload's own environment (its transaction's for a status entry).
  var environment: String? {
    switch self {
    case .transaction(let payload): return payload.environment
    case .notification(let payload): return payload.environment ?? payload.transaction?.environment
    case .subscriptionStatus(let payload): return payload.transaction.environment
    case .ignored(_, _, let environment, _): return environment
    }
  }
}
