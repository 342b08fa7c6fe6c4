/// The values of a `transfer` (contract v1.3, section 9), kept in fields the kind has no other
/// use for, so `Event` stays 64 bytes and snapshots, the index and partition merges carry them as
/// any reference: the unit's name in `originalTransaction` (whichever field the line named it
/// by), the receiving subject's id interned like a transaction in `transaction`, and which field
/// named the unit in `reasonRaw` (a transfer has no `reason`).
extension Event {
  /// Whether the event moves a unit to another subject (its scope in the kind table).
  @inlinable
  package var isTransfer: Bool { kind == .transfer }

  /// The unit a `transfer` moves: an `original_transaction` or a `transaction`; `.none` for other kinds.
  @inlinable
  package var transferredUnit: Symbol { kind == .transfer ? originalTransaction : .none }

  /// The receiving subject's id of a `transfer`, interned in the transactions table; `.none` for other kinds.
  @inlinable
  package var transferRecipient: Symbol { kind == .transfer ? transaction : .none }

  /// Whether a `transfer` named its unit by `transaction` (a non-consumable or non-renewing
  /// purchase) rather than by `original_transaction` (an auto-renewable subscription).
  @inlinable
  package var transferNamesTransaction: Bool {
    get { kind == .transfer && reasonRaw == Event.transferByTransaction }
    set {
      precondition(kind == .transfer, "a transfer's naming field on a \(kind.name)")
      reasonRaw = newValue ? Event.transferByTransaction : Event.transferByOriginalTransaction
    }
  }

  /// `reasonRaw` of a transfer naming its unit by `original_transaction`.
  @usableFromInline static let transferByOriginalTransaction: UInt8 = 0
  /// `reasonRaw` of a transfer naming its unit by `transaction`.
  @usableFromInline static let transferByTransaction: UInt8 = 1

  /// Whether this event names unit `unit` as contract section 3 does: by `original_transaction`,
  /// or by `transaction` when it is a charge or refers to one (`charges` holds the transactions
  /// of the unit's charges). Transfers are not the unit's events.
  @inlinable
  package func names(unit: Symbol, chargeOf charges: (Symbol) -> Bool) -> Bool {
    guard kind != .transfer, !isAccess else { return false }
    if originalTransaction == unit { return true }
    guard transaction.isSome else { return false }
    if kind.isCharge { return transaction == unit || charges(transaction) }
    return kind.namesCharge && (transaction == unit || charges(transaction))
  }
}
