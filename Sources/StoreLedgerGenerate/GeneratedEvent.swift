import StoreLedger

/// One event produced by the simulation, before it is written as a line.
///
/// Flat and reference-free so that a batch of thousands lives in one array and
/// sorts cheaply by delivery; absent optional fields use sentinels (`Int64.min`
/// for instants, 0 for transactions and quantities, -1 for prices). The writer
/// emits exactly the fields that are present, so the simulation decides which
/// fields a line carries, within what Docs/log-format.md allows for its type.
struct GeneratedEvent {
  /// Effective time in milliseconds since the epoch.
  var at: Int64
  /// Knowledge time, written as `recorded`; `Int64.min` when absent (equal to `at`).
  var recordedAt: Int64 = .min
  /// When the line reaches the log; lines of a batch are written in this order.
  var deliveredAt: Int64
  /// `expires` (or `grace_expires` for `grace_entered`); `Int64.min` when absent.
  var expiresAt: Int64 = .min
  /// `price` in thousandths of the storefront currency; -1 when absent.
  var price: Int64 = -1
  /// `quantity`; 0 when absent (negative for a `usage` release).
  var quantity: Int64 = 0
  /// The event number that the id is derived from; redeliveries share it.
  var number: UInt64 = 0
  /// `transaction`; 0 when absent.
  var transaction: UInt64 = 0
  /// `original_transaction`; 0 when absent.
  var originalTransaction: UInt64 = 0
  /// The subject's index in `0..<options.subjects`.
  var subject: UInt32
  /// The event type.
  var kind: EventKind
  /// `product`, when present.
  var product: GeneratedProduct? = nil
  /// `feature` of a `usage` event.
  var feature: GeneratedFeature? = nil
  /// `offer`, when present.
  var offer: Offer? = nil
  /// `reason` of an expiration or revocation.
  var reason: GeneratedReason = .none
  /// Writes `"ownership":"family_shared"`.
  var isFamilyShared = false
  /// `auto_renew` of an `auto_renew_changed`.
  var autoRenew = false
  /// The storefront whose currency `price` is in, also named by `meta`.
  var storefront: Storefront = .usa
  /// Which `meta` object the line carries.
  var meta: GeneratedMeta = .none
  /// The app version named by an `sdk` meta object, as an index into `GeneratedMeta.appVersions`.
  var appVersion: UInt8 = 0
  /// Whether this line is a redelivery of an earlier line (same id, same fields).
  var isRedelivery = false

  // Contract v1.3 (written only in v1.3 logs).

  /// Whether it is a `transfer` (contract v1.3, section 9).
  var isTransfer: Bool { kind == .transfer }
  /// The subject a transfer moves its unit `to`.
  var toSubject: UInt32 = 0
  /// The event number of the grant a `grant_revoked` ends (written as that event's id).
  var grantNumber: UInt64? = nil
  /// `entitlements` of a `grant` or `block`; empty when absent.
  var entitlements: GeneratedEntitlements = []
  /// `service` of a `block` or `unblock`.
  var service: GeneratedService? = nil
  /// `revocation.refunded` in thousandths of the charge's currency; -1 when absent.
  var refunded: Int64 = -1
  /// `proceeds` of a charge in thousandths of its currency; -1 when absent.
  var proceeds: Int64 = -1
  /// `store` of a charge, when written.
  var store: GeneratedStore? = nil
  /// Writes `country`: the storefront's ISO 3166-1 alpha-2 code.
  var writesCountry = false

  /// An event of `kind` for `subject` at `at`, delivered immediately, with no optional fields.
  init(_ kind: EventKind, subject: UInt32, at: Int64) {
    self.kind = kind
    self.subject = subject
    self.at = at
    self.deliveredAt = at
  }
}

/// The `reason` values the generator writes.
enum GeneratedReason: UInt8 {
  case none
  case voluntary
  case billing
  case priceIncrease
  case refund
  case familyRevoked
  // Contract v1.3: refund request reasons, then free text of grants, blocks and their ends.
  case unintendedPurchase
  case fulfillmentIssue
  case unsatisfied
  case outageCredit
  case betaTester
  case retentionOffer
  case grantedByMistake
  case chargebackFiled
  case consentPending
  case cleared

  /// The value as written in the log.
  var text: StaticString {
    switch self {
    case .none: return ""
    case .voluntary: return "voluntary"
    case .billing: return "billing"
    case .priceIncrease: return "price_increase"
    case .refund: return "refund"
    case .familyRevoked: return "family_revoked"
    case .unintendedPurchase: return "unintended_purchase"
    case .fulfillmentIssue: return "fulfillment_issue"
    case .unsatisfied: return "unsatisfied"
    case .outageCredit: return "outage credit"
    case .betaTester: return "beta tester"
    case .retentionOffer: return "retention offer"
    case .grantedByMistake: return "granted by mistake"
    case .chargebackFiled: return "chargeback filed"
    case .consentPending: return "parental consent pending"
    case .cleared: return "cleared"
    }
  }
}

/// The small free-form `meta` objects real pipelines attach (ignored by projections).
enum GeneratedMeta: UInt8 {
  case none
  /// `{"source":"asn2","storefront":"USA"}`: from an App Store Server Notification.
  case notification
  /// `{"source":"sdk","app_version":"6.1.0","storefront":"USA"}`: reported by the app.
  case sdk

  /// App versions an `sdk` meta object names.
  static let appVersions: [StaticString] = ["5.12.0", "5.13.2", "6.0.0", "6.1.0", "6.2.1"]
}

/// The entitlements a `grant` gives or a `block` denies (contract v1.3 §10).
struct GeneratedEntitlements: OptionSet {
  let rawValue: UInt8
  static let pro = GeneratedEntitlements(rawValue: 1)
  static let cloud = GeneratedEntitlements(rawValue: 2)

  /// The ids in the catalog's spelling, in a fixed order.
  var names: [StaticString] {
    var names: [StaticString] = []
    if contains(.pro) { names.append("pro") }
    if contains(.cloud) { names.append("cloud") }
    return names
  }
}

/// The services that block access in generated logs (contract v1.3 §10).
enum GeneratedService: UInt8 {
  /// Fraud review: blocks everything, usually lifted after a review.
  case fraud
  /// Parental consent: blocks `pro` until a parent agrees.
  case consent
  /// A chargeback: blocks everything until it is settled.
  case chargeback

  /// The value as written in the log.
  var name: StaticString {
    switch self {
    case .fraud: return "fraud"
    case .consent: return "consent"
    case .chargeback: return "chargeback"
    }
  }
}

/// Who charged: the `store` of a v1.3 charge.
enum GeneratedStore: UInt8 {
  case appStore
  case googlePlay

  /// The value as written in the log.
  var name: StaticString { self == .appStore ? "appstore" : "googleplay" }
}
