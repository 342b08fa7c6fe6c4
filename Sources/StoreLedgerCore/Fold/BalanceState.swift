/// A balance in one currency.
package struct BalanceState: Sendable, Equatable {
  /// The currency.
  package var currency: Symbol
  /// Units held; negative after a refund of spent units.
  package var amount: Int64
}
