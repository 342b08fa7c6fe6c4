import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

// Compact events (issue 25, item 2): a 64-byte `Event` without price, meta hash or subject,
// which live beside it (`EventDetailTable`, by line) or are implied by the grouping. These
// tests pin the layout and check that every way events are loaded, restored, appended and
// compared keeps the details and the diagnostics exactly as before.

/// Lines of one log with prices, meta, a consumption and a refund, over three subjects.
private let detailedLines = [
  #"{"id":"e1","type":"purchase","subject":"ann","at":"2026-03-01T00:00:00Z","product":"pro.monthly","transaction":"t1","expires":"2026-04-01T00:00:00Z","price":1990,"currency":"USD","meta":{"store":"x"}}"#,
  #"{"id":"e2","type":"purchase","subject":"bob","at":"2026-03-01T01:00:00Z","product":"coins.100","transaction":"t2","price":990,"currency":"EUR"}"#,
  #"{"id":"e3","type":"consumption","subject":"bob","at":"2026-03-02T00:00:00Z","currency":"coins","quantity":40,"meta":{"n":1}}"#,
  #"{"id":"e4","type":"purchase","subject":"cat","at":"2026-03-01T02:00:00Z","product":"pro.lifetime","transaction":"t3","price":0,"currency":"USD"}"#,
  #"{"id":"e5","type":"renewal","subject":"ann","at":"2026-04-01T00:00:00Z","product":"pro.monthly","transaction":"t4","original_transaction":"t1","expires":"2026-05-01T00:00:00Z","price":1990,"currency":"USD"}"#,
  #"{"id":"e6","type":"revocation","subject":"cat","at":"2026-03-05T00:00:00Z","transaction":"t3","reason":"refund"}"#,
  #"{"id":"e7","type":"purchase","subject":"cat","at":"2026-03-06T00:00:00Z","product":"pass.week","transaction":"t5","meta":{"a":[1,2]}}"#,
]

/// A ledger of `lines` through the single path, or its diagnostics' messages.
private func load(_ lines: [String], into builder: inout LedgerBuilder, firstLine: Int = 1) -> Result<Ledger, DiagnosticList> {
  for (offset, line) in lines.enumerated() {
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBufferPointer { builder.add(line: UnsafeBufferPointer($0), lineNumber: firstLine + offset) }
  }
  return builder.finish()
}

private func loaded(_ lines: [String]) throws -> Ledger {
  var builder = LedgerBuilder(catalog: try Catalog.parse(exampleCatalogText, file: "catalog.json"), file: "log.jsonl")
  return try load(lines, into: &builder).get()
}

/// Every event's line, subject and details by name, in line order: what must not change.
private func detailsByLine(_ ledger: Ledger) -> [String] {
  var rows: [(UInt32, String)] = []
  ledger.forEachEvent { event, subject in
    rows.append((event.line, ledger.symbols.subjects.string(subject) + " " + detailsText(ledger, line: event.line)))
  }
  return rows.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }
}

@Suite("Compact events: 64 bytes, details beside them by line, the subject implied by the grouping")
struct CompactEventTests {
  @Test("an event is 64 bytes: one cache line, no references")
  func layout() {
    #expect(MemoryLayout<Event>.stride == 64)
    #expect(MemoryLayout<Event>.size <= 64)
  }

  @Test(
    "a kind's own value (feature, target product, balance currency) reads as none on every other kind and is never cleared by another's absence",
    arguments: EventKind.allCases)
  func kindValues(kind: EventKind) {
    var event = Event(kind: kind)
    if kind == .usage { event.feature = 3 }
    if kind == .revocation || kind == .refundReversed { event.targetProduct = ProductIndex(rawValue: 5) }
    if kind == .consumption { event.balanceCurrency = Symbol(rawValue: 7) }
    let before = event
    // Writing another kind's absence (as symbol moves and remaps do) leaves the value alone.
    if kind != .usage { event.feature = Event.noFeature }
    if kind != .revocation && kind != .refundReversed { event.targetProduct = .none }
    if kind != .consumption { event.balanceCurrency = .none }
    #expect(event == before)
    #expect(event.feature == (kind == .usage ? 3 : Event.noFeature))
    #expect(event.targetProduct == (kind == .revocation || kind == .refundReversed ? ProductIndex(rawValue: 5) : .none))
    #expect(event.balanceCurrency == (kind == .consumption ? Symbol(rawValue: 7) : .none))
  }

