import StoreLedgerTestSupport

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A transaction written the way Apple writes `JWSTransactionDecodedPayload` (dates in epoch
/// milliseconds, ids as strings), for the lifecycle tests.
struct AppleTransaction {
  var transactionId: String
  var originalTransactionId: String
  var productId: String
  var purchaseDate: String
  var expiresDate: String?
  var signedDate: String
  var type = "Auto-Renewable Subscription"
  var subscriptionGroupIdentifier: String? = "pro"
  var transactionReason: String? = "PURCHASE"
  var appAccountToken: String?
  var inAppOwnershipType = "PURCHASED"
  var price: Int64? = 9990
  var currency: String? = "USD"
  var offerType: Int64?
  var offerDiscountType: String?
  var revocationDate: String?
  var revocationReason: Int64?
  var revocationType: String?
  var environment = "Production"
  var quantity: Int64 = 1
  var revocationPercentage: Int64?
  var storefront = "USA"
  var appTransactionId: String? = "704"

  /// The decoded payload as compact JSON.
  var json: String {
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
  func signed(at date: String) -> AppleTransaction {
    var copy = self
    copy.signedDate = date
    return copy
  }
}

/// Renewal info written the way Apple writes `JWSRenewalInfoDecodedPayload`.
struct AppleRenewalInfo {
  var originalTransactionId: String
  var productId: String
  var autoRenewProductId: String
  var autoRenewStatus: Int64 = 1
  var signedDate: String
  var gracePeriodExpiresDate: String?
  var expirationIntent: Int64?
  var renewalDate: String?
  var environment = "Production"
  /// `priceIncreaseStatus`: 0 awaiting consent, 1 accepted; absent without a price increase.
  var priceIncreaseStatus: Int64? = nil
  /// `renewalPrice` (milliunits) with `currency`.
  var renewalPrice: (Int64, String)? = nil

  /// The decoded payload as compact JSON.
  var json: String {
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
struct AppleNotification {
  var notificationType: String
  var subtype: String?
  var notificationUUID: String
  var signedDate: String
  var transaction: AppleTransaction?
  var renewalInfo: AppleRenewalInfo?
  var status: Int64 = 1
  var environment = "Production"
  var consumptionRequestReason: String? = nil

  /// The decoded `ResponseBodyV2DecodedPayload`, nested JWS still signed.
  var decoded: String {
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
  var signedBody: String {
    JSONWriter.compact(.object([("signedPayload", .string(ImportFixtures.jws(decoded)))]))
  }
}
