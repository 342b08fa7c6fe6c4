import Testing

/// One base plan: its id, its plan type member (nil: none) and `billingPeriodDuration`.
package struct GooglePlayBasePlan {
  package var id: String
  package var type: String? = "autoRenewingBasePlanType"
  package var period: String? = nil

  package init(id: String, type: String? = "autoRenewingBasePlanType", period: String? = nil) {
    self.id = id
    self.type = type
    self.period = period
  }

  package var json: String {
    var fields = #""basePlanId":"\#(id)","state":"ACTIVE""#
    if let type {
      let duration = period.map { #""billingPeriodDuration":"\#($0)","# } ?? ""
      fields += #","\#(type)":{\#(duration)"legacyCompatible":true}"#
    }
    fields += #","regionalConfigs":[{"regionCode":"US","newSubscriberAvailability":true,"price":{"currencyCode":"USD","units":"4","nanos":990000000}}]"#
    return "{" + fields + "}"
  }
}

/// A malformed monetization document and the error it draws.
package struct MalformedPlanDocument: CustomTestStringConvertible, Sendable {
  package var document: String
  package var error: String

  package init(document: String, error: String) {
    self.document = document
    self.error = error
  }

  package var testDescription: String { error }
}

/// Monetization documents (`monetization.subscriptions`) for the Google Play catalog tests, in
/// process and on the command line.
package protocol GooglePlayPlanDocuments {}

extension GooglePlayPlanDocuments {
  package typealias BasePlan = GooglePlayBasePlan
  package typealias Malformed = MalformedPlanDocument

  /// A `monetization.subscriptions.get` response.
  package static func plans(_ basePlans: [BasePlan], subscription: String = "pro") -> String {
    #"{"packageName":"com.example.app","productId":"\#(subscription)","basePlans":[\#(basePlans.map(\.json).joined(separator: ","))],"listings":[{"languageCode":"en-US","title":"Pro"}]}"#
  }

  package static var malformed: [Malformed] {
    [
      Malformed(
        document: plans([BasePlan(id: "monthly", period: "monthly")]),
        error: #"input.jsonl:1: error: field 'basePlans[0].autoRenewingBasePlanType.billingPeriodDuration': expected an ISO 8601 duration such as P1M or P1Y, found "monthly""#),
      Malformed(
        document: plans([BasePlan(id: "monthly", period: "P0M")]),
        error: #"input.jsonl:1: error: field 'basePlans[0].autoRenewingBasePlanType.billingPeriodDuration': expected an ISO 8601 duration such as P1M or P1Y, found "P0M""#),
      Malformed(
        document: #"{"productId":"pro","basePlans":[{"basePlanId":"monthly","autoRenewingBasePlanType":{"billingPeriodDuration":1}}]}"#,
        error: "input.jsonl:1: error: field 'basePlans[0].autoRenewingBasePlanType.billingPeriodDuration': expected a string, found a number"),
      Malformed(
        document: #"{"productId":"pro","basePlans":[{"autoRenewingBasePlanType":{"billingPeriodDuration":"P1M"}}]}"#,
        error: "input.jsonl:1: error: field 'basePlans[0].basePlanId' is missing; it is required in a base plan"),
      Malformed(
        document: #"{"productId":"pro","basePlans":{"basePlanId":"monthly"}}"#,
        error: "input.jsonl:1: error: field 'basePlans': expected an array, found an object"),
      Malformed(
        document: #"{"productId":"pro","basePlans":["monthly"]}"#,
        error: "input.jsonl:1: error: field 'basePlans[0]': expected an object, found a string"),
      Malformed(
        document: #"{"basePlans":[]}"#,
        error: "input.jsonl:1: error: field 'productId' is missing; it is required in a monetization.subscriptions document"),
      Malformed(
        document: #"{"productId":"pro","basePlans":[{"basePlanId":"m","autoRenewingBasePlanType":{"billingPeriodDuration":"P1M"},"prepaidBasePlanType":{"billingPeriodDuration":"P1M"}}]}"#,
        error: "input.jsonl:1: error: field 'basePlans[0].prepaidBasePlanType': a base plan has one plan type, but it also has autoRenewingBasePlanType"),
      Malformed(
        document: #"{"subscriptions":[7]}"#,
        error: "input.jsonl:1: error: field 'subscriptions[0]': expected an object, found a number"),
    ]
  }
}
