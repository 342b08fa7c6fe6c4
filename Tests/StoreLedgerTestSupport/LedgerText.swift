import StoreLedgerCore

/// A ledger as text: counts, subject ranges, every string table in symbol order, every event, warnings.
package func ledgerText(_ ledger: Ledger) -> String {
  var lines = ["lines \(ledger.linesRead), duplicates \(ledger.duplicatesSkipped), latest \(ledger.latestEffective)"]
  lines.append("starts \(ledger.subjectStarts)")
  lines.append("subscriptions \(ledger.subscriptionCounts)")
  let tables = [
    ("ids", ledger.symbols.ids), ("subjects", ledger.symbols.subjects),
    ("transactions", ledger.symbols.transactions), ("currencies", ledger.symbols.currencies),
  ]
  for (name, table) in tables {
    lines.append(name + ": " + (0..<table.count).map { table.string(Symbol(rawValue: UInt32($0))) }.joined(separator: " "))
  }
  lines += ledger.events.map { "\($0) " + detailsText(ledger, line: $0.line) }
  lines += ledger.learnedEarlier.map { "learned earlier: \($0)" }
  lines += ledger.warnings.map { "\($0) [\($0.severity)]" }
  return lines.joined(separator: "\n")
}

/// The details (price, its currency by name, meta hash) a ledger keeps for the event on `line`.
package func detailsText(_ ledger: Ledger, line: UInt32) -> String {
  let details = ledger.details.details(line: line)
  let currency = details.priceCurrency.isSome ? ledger.symbols.currencies.string(details.priceCurrency) : "-"
  return "price \(details.price) \(currency) meta \(details.metaHash)"
}
