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

  /// The value as written in the log.
  var text: StaticString {
    switch self {
    case .none: return ""
    case .voluntary: return "voluntary"
    case .billing: return "billing"
    case .priceIncrease: return "price_increase"
    case .refund: return "refund"
    case .familyRevoked: return "family_revoked"
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