  @Test("the flags byte keeps each flag and the ownership apart")
  func flags() {
    let names = ["familyShared", "autoRenew", "hasExpires", "hasRecorded", "hasOwnership", "hasOffer"]
    for (index, name) in names.enumerated() {
      var event = Event(kind: .purchase)
      let set: [(inout Event) -> Void] = [
        { $0.ownership = .familyShared }, { $0.autoRenew = true }, { $0.hasExpires = true },
        { $0.hasRecorded = true }, { $0.hasOwnership = true }, { $0.hasOffer = true },
      ]
      set[index](&event)
      let read = [
        event.ownership == .familyShared, event.autoRenew, event.hasExpires, event.hasRecorded, event.hasOwnership,
        event.hasOffer,
      ]
      #expect(read == names.indices.map { $0 == index }, "\(name)")
    }
  }

  @Test("the detail table finds each line's price and meta, in order or after sorting, merged and remapped")
  func detailTable() {
    let a = EventDetails(price: 1990, priceCurrency: Symbol(rawValue: 1), metaHash: 0)
    let b = EventDetails(price: 0, priceCurrency: .none, metaHash: 99)
    let c = EventDetails(price: 0, priceCurrency: Symbol(rawValue: 2), metaHash: 7)
    var inOrder = EventDetailTable()
    inOrder.set(a, line: 3)
    inOrder.set(b, line: 10)
    var shuffled = EventDetailTable()
    shuffled.set(c, line: 12)
    shuffled.set(b, line: 10)
    shuffled.set(a, line: 3)
    shuffled.sortByLine()
    for table in [shuffled] {
      #expect(table.details(line: 3) == a && table.details(line: 10) == b && table.details(line: 12) == c)
      #expect(table.details(line: 4) == EventDetails() && table.details(line: 1) == EventDetails())
    }
    var other = EventDetailTable()
    other.set(c, line: 12)
    var merged = EventDetailTable.merged([other, inOrder])
    #expect(merged.details(line: 3) == a && merged.details(line: 10) == b && merged.details(line: 12) == c)
    #expect(merged.entryCount == 4)
    merged.remapCurrencies { Symbol(rawValue: $0.rawValue + 10) }
    #expect(merged.details(line: 3).priceCurrency == Symbol(rawValue: 11))
    #expect(merged.details(line: 10).priceCurrency == .none)
  }

  @Test(
    "the detail table's look-ups agree with the lines given, dense (rank index) or sparse (binary search), in order or not",
    arguments: [[UInt32](stride(from: 1, to: 3000, by: 3)), [5, 70, 64_000_000, 64_000_001], [9, 4_000_000_000, 2, 130, 129]])
  func detailLookups(lines: [UInt32]) {
    var table = EventDetailTable()
    for line in lines { table.set(EventDetails(price: Int64(line), priceCurrency: Symbol(rawValue: 1), metaHash: UInt64(line) | 1), line: line) }
    table.sortByLine()
    let kept = Set(lines)
    let probes = kept.union(lines.flatMap { [$0 &- 1, $0 &+ 1, $0 / 2] }).union([0, 1, 63, 64, UInt32.max])
    for line in probes {
      let found = table.details(line: line)
      if kept.contains(line) {
        #expect(found == EventDetails(price: Int64(line), priceCurrency: Symbol(rawValue: 1), metaHash: UInt64(line) | 1), "line \(line)")
      } else {
        #expect(found == EventDetails(), "line \(line)")
      }
    }
    // Appending in order after sorting keeps look-ups right (an open store's new lines).
    let next = (lines.max() ?? 0) &+ 1
    table.set(EventDetails(price: 7, priceCurrency: Symbol(rawValue: 2), metaHash: 0), line: next)
    #expect(table.details(line: next).price == 7)
    #expect(table.details(line: lines[0]).price == Int64(lines[0]))
  }

