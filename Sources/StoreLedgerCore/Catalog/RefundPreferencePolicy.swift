/// Which outcome `storeledger evidence` tells the stores it prefers for a refund request, from
/// the share of the purchase the customer consumed (Docs/evidence.md, "Refund preference").
///
/// The default: nothing consumed, a full refund; everything consumed, decline; in between, a
/// prorated refund. A catalog's `refund_preference` section moves the two thresholds.
package struct RefundPreferencePolicy: Sendable, Equatable {
  /// The outcome, before it is put in a store's words.
  package enum Outcome: Sendable, Equatable {
    /// Refund the whole price.
    case grantFull
    /// Refund the unconsumed share (the App Store's GRANT_PRORATED; Google Play has no such
    /// answer and hears NEUTRAL).
    case grantProrated
    /// Keep the charge.
    case decline
    /// No preference: the share consumed is not known.
    case neutral

    /// Apple's `refundPreference` (Send Consumption Information); nil: the field is left out.
    package var appStore: String? {
      switch self {
      case .grantFull: return "GRANT_FULL"
      case .grantProrated: return "GRANT_PRORATED"
      case .decline: return "DECLINE"
      case .neutral: return nil
      }
    }

    /// Google's `refundPreference` (`orders.reviewrefund`, a required field).
    package var googlePlay: String {
      switch self {
      case .grantFull: return "APPROVE"
      case .grantProrated, .neutral: return "NEUTRAL"
      case .decline: return "DECLINE"
      }
    }
  }

  /// The share consumed, in milliunits, at or below which the preference is a full refund.
  package var grantFullUpToMilliunits: Int64
  /// The share consumed, in milliunits, from which the preference is to decline.
  package var declineFromMilliunits: Int64
  /// Whether a catalog set it (the text says which policy decided).
  package var isFromCatalog: Bool

  /// 100% in milliunits, the stores' unit for shares.
  package static let wholeMilliunits: Int64 = 100_000

  /// Nothing consumed: full refund; all of it: decline; otherwise prorated.
  package static let standard = RefundPreferencePolicy(
    grantFullUpToMilliunits: 0, declineFromMilliunits: wholeMilliunits, isFromCatalog: false)

  /// The preference for a share consumed (nil: not known).
  package func outcome(consumedMilliunits: Int64?) -> Outcome {
    guard let consumed = consumedMilliunits else { return .neutral }
    if consumed >= declineFromMilliunits { return .decline }
    if consumed <= grantFullUpToMilliunits { return .grantFull }
    return .grantProrated
  }
}
