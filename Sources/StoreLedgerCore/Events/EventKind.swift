/// The event types of Docs/log-format.md, as past-tense facts.
///
/// `rawValue` is the log's `type` (`auto_renew_changed`), and `Codable` is that string; the kind
/// table's `name` column spells the same (`VocabularyNameTests` pins them equal). A kind's byte
/// in snapshots and indexes is its explicit `storageCode`, never the raw value.
public enum EventKind: String, Sendable, CaseIterable, Codable {
  case purchase
  case purchasePending = "purchase_pending"
  case renewal
  case billingRetry = "billing_retry"
  case graceEntered = "grace_entered"
  case expiration
  case autoRenewChanged = "auto_renew_changed"
  case planChanged = "plan_changed"
  case renewalExtended = "renewal_extended"
  case revocation
  case refundReversed = "refund_reversed"
  case consumption
  case usage
  case refundRequested = "refund_requested"
  case refundDeclined = "refund_declined"
  case grant
  case grantRevoked = "grant_revoked"
  case block
  case unblock
  case transfer

  /// The kind table: each kind's log name, storage code, words for people, scope, fields and what
  /// the report counts at it, one row per kind (Docs/log-format.md). Everything else about kinds derives from it and `allCases`.
  ///
  /// Always inlined: a caller that reads one column then compiles to a table of that column,
  /// where a call would build the whole row for every event (5% of a restore).
  @inline(__always) @usableFromInline var facts: EventKindFacts {
    switch self {
    case .purchase:
      return EventKindFacts(
        "purchase", code: 0, words: "purchase", .charge, required: [.product, .transaction],
        optional: [
          .originalTransaction, .expires, .quantity, .ownership, .offer, .price, .currency, .store, .country, .proceeds,
        ], report: .charge)
    case .purchasePending:
      return EventKindFacts("purchase_pending", code: 1, words: "purchase awaiting approval", [], required: [.product])
    case .renewal:
      return EventKindFacts(
        "renewal", code: 2, words: "renewal", [.charge, .subscription],
        required: [.product, .transaction, .originalTransaction, .expires],
        optional: [.offer, .price, .currency, .store, .country, .proceeds], report: .charge)
    case .billingRetry:
      return EventKindFacts(
        "billing_retry", code: 3, words: "failed renewal payment (billing retry)", .subscription,
        required: [.originalTransaction], report: .billingState)
    case .graceEntered:
      return EventKindFacts(
        "grace_entered", code: 4, words: "failed renewal payment (grace period entered)", .subscription,
        required: [.originalTransaction, .graceExpires], report: .billingState)
    case .expiration:
      return EventKindFacts(
        "expiration", code: 5, words: "expiration", .subscription, required: [.originalTransaction],
        optional: [.reason], report: .billingState)
    case .autoRenewChanged:
      return EventKindFacts(
        "auto_renew_changed", code: 6, words: "auto-renew changed", .subscription,
        required: [.originalTransaction, .autoRenew])
    case .planChanged:
      return EventKindFacts(
        "plan_changed", code: 7, words: "plan change", .subscription, required: [.originalTransaction, .product])
    case .renewalExtended:
      return EventKindFacts(
        "renewal_extended", code: 8, words: "renewal date extended", .subscription,
        required: [.originalTransaction, .expires], report: .billingState)
    case .revocation:
      return EventKindFacts(
        "revocation", code: 9, words: "revocation", .refund, required: [.transaction],
        optional: [.reason, .quantity, .refunded], report: .revocation)
    case .refundReversed:
      return EventKindFacts(
        "refund_reversed", code: 10, words: "refund reversed", .refund, required: [.transaction],
        report: .refundReversal)
    case .consumption:
      return EventKindFacts(
        "consumption", code: 11, words: "balance spent", .balance, required: [.currency, .quantity],
        report: .balanceSpend)
    case .usage:
      return EventKindFacts(
        "usage", code: 12, words: "use", .usage, required: [.feature], optional: [.quantity], report: .use)
    case .refundRequested:
      return EventKindFacts(
        "refund_requested", code: 13, words: "refund requested", .refundNotice, required: [.transaction],
        optional: [.reason, .respondBy], report: .refundRequest)
    case .refundDeclined:
      return EventKindFacts(
        "refund_declined", code: 14, words: "refund declined by the store", .refundNotice, required: [.transaction],
        report: .refundDecline)
    case .grant:
      return EventKindFacts(
        "grant", code: 15, words: "access granted by support", .access, required: [.entitlements],
        optional: [.expires, .reason])
    case .grantRevoked:
      return EventKindFacts(
        "grant_revoked", code: 16, words: "support grant withdrawn", .access, required: [.grant], optional: [.reason])
    case .block:
      return EventKindFacts(
        "block", code: 17, words: "access blocked", .access, required: [.service], optional: [.entitlements, .reason])
    case .unblock:
      return EventKindFacts(
        "unblock", code: 18, words: "block lifted", .access, required: [.service], optional: [.reason])
    case .transfer:
      return EventKindFacts(
        "transfer", code: 19, words: "transfer between accounts", .ownership, required: [.to],
        optional: [.originalTransaction, .transaction])
    }
  }

  /// The name used in the log's `type` field (the public spelling is `rawValue`, the same text).
  package var name: String { staticName.description }

