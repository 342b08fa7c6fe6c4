/// One row of the kind table: what the log and the code know about an event kind.
///
/// The rows live in `EventKind.facts`, the one place a kind's name, scope and fields are
/// written; name look-ups, field checks and every "which kinds are charges" question derive
/// from it and `EventKind.allCases`.
@usableFromInline struct EventKindFacts: Sendable {
  /// The name in the log's `type` field.
  let name: StaticString
  /// The kind's number in snapshots, index segments and records: fixed once used, never reused
  /// for another kind, whatever the order of the cases (`StorageCodeTests` pins them).
  @usableFromInline let storageCode: UInt8
  /// The kind in words for people (`EventWords`, where no field of the event words it better).
  let words: StaticString
  /// The sets of kinds it belongs to.
  let scope: EventScope
  /// Required fields beyond `id`, `type`, `subject`, `at`.
  let required: FieldSet
  /// Optional fields beyond `recorded` and `meta`.
  let optional: FieldSet
  /// What the report counts at an event of the kind (`.nothing` unless the row says).
  @usableFromInline let reportCount: ReportCount

  /// A row of the kind table.
  init(
    _ name: StaticString, code: UInt8, words: StaticString, _ scope: EventScope, required: FieldSet,
    optional: FieldSet = [], report reportCount: ReportCount = .nothing
  ) {
    self.name = name
    self.storageCode = code
    self.words = words
    self.scope = scope
    self.required = required
    self.optional = optional
    self.reportCount = reportCount
  }
}

/// What the report counts at an event of a kind (Docs/reports.md), a column of the kind table:
/// the report's one `switch` is over these, so a kind that counts nothing at its own instant
/// needs no case there, and a kind that counts like an existing one says so in its row.
///
/// A kind in the scopes that move money or count something (charge, refund, balance, usage,
/// refund notice) is never `.nothing` (`EventKindTableTests` checks it), so a new charge cannot
/// slip past the report's revenue by the row's default.
@usableFromInline package enum ReportCount: UInt8, Sendable, CaseIterable {
  /// Nothing at the event: what it changes shows in the holdings the report samples at bucket
  /// ends (a pending purchase, auto-renew, plan change, grant, block, transfer).
  case nothing
  /// A charge: revenue, MRR, new subscriptions, trials and their conversions.
  case charge
  /// A revocation of a charge: revenue taken back, a refund, the end of a billing episode.
  case revocation
  /// A revocation reversed: the revenue comes back.
  case refundReversal
  /// A change of a subscription's billing state: churn, billing issues and recoveries.
  case billingState
  /// A virtual-currency balance spent.
  case balanceSpend
  /// A use of a feature, counted for subscribers.
  case use
  /// A refund asked of the store.
  case refundRequest
  /// A refund the store declined.
  case refundDecline
}

extension Event {
  /// Whether the values its kind requires and the compact record stores are set (`product`,
  /// `transaction`, `original_transaction`, `currency`, an end): what a reader of stored events
  /// checks, from the kind table, before trusting one.
  package var hasRequiredValues: Bool {
    let required = kind.required
    if required.contains(.product) && !product.isSome { return false }
    if required.contains(.transaction) && !transaction.isSome { return false }
    if required.contains(.originalTransaction) && !originalTransaction.isSome { return false }
    if required.contains(.currency) && !balanceCurrency.isSome { return false }
    if (required.contains(.expires) || required.contains(.graceExpires)) && !hasExpires { return false }
    return true
  }
}
