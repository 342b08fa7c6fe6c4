
@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A transaction written the way Apple writes `JWSTransactionDecodedPayload` (dates in epoch
/// milliseconds, ids as strings), for the lifecycle tests.
package struct AppleTransaction {
  package var transactionId: String
  package var originalTransactionId: String
  package var productId: String
  package var purchaseDate: String
  package var expiresDate: String?
  package var signedDate: String
  package var type = "Auto-Renewable Subscription"
  package var subscriptionGroupIdentifier: String? = "pro"
  package var transactionReason: String? = "PURCHASE"
  package var appAccountToken: String?
  package var inAppOwnershipType = "PURCHASED"
  package var price: Int64? = 9990
  package var currency: String? = "USD"
  package var offerType: Int64?
  package var offerDiscountType: String?
  package var revocationDate: String?
  package var revocationReason: Int64?
  package var revocationType: String?
  package var environment = "Production"
  package var quantity: Int64 = 1
  package var revocationPercentage: Int64?
  package var storefront = "USA"
  package var appTransactionId: String? = "704"

  package init(
    transactionId: String,
    originalTransactionId: String,
    productId: String,
    purchaseDate: String,
    expiresDate: String? = nil,
    signedDate: String,
    type: String = "Auto-Renewable Subscription",
    subscriptionGroupIdentifier: String? = "pro",
    transactionReason: String? = "PURCHASE",
    appAccountToken: String? = nil,
    inAppOwnershipType: String = "PURCHASED",
    price: Int64? = 9990,
    currency: String? = "USD",
    offerType: Int64? = nil,
    offerDiscountType: String? = nil,
    revocationDate: String? = nil,
    revocationReason: Int64? = nil,
    revocationType: String? = nil,
    environment: String = "Production",
    quantity: Int64 = 1,
    revocationPercentage: Int64? = nil,
    storefront: String = "USA",
    appTransactionId: String? = "704"
  ) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.purchaseDate = purchaseDate
    self.expiresDate = expiresDate
    self.signedDate = signedDate
    self.type = type
    self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    self.transactionReason = transactionReason
    self.appAccountToken = appAccountToken
    self.inAppOwnershipType = inAppOwnershipType
    self.price = price
    self.currency = currency
    self.offerType = offerType
    self.offerDiscountType = offerDiscountType
    self.revocationDate = revocationDate
    self.revocationReason = revocationReason
    self.revocationType = revocationType
    self.environment = environment
    self.quantity = quantity
    self.revocationPercentage = revocationPercentage
    self.storefront = storefront
    self.appTransactionId = appTransactionId
  }

  /// The decoded payload as compact JSON.
  package var json: String {
    var members: [(String, JSONValue)] = [
      ("transactionId", .string(transactionId)),
      ("originalTransactionId", .string(originalTransactionId)),
      ("webOrderLineItemId", .string("9" + transactionId)),
      ("bundleId", .string("com.example.app")), ("productId", .string(productId)),
      ("purchaseDate", .integer(ImportFixtures.ms(purchaseDate))),
      ("originalPurchaseDate", .integer(ImportFixtures.ms(purchaseDate))),
      ("quantity", .integer(quantity)), ("type", .string(type)),
      ("inAppOwnershipType", .string(inAppOwnershipType)),
      ("signedDate", .integer(ImportFixtures.ms(signedDate))),
      ("environment", .string(environment)), ("storefront", .string(storefront)),
      ("storefrontId", .string("143441")),
    ]
    if let appTransactionId { members.append(("appTransactionId", .string(appTransactionId))) }
    if let subscriptionGroupIdentifier, type == "Auto-Renewable Subscription" {
      members.append(("subscriptionGroupIdentifier", .string(subscriptionGroupIdentifier)))
    }
    if let expiresDate { members.append(("expiresDate", .integer(ImportFixtures.ms(expiresDate)))) }
    if let transactionReason { members.append(("transactionReason", .string(transactionReason))) }
    if let appAccountToken { members.append(("appAccountToken", .string(appAccountToken))) }
    if let price { members.append(("price", .integer(price))) }
    if let currency { members.append(("currency", .string(currency))) }
    if let offerType { members.append(("offerType", .integer(offerType))) }
    if let offerDiscountType { members.append(("offerDiscountType", .string(offerDiscountType))) }
    if let revocationDate {
      members.append(("revocationDate", .integer(ImportFixtures.ms(revocationDate))))
    }
    if let revocationReason { members.append(("revocationReason", .integer(revocationReason))) }
    if let revocationType { members.append(("revocationType", .string(revocationType))) }
    if let revocationPercentage {
      members.append(("revocationPercentage", .integer(revocationPercentage)))
    }
    return JSONWriter.compact(.object(members))
  }

  /// A copy re-signed at another time (Apple re-signs a transaction in every payload).
  package func signed(at date: String) -> AppleTransaction {
    var copy = self
    copy.signedDate = date
    return copy
  }
}

