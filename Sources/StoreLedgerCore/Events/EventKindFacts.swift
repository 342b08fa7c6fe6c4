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

  /// A row of the kind table.
  init(
    _ name: StaticString, code: UInt8, words: StaticString, _ scope: EventScope, required: FieldSet,
    optional: FieldSet = []
  ) {
    self.name = name
    self.storageCode = code
    self.words = words
    self.scope = scope
    self.required = required
    self.optional = optional
  }
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
