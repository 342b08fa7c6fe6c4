/// The interned strings of a ledger: one table per namespace.
package struct LedgerSymbols: Sendable {
  /// Event ids.
  package var ids = SymbolTable(capacity: 1 << 16)
  /// Subjects.
  package var subjects = SymbolTable(capacity: 1 << 12)
  /// Transaction and original transaction ids (one namespace).
  package var transactions = SymbolTable(capacity: 1 << 16)
  /// Currencies (consumable and price currencies).
  package var currencies = SymbolTable(capacity: 64)

  /// Empty tables.
  package init() {}
}
