import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Symbol tables without their look-up index keep every string")
struct SymbolTableIndexTests {
  static let words = (0..<3000).map { "evt_\($0 * 7919)" }

  func filled() -> (SymbolTable, [Symbol]) {
    var table = SymbolTable(capacity: 16)
    let symbols = Self.words.map { table.intern($0) }
    return (table, symbols)
  }

  @Test("after dropIndex every symbol still reads back as its string")
  func stringsStay() {
    var (table, symbols) = filled()
    table.dropIndex()
    #expect(!table.isIndexed)
    #expect(table.count == Self.words.count)
    for (word, symbol) in zip(Self.words, symbols) { #expect(table.string(symbol) == word) }
  }

  @Test("rebuildIndex finds every string again and nothing else")
  func rebuilt() {
    var (table, symbols) = filled()
    table.dropIndex()
    table.rebuildIndex()
    #expect(table.isIndexed)
    for (word, symbol) in zip(Self.words, symbols) { #expect(table.lookup(word) == symbol) }
    #expect(table.lookup("evt_1") == nil)
  }

  @Test("interning after dropIndex gives known strings their old symbol and new ones the next")
  func internAfterDrop() {
    var (table, symbols) = filled()
    table.dropIndex()
    #expect(table.intern(Self.words[1234]) == symbols[1234])
    let fresh = table.intern("evt_new")
    #expect(fresh.rawValue == UInt32(Self.words.count))
    #expect(table.lookup("evt_new") == fresh)
    #expect(table.count == Self.words.count + 1)
  }

  @Test("a loaded ledger drops the id and transaction indexes but not the subjects'")
  func loadedLedger() throws {
    let ledger = try ledger(
      EventLines.log([
      .purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.lifetime", transaction: "t1"),
      ]))
    #expect(!ledger.symbols.ids.isIndexed)
    #expect(!ledger.symbols.transactions.isIndexed)
    #expect(ledger.subject(named: "u1") != nil)
    #expect(ledger.symbols.ids.string(ledger.events[0].id) == "e1")
  }
}
