/// The sets of event kinds the code asks about: what an event of a kind refers to or changes.
///
/// A kind may belong to several (a `renewal` charges and refers to a subscription) or to none
/// (`purchase_pending` changes nothing). Each kind's scopes are one column of the kind table
/// (`EventKind.facts`); code asks `kind.scope.contains(_:)` instead of listing kinds.
package struct EventScope: OptionSet, Sendable, Hashable {
  package let rawValue: UInt8

  /// A scope set from its bits.
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Charges a `transaction`, once per transaction; what a refund refers to (`purchase`, `renewal`).
  package static let charge = EventScope(rawValue: 1 << 0)
  /// Refers to a subscription by `original_transaction`.
  package static let subscription = EventScope(rawValue: 1 << 1)
  /// Revokes a charge, or reverses a revocation, by its `transaction`.
  package static let refund = EventScope(rawValue: 1 << 2)
  /// Spends a virtual-currency balance (`currency`, `quantity`).
  package static let balance = EventScope(rawValue: 1 << 3)
  /// Counts uses of a feature of the catalog's usage policy.
  package static let usage = EventScope(rawValue: 1 << 4)
  /// Records a refund request or the store's refusal of one, naming a charge by its
  /// `transaction`; changes nothing (contract v1.3, section 11).
  package static let refundNotice = EventScope(rawValue: 1 << 5)
  /// Gives or denies entitlements by hand, outside any purchase: support's grants and their
  /// revocations, compliance's blocks and unblocks (contract v1.3, section 10).
  package static let access = EventScope(rawValue: 1 << 6)
  /// Moves a unit (a subscription or a non-consumable or non-renewing purchase) to another
  /// subject (contract v1.3, section 9); read by the owner chains, never folded.
  package static let ownership = EventScope(rawValue: 1 << 7)

  /// Every scope with its name, in bit order (for tests and messages).
  package static let named: [(scope: EventScope, name: String)] = [
    (.charge, "charge"), (.subscription, "subscription"), (.refund, "refund"), (.balance, "balance"),
    (.usage, "usage"), (.refundNotice, "refund notice"), (.access, "access"), (.ownership, "ownership"),
  ]
}
