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
  }

  private var byLine: [UInt32: Facts] = [:]

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
  /// `lines(of:)` only, in one pass of `chunkBytes` reads that stops after the last of them).
  /// - Complexity: O(bytes up to the last charge with facts).
  package static func read(path: String, for ledger: Ledger, chunkBytes: Int = 1 << 20) throws(Diagnostic) -> ChargeFacts {
    let wanted = lines(of: ledger)
    var facts = ChargeFacts()
    guard let last = wanted.last else { return facts }
    let file = try PlatformFile(path: path, mode: .read)
    var next = 0
    var lineNumber: UInt32 = 1
    var pending: [UInt8] = []
    var offset: Int64 = 0
    while next < wanted.count {
      let chunk = try file.readBytes(count: chunkBytes, at: offset)
      offset += Int64(chunk.count)
      var lineStart = 0
      for (index, byte) in chunk.enumerated() where byte == 0x0A {
        if lineNumber == wanted[next] {
          facts.note(line: lineNumber, bytes: pending + chunk[lineStart..<index])
          next += 1
          if lineNumber == last { return facts }
        }
        pending.removeAll(keepingCapacity: true)
        lineStart = index + 1
        lineNumber += 1
      }
      // Only the line being read is carried over; lines not wanted are never copied whole.
      if lineNumber == wanted[next] { pending += chunk[lineStart...] }
      if chunk.count < chunkBytes {
        if lineNumber == wanted[next] { facts.note(line: lineNumber, bytes: pending) }
        break
      }
    }
    return facts
  }
}