  @Test("a loaded ledger keeps each line's price, currency and meta, and the subject its events lie under")
  func loadedDetails() throws {
    let ledger = try loaded(detailedLines)
    let rows = detailsByLine(ledger)
    #expect(rows.count == 7)
    #expect(rows[0].hasPrefix("1 ann price 1990 USD meta ") && !rows[0].hasSuffix("meta 0"))
    #expect(rows[1] == "2 bob price 990 EUR meta 0")
    #expect(rows[2].hasPrefix("3 bob price 0 - meta ") && !rows[2].hasSuffix("meta 0"))
    #expect(rows[3] == "4 cat price 0 USD meta 0")
    #expect(rows[4] == "5 ann price 1990 USD meta 0")
    #expect(rows[5] == "6 cat price 0 - meta 0")
    // A consumption's currency stays in the event (the fold spends it); a charge's is a detail.
    let spend = try #require(ledger.events.first { $0.kind == .consumption })
    #expect(ledger.symbols.currencies.string(spend.balanceCurrency) == "coins")
    // The refund's target was resolved into the event.
    let refund = try #require(ledger.events.first { $0.kind == .revocation })
    #expect(ledger.catalog[refund.targetProduct].id == "pro.lifetime")
  }

  /// (what the redelivery of line `replaces` changes, the fields the conflict must name)
  static let conflicts: [(String, String, String)] = [
    (#""price":1990"#, #""price":1999"#, "price"),
    (#""currency":"USD""#, #""currency":"EUR""#, "currency"),
    (#""meta":{"store":"x"}"#, #""meta":{"store":"y"}"#, "meta"),
    (#""subject":"ann""#, #""subject":"zed""#, "subject"),
    (#","price":1990,"currency":"USD""#, "", "price, currency"),
    (#""meta":{"store":"x"}"#, #""meta":{"store":"x"},"recorded":"2026-02-01T00:00:00Z""#, ""),
  ]

  @Test(
    "a redelivery differing in price, currency, meta or subject is an id conflict naming them, loaded whole or as a tail after a restored base",
    arguments: conflicts)
  func conflictsNameDetails(from: String, to: String, differs: String) throws {
    let catalog = try Catalog.parse(exampleCatalogText, file: "catalog.json")
    let redelivery = detailedLines[0].replacingOccurrences(of: from, with: to)
    let expected =
      differs.isEmpty
      ? nil
      : "log.jsonl:8: error: field 'id': id conflict: 'e1' was first used on line 1 for a different event (it differs in \(differs))"
    // Whole: the first event is this builder's own.
    var whole = LedgerBuilder(catalog: catalog, file: "log.jsonl")
    let wholeResult = load(detailedLines + [redelivery], into: &whole)
    // Tail: the first event is in a restored base, its subject implied by where it lies.
    var restoring = LedgerBuilder(restoring: try loaded(detailedLines), file: "log.jsonl")
    let tailResult = load([redelivery], into: &restoring, firstLine: 8)
    for result in [wholeResult, tailResult] {
      switch result {
      case .success(let ledger):
        #expect(expected == nil, "a conflict was expected: \(differs)")
        #expect(ledger.events.count == 7)
        // Learned earlier from the redelivery, everything else unchanged.
        #expect(detailsByLine(ledger) == detailsByLine(try loaded(detailedLines)))
      case .failure(let list):
        #expect(list.diagnostics.map(\.description) == [expected ?? "no conflict"])
      }
    }
  }

  @Test("a restored base plus a tail keeps the base's details and adds the tail's")
  func restoredTail() throws {
    var restoring = LedgerBuilder(restoring: try loaded(Array(detailedLines.prefix(4))), file: "log.jsonl")
    let extended = try load(Array(detailedLines.dropFirst(4)), into: &restoring, firstLine: 5).get()
    #expect(detailsByLine(extended) == detailsByLine(try loaded(detailedLines)))
  }

  @Test("a snapshot written and read back keeps every line's details")
  func snapshotDetails() throws {
    let ledger = try loaded(detailedLines)
    var bytes: [UInt8] = []
    let order = (0..<ledger.subjectCount).sorted {
      ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) < ledger.symbols.subjects.string(Symbol(rawValue: UInt32($1)))
    }
    SnapshotSection.encode(ledger, subjectOrder: order, into: &bytes)
    let restored = try bytes.withUnsafeBytes { raw in
      let decoder = SectionDecoder(bytes: raw, file: "s", catalog: ledger.catalog)
      return try decoder.decode(spareEvents: 0)
    }
    var rows: [String] = []
    for (index, event) in restored.events.enumerated() {
      let details = restored.details.details(line: event.line)
      let currency = details.priceCurrency.isSome ? restored.symbols.currencies.string(details.priceCurrency) : "-"
      var subject = 0
      while Int(restored.subjectStarts[subject + 1]) <= index { subject += 1 }
      rows.append(
        "\(event.line) \(restored.symbols.subjects.string(Symbol(rawValue: UInt32(subject)))) price \(details.price) \(currency) meta \(details.metaHash)")
    }
    #expect(rows.count == 7)
    #expect(Set(rows) == Set(detailsByLine(ledger)))
  }

  @Test("an open ledger's appends keep the details of new lines and of the subjects they move, like a fresh load")
  func appendsKeepDetails() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try detailedLines.prefix(2).map { $0 + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    let store = try LedgerStore(logPath: log)
    for batch in [2..<4, 4..<5, 5..<7] {
      let text = detailedLines[batch].map { $0 + "\n" }.joined()
      _ = try store.append(lines: Array(text.utf8), named: "batch", now: nil)
    }
    // A price conflict with a line the store holds: worded as a fresh load words it.
    let conflict = detailedLines[1].replacingOccurrences(of: #""price":990"#, with: #""price":991"#)
    #expect(throws: DiagnosticList.self) { try store.append(lines: Array((conflict + "\n").utf8), named: "batch", now: nil) }
    do {
      _ = try store.append(lines: Array((conflict + "\n").utf8), named: "batch", now: nil)
    } catch {
      #expect(
        error.diagnostics.map(\.description) == [
          "batch:1: error: field 'id': id conflict: 'e2' was first used on line 2 of \(log) for a different event (it differs in price)"
        ])
    }
    let fresh = try LedgerLoader.load(logPath: log, catalog: store.catalog).ledger
    #expect(detailsByLine(store.state.ledger) == detailsByLine(fresh))
    #expect(detailsByLine(fresh) == detailsByLine(try loaded(detailedLines)))
  }

  @Test("an open ledger moves a subject whose effective order is not its line order, and a redelivery in the append is still a duplicate")
  func appendsOutOfLineOrder() throws {
    let lines = [
      #"{"id":"a1","type":"purchase","subject":"ann","at":"2026-03-10T00:00:00Z","product":"pass.week","transaction":"x1","price":500,"currency":"USD"}"#,
      #"{"id":"a2","type":"purchase","subject":"ann","at":"2026-03-01T00:00:00Z","product":"pass.month","transaction":"x2","price":900,"currency":"EUR","meta":{"k":1}}"#,
    ]
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try lines.map { $0 + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    let store = try LedgerStore(logPath: log)
    let next = #"{"id":"a3","type":"purchase","subject":"ann","at":"2026-03-05T00:00:00Z","product":"pass.week","transaction":"x3","price":700,"currency":"USD"}"#
    // The redelivery first: the new line after it takes the line the skipped one did not.
    let report = try store.append(lines: Array((lines[0] + "\n" + next + "\n").utf8), named: "batch", now: nil)
    #expect(report.appended == 1 && report.duplicates == 1)
    let fresh = try LedgerLoader.load(logPath: log, catalog: store.catalog).ledger
    #expect(detailsByLine(store.state.ledger) == detailsByLine(fresh))
    #expect(detailsByLine(fresh).count == 3)
    let linesByID = { (ledger: Ledger) in
      var lines: [String: UInt32] = [:]
      ledger.forEachEvent { event, _ in lines[ledger.symbols.ids.string(event.id)] = event.line }
      return lines
    }
    #expect(linesByID(fresh)["a3"] == 3)
    #expect(linesByID(store.state.ledger)["a3"] == 3)
  }

}