/// Renewal info written the way Apple writes `JWSRenewalInfoDecodedPayload`.
package struct AppleRenewalInfo {
  package var originalTransactionId: String
  package var productId: String
  package var autoRenewProductId: String
  package var autoRenewStatus: Int64 = 1
  package var signedDate: String
  package var gracePeriodExpiresDate: String?
  package var expirationIntent: Int64?
  package var renewalDate: String?
  package var environment = "Production"
  /// `priceIncreaseStatus`: 0 awaiting consent, 1 accepted; absent without a price increase.
  package var priceIncreaseStatus: Int64? = nil
  /// `renewalPrice` (milliunits) with `currency`.
  package var renewalPrice: (Int64, String)? = nil

  package init(
    originalTransactionId: String,
    productId: String,
    autoRenewProductId: String,
    autoRenewStatus: Int64 = 1,
    signedDate: String,
    gracePeriodExpiresDate: String? = nil,
    expirationIntent: Int64? = nil,
    renewalDate: String? = nil,
    environment: String = "Production",
    priceIncreaseStatus: Int64? = nil,
    renewalPrice: (Int64, String)? = nil
  ) {
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.autoRenewProductId = autoRenewProductId
    self.autoRenewStatus = autoRenewStatus
    self.signedDate = signedDate
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.expirationIntent = expirationIntent
    self.renewalDate = renewalDate
    self.environment = environment
    self.priceIncreaseStatus = priceIncreaseStatus
    self.renewalPrice = renewalPrice
  }

  /// The decoded payload as compact JSON.
  package var json: String {
    var members: [(String, JSONValue)] = [
      ("originalTransactionId", .string(originalTransactionId)),
      ("productId", .string(productId)), ("autoRenewProductId", .string(autoRenewProductId)),
      ("autoRenewStatus", .integer(autoRenewStatus)),
      ("signedDate", .integer(ImportFixtures.ms(signedDate))),
      ("environment", .string(environment)),
      ("isInBillingRetryPeriod", .bool(gracePeriodExpiresDate != nil)),
    ]
    if let gracePeriodExpiresDate {
      members.append(
        ("gracePeriodExpiresDate", .integer(ImportFixtures.ms(gracePeriodExpiresDate))))
    }
    if let expirationIntent { members.append(("expirationIntent", .integer(expirationIntent))) }
    if let renewalDate { members.append(("renewalDate", .integer(ImportFixtures.ms(renewalDate)))) }
    if let priceIncreaseStatus { members.append(("priceIncreaseStatus", .integer(priceIncreaseStatus))) }
    if let renewalPrice {
      members += [("renewalPrice", .integer(renewalPrice.0)), ("currency", .string(renewalPrice.1))]
    }
    return JSONWriter.compact(.object(members))
  }
}

/// A V2 notification written the way Apple sends it.
package struct AppleNotification {
  package var notificationType: String
  package var subtype: String?
  package var notificationUUID: String
  package var signedDate: String
  package var transaction: AppleTransaction?
  package var renewalInfo: AppleRenewalInfo?
  package var status: Int64 = 1
  package var environment = "Production"
  package var consumptionRequestReason: String? = nil

  package init(
    notificationType: String,
    subtype: String? = nil,
    notificationUUID: String,
    signedDate: String,
    transaction: AppleTransaction? = nil,
    renewalInfo: AppleRenewalInfo? = nil,
    status: Int64 = 1,
    environment: String = "Production",
    consumptionRequestReason: String? = nil
  ) {
    self.notificationType = notificationType
    self.subtype = subtype
    self.notificationUUID = notificationUUID
    self.signedDate = signedDate
    self.transaction = transaction
    self.renewalInfo = renewalInfo
    self.status = status
    self.environment = environment
    self.consumptionRequestReason = consumptionRequestReason
  }

  /// The decoded `ResponseBodyV2DecodedPayload`, nested JWS still signed.
  package var decoded: String {
    var data: [(String, JSONValue)] = [
      ("environment", .string(environment)), ("appAppleId", .integer(1_234_567_890)),
      ("bundleId", .string("com.example.app")), ("bundleVersion", .string("1.0")),
      ("status", .integer(status)),
    ]
    if let consumptionRequestReason {
      data.append(("consumptionRequestReason", .string(consumptionRequestReason)))
    }
    if let transaction {
      data.append(("signedTransactionInfo", .string(ImportFixtures.jws(transaction.json))))
    }
    if let renewalInfo {
      data.append(("signedRenewalInfo", .string(ImportFixtures.jws(renewalInfo.json))))
    }
    var members: [(String, JSONValue)] = [
      ("notificationType", .string(notificationType)),
      ("notificationUUID", .string(notificationUUID)), ("data", .object(data)),
      ("version", .string("2.0")), ("signedDate", .integer(ImportFixtures.ms(signedDate))),
    ]
    if let subtype { members.append(("subtype", .string(subtype))) }
    return JSONWriter.compact(.object(members))
  }

  /// The HTTP body Apple posts: `{"signedPayload": "<JWS>"}`.
  package var signedBody: String {
    JSONWriter.compact(.object([("signedPayload", .string(ImportFixtures.jws(decoded)))]))
  }
}
