/// A balance in one currency.
public struct BalanceState: Sendable, Equatable {
  /// The currency.
  public var currency: Symbol
  /// Units held; negative after a refund of spent units.
  public var amount: Int64
}
