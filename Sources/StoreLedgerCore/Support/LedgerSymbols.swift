/// The interned strings of a ledger: one table per namespace.
package struct LedgerSymbols: Sendable {
  /// Event ids.
  package var ids: SymbolTable
  /// Subjects.
  package var subjects: SymbolTable
  /// Transaction and original transaction ids (one namespace).
  package var transactions: SymbolTable
  /// Currencies (consumable and price currencies).
  package var currencies = SymbolTable(capacity: 64)

  /// Empty tables sized for a log.
  package init() { self.init(expectedStrings: 1 << 16) }

  /// Empty tables with room for about `expectedStrings` ids and transactions before they grow:
  /// small for the few subjects an open ledger's append involves, whose tables would otherwise
  /// be allocated and zeroed (4 MiB) on every append.
  package init(expectedStrings: Int) {
    ids = SymbolTable(capacity: expectedStrings)
    subjects = SymbolTable(capacity: max(64, expectedStrings >> 4))
    transactions = SymbolTable(capacity: expectedStrings)
  }

  /// Why a string held as a span of the log could not be read back as it was loaded (the log
  /// changed under the ledger), if that ever happened: a snapshot or index written since holds
  /// placeholders and must not be kept. Nil while the log is intact.
  package var readFailure: Diagnostic? {
    ids.logSource?.failure ?? transactions.logSource?.failure
  }
}
