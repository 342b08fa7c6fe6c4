/// What the ledger knew about a purchase when a customer asked the store to refund it: the
/// facts behind the App Store's Send Consumption Information body and Google Play's
/// `orders.reviewrefund` body (Docs/evidence.md). Built by `RefundEvidence.build`; written by
/// `RefundEvidence+Bodies` (JSON) and `RefundEvidence+Text` (words). Nothing is ever sent.
package struct RefundEvidence: Sendable, Equatable {
  /// The `refund_requested` event the evidence answers.
  package struct Request: Sendable, Equatable {
    package var id: String
    package var line: UInt32
    package var subject: String
    package var transaction: String
    package var at: Timestamp
    package var recorded: Timestamp
    package var respondBy: Timestamp?
    package var reason: String?
  }

  /// The charge of the requested transaction, as the ledger knew it at the request.
  package struct Purchase: Sendable, Equatable {
    package var product: String
    package var kind: ProductKind
    package var line: UInt32
    package var at: Timestamp
    package var price: Int64?
    package var currency: String?
    package var offer: Offer
    /// Whether a revocation of it was in force at the request (a refund already given).
    package var revoked: Bool
  }

  /// How the share consumed was measured.
  package enum Consumption: Sendable, Equatable {
    /// A consumable: `spent` of the `credited` units of `currency` this purchase credited went
    /// to spends, which take the oldest credits first.
    case credits(currency: String, credited: Int64, spent: Int64)
    /// A period of access (auto-renewable, non-renewing, time-limited unlock): `elapsedMs` of
    /// the period from `start` to `end` had passed at the request.
    case period(start: Timestamp, end: Timestamp, elapsedMs: Int64)
    /// A lasting unlock: the ledger has no measure of how much of it was used.
    case unmeasured
  }

  /// One use the purchase paid for, for Google's `consumptionUsageEvents`.
  package struct Use: Sendable, Equatable {
    package var at: Timestamp
    package var description: String
  }

  /// The customer's history before the request.
  package struct History: Sendable, Equatable {
    /// The first event of the subject (effective, known at the request).
    package var firstSeen: Timestamp
    /// Charges with a price, and their sums per currency (thousandths).
    package var purchases = 0
    package var purchased: [String: Int64] = [:]
    /// Revocations of the subject's charges other than `family_revoked`, and the amounts.
    package var refunds = 0
    package var refunded: [String: Int64] = [:]
    /// Earlier `refund_requested` and `refund_declined` events of the subject.
    package var earlierRequests = 0
    package var declines = 0
  }

  package var request: Request
  package var purchase: Purchase
  package var consumption: Consumption
  /// The share consumed in milliunits (100,000 = all), rounded half up; nil when unmeasured.
  package var consumedMilliunits: Int64?
  /// Whether a trial or sample was given before the purchase, and which (words), or nil.
  package var sample: String?
  package var history: History
  /// The uses the purchase paid for, newest first, at most `usesMax`; `usesTotal` counts all.
  package var uses: [Use]
  package var usesTotal: Int
  package var preference: RefundPreferencePolicy.Outcome
  package var preferenceFromCatalog: Bool
  package var customerConsented: Bool
  /// The request's `meta.pendingRefundToken`, when the import kept it and the log could be read.
  package var pendingRefundToken: String?
  /// Why there is no token: nil when there is one.
  package var tokenMissing: String?

  /// Google rejects a list of more than 1,000 usage events.
  package static let usesMax = 1_000

  /// Whole days from the first event to the request (rounded down).
  package var tenureDays: Int64 {
    (request.at.millisecondsSinceEpoch - history.firstSeen.millisecondsSinceEpoch) / 86_400_000
  }

  /// `part` of `whole` in milliunits, rounded half up (0 for an empty whole).
  package static func milliunits(_ part: Int64, of whole: Int64) -> Int64 {
    guard whole > 0 else { return 0 }
    let part = min(max(part, 0), whole)
    let scaled = part.multipliedFullWidth(by: RefundPreferencePolicy.wholeMilliunits)
    let (quotient, remainder) = whole.dividingFullWidth((scaled.high, scaled.low))
    return remainder * 2 >= whole ? quotient + 1 : quotient
  }
}
