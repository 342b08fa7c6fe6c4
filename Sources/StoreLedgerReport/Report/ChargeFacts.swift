import StoreLedgerCore

/// The v1.3 `store`, `country` and `proceeds` of a log's charges, by line, for reports.
///
/// Loading keeps these facts only as a hash (`EventDetails.factsHash`), so replay pays nothing for
/// them; a report reads them again from the lines of the charges that have one, and only then.
package struct ChargeFacts: Sendable {
  /// One charge's facts; a field the charge does not state is nil.
  package struct Facts: Sendable, Equatable {
    /// Who charged (`appstore`, `googleplay`, …).
    package var store: String? = nil
    /// The storefront's ISO 3166-1 alpha-2 code.
    package var country: String? = nil
    /// What the store pays the developer, in thousandths of the charge's currency.
    package var proceeds: Int64? = nil
    /// Without stated `proceeds`: the catalog's `store_fees` estimate of them (`ChargeFacts+Estimates`).
    package var estimatedProceeds: Int64? = nil

    /// Whether proceeds are stated or estimated (else the charge counts in `proceeds_unknown`).
    package var hasProceeds: Bool { proceeds != nil || estimatedProceeds != nil }
  }

  /// The facts by line (estimates are added by `ChargeFacts+Estimates`).
  var byLine: [UInt32: Facts] = [:]

  /// No facts: every charge is read as stating none.
  package init() {}

  /// The facts of the charge on `line` (nil: it states none).
  package func facts(line: UInt32) -> Facts? { byLine[line] }

  /// Whether no charge's facts are known.
  package var isEmpty: Bool { byLine.isEmpty }

  /// Notes the facts of the JSON line `bytes` numbered `line`; a line that is not a JSON object is skipped
  /// (loading already refused it, or it is not a charge).
  /// - Complexity: O(line length).
  package mutating func note(line: UInt32, bytes: [UInt8]) {
    guard let value = try? JSONValue.parse(bytes: bytes), value.objectMembers != nil else { return }
    var facts = Facts()
    facts.store = value["store"]?.stringValue
    facts.country = value["country"]?.stringValue
    if case .integer(let proceeds)? = value["proceeds"] { facts.proceeds = proceeds }
    guard facts != Facts() else { return }
    byLine[line] = facts
  }

  /// The lines of `ledger`'s charges with v1.3 facts, in increasing order.
  /// - Complexity: O(events · log lines with details).
  package static func lines(of ledger: Ledger) -> [UInt32] {
    var lines: [UInt32] = []
    for event in ledger.events where event.kind.isCharge && ledger.details.details(line: event.line).factsHash != 0 {
      lines.append(event.line)
    }
    return lines.sorted()
  }

  /// The facts of `ledger`'s charges, read again from the log file at `path` (the lines of
  /// `lines(of:)` only, in one pass of `chunkBytes` reads that stops after the last of them),
  /// with the proceeds the catalog's `store_fees` estimate for those that state none.
  /// - Complexity: O(bytes up to the last charge with facts).
  package static func read(path: String, for ledger: Ledger, chunkBytes: Int = 1 << 20) throws(Diagnostic) -> ChargeFacts {
    var facts = ChargeFacts()
    try LogLineReader.read(path: path, lines: lines(of: ledger), chunkBytes: chunkBytes) { line, bytes in
      facts.note(line: line, bytes: bytes)
    }
    facts.estimate(ledger: ledger)
    return facts
  }
}