  /// The kind in words for people, from its row: `renewal`, `access blocked`.
  package var words: String { facts.words.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString { facts.name }

  /// The sets of kinds this one belongs to (charges, subscription events, refunds, ...).
  package var scope: EventScope { facts.scope }

  /// Whether it charges a `transaction` (`purchase`, `renewal`): what ids of transactions and
  /// refunds refer to.
  package var isCharge: Bool { facts.scope.contains(.charge) }

  /// Whether it revokes a charge or reverses a revocation (`revocation`, `refund_reversed`).
  package var isRefund: Bool { facts.scope.contains(.refund) }

  /// Whether it names a charge by its `transaction` to revoke, reverse or ask about: the refund
  /// and refund-notice scopes.
  package var namesCharge: Bool { !facts.scope.isDisjoint(with: [.refund, .refundNotice]) }

  /// Whether a line of this kind may carry `field` (required or optional).
  package func mayCarry(_ field: FieldSet) -> Bool { !facts.required.union(facts.optional).isDisjoint(with: field) }

  /// Every type name, in the order of Docs/log-format.md.
  package static let allNames: [String] = allCases.map(\.name)

  /// The kinds by the byte length of their log name: bit `storageCode` of `kindsByNameLength[n]`
  /// is set for each kind whose name has `n` bytes. Derived from `allCases`.
  private static let kindsByNameLength: [UInt64] = {
    precondition(allCases.count <= UInt64.bitWidth, "EventKind.kindsByNameLength holds at most 64 kinds")
    var table = [UInt64](repeating: 0, count: 1 + (allCases.map { $0.staticName.utf8CodeUnitCount }.max() ?? 0))
    for kind in allCases { table[kind.staticName.utf8CodeUnitCount] |= 1 << UInt64(kind.storageCode) }
    return table
  }()

  /// The kind whose log name is exactly `bytes`, without creating a `String`.
  /// - Complexity: O(`bytes.count`) (at most two kinds share a name's length).
  package init?(nameBytes bytes: UnsafeBufferPointer<UInt8>) {
    let table = EventKind.kindsByNameLength
    guard bytes.count < table.count else { return nil }
    var candidates = table[bytes.count]
    while candidates != 0 {
      let kind = EventKind(storageCode: UInt8(truncatingIfNeeded: candidates.trailingZeroBitCount))!
      let name = kind.staticName.utf8Start
      var index = 0
      while index < bytes.count && bytes[index] == name[index] { index += 1 }
      if index == bytes.count {
        self = kind
        return
      }
      candidates &= candidates - 1
    }
    return nil
  }

  /// The kind named `name` in the log.
  package init?(name: String) {
    var name = name
    guard let kind = name.withUTF8({ EventKind(nameBytes: $0) }) else { return nil }
    self = kind
  }

  /// Whether an event of this kind can give access to an entitlement (charges, subscription
  /// events, refunds). Access only ever begins at such an event, so the trial's conversion is
  /// looked for at their instants only.
  var mayGrantAccess: Bool { !facts.scope.isDisjoint(with: [.charge, .subscription, .refund, .access]) }

  /// Required fields beyond `id`, `type`, `subject`, `at`.
  package var required: FieldSet { facts.required }

  /// Optional fields beyond `recorded` and `meta`.
  package var optional: FieldSet { facts.optional }

  /// What the report counts at an event of this kind: a column of the kind table, read per event
  /// on the report's path, so inlinable (one table load, like `storageCode`).
  @inlinable package var reportCount: ReportCount { facts.reportCount }
}

/// `ownership`: bought by the subject or shared by a family organiser.
///
/// `rawValue` is the log's name (`family_shared`), and `Codable` is that string.
public enum Ownership: String, Sendable, CaseIterable, Codable {
  case purchased
  case familyShared = "family_shared"
  /// Access from a support `grant` (contract v1.3): in answers only, never a log value.
  case granted

  /// The name used in the log (the public spelling is `rawValue`, the same text).
  package var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString {
    switch self {
    case .purchased: return "purchased"
    case .familyShared: return "family_shared"
    case .granted: return "granted"
    }
  }
}

/// `offer`: the kind of price of a transaction; `normal` when absent.
///
/// `rawValue` is the log's name (`win_back`), and `Codable` is that string.
public enum Offer: String, Sendable, CaseIterable, Codable {
  case normal
  case trial
  case intro
  case promo
  case code
  case winBack = "win_back"

  /// The name used in the log and in answers' `period` (the public spelling is `rawValue`).
  package var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString {
    switch self {
    case .normal: return "normal"
    case .trial: return "trial"
    case .intro: return "intro"
    case .promo: return "promo"
    case .code: return "code"
    case .winBack: return "win_back"
    }
  }
}

/// `expiration.reason`.
package enum ExpirationReason: UInt8, Sendable, CaseIterable {
  case voluntary
  case billing
  case priceIncrease
  case productUnavailable
  case other

  /// The name used in the log.
  package var name: String {
    switch self {
    case .voluntary: return "voluntary"
    case .billing: return "billing"
    case .priceIncrease: return "price_increase"
    case .productUnavailable: return "product_unavailable"
    case .other: return "other"
    }
  }
}

/// `refund_requested.reason`: why the customer asked the store for a refund (contract v1.3, section 11).
package enum RefundRequestReason: UInt8, Sendable, CaseIterable {
  case unintendedPurchase
  case fulfillmentIssue
  case unsatisfied
  case legal
  case other

  /// The name used in the log.
  package var name: String {
    switch self {
    case .unintendedPurchase: return "unintended_purchase"
    case .fulfillmentIssue: return "fulfillment_issue"
    case .unsatisfied: return "unsatisfied"
    case .legal: return "legal"
    case .other: return "other"
    }
  }
}

/// `revocation.reason`.
package enum RevocationReason: UInt8, Sendable, CaseIterable {
  case refund
  case familyRevoked
  case other

  /// The name used in the log.
  package var name: String {
    switch self {
    case .refund: return "refund"
    case .familyRevoked: return "family_revoked"
    case .other: return "other"
    }
  }
}
