extension SubjectFinder {
  /// Notes the subjects of a loaded ledger whose id contains the term, or whose events have it as
  /// event id, transaction or original transaction (what the index can point at; `meta` is not kept).
  /// - Complexity: O(events of the ledger).
  package mutating func note(ledger: Ledger) {
    let symbols = ledger.symbols
    for index in 0..<ledger.subjectCount {
      let subject = Symbol(rawValue: UInt32(index))
      let name = symbols.subjects.string(subject)
      if name.contains(term) { add(subject: name, match: "subject id") }
      for event in ledger.events(of: subject) {
        if event.id.isSome && symbols.ids.string(event.id) == term { add(subject: name, match: "event id (line \(event.line))") }
        if event.transaction.isSome && symbols.transactions.string(event.transaction) == term {
          add(subject: name, match: "transaction (line \(event.line))")
        }
        if event.originalTransaction.isSome && symbols.transactions.string(event.originalTransaction) == term {
          add(subject: name, match: "original transaction (line \(event.line))")
        }
      }
    }
  }
}
