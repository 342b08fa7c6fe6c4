import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

/// A prefix (what the snapshot covers), a tail after it, and what restoring must give.
struct TailCase: Sendable, CustomTestStringConvertible {
  let name: String
  let prefix: [String]
  let tail: [String]
  var testDescription: String { name }
}

@Suite("Snapshots: restore with a tail settles like a full fold")
struct SnapshotTailTests {
  static let catalogPath = repoPath("Events/catalog.json")

  static let cases: [TailCase] = [
    TailCase(
      name: "a redelivery in the tail makes a prefix event known earlier",
      prefix: [
        EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")).recordedAt("2026-01-10T00:00:00Z")),
        EventLines.line(.purchase(id: "c1", subject: "u2", at: ts("2026-01-02T00:00:00Z"), product: "coins.100", transaction: "t9")),
      ],
      tail: [
        EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")).recordedAt("2026-01-03T00:00:00Z"))
      ]),
    TailCase(
      name: "late tail events land before the prefix's instants: a refund, then a renewal dated earlier",
      prefix: [
        EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z"))),
        EventLines.line(.renewal(id: "r2", subject: "u1", at: ts("2026-02-01T00:00:00Z"), product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: ts("2026-03-01T00:00:00Z"))),
        EventLines.line(.expiration(id: "x1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), originalTransaction: "t1")),
      ],
      tail: [
        EventLines.line(.revocation(id: "v1", subject: "u1", at: ts("2026-01-15T00:00:00Z"), transaction: "t1", reason: .refund).recordedAt("2026-03-05T00:00:00Z")),
        EventLines.line(.autoRenewChanged(id: "a1", subject: "u1", at: ts("2026-02-10T00:00:00Z"), originalTransaction: "t1", autoRenew: false)),
        EventLines.line(.purchase(id: "q1", subject: "u3", at: ts("2025-12-01T00:00:00Z"), product: "pro.lifetime", transaction: "t7")),
      ]),
    TailCase(
      name: "a tail spend dated between a prefix purchase and a prefix spend, within the balance",
      prefix: [
        EventLines.line(.purchase(id: "c1", subject: "u2", at: ts("2026-03-01T00:00:00Z"), product: "coins.500", transaction: "g1")),
        EventLines.line(.consumption(id: "s1", subject: "u2", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: 200)),
      ],
      tail: [
        EventLines.line(.consumption(id: "s2", subject: "u2", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 300))
      ]),
    TailCase(
      name: "transfers in the prefix and in the tail: a unit moved on, another moved to an id with no lines",
      prefix: transferPrefix, tail: transferTail),
    TailCase(name: "a transfer in the prefix, a tail without one", prefix: transferPrefix, tail: tailWithoutTransfer),
  ]

  /// After `transferPrefix`: `t1` moved on from `u2` to `u5` (no lines), `l1` from `u1` to `u3`.
  static let transferTail = [
    EventLines.line(.transfer(id: "x2", subject: "u2", at: ts("2026-01-20T00:00:00Z"), to: "u5", originalTransaction: "t1")),
    EventLines.line(.purchase(id: "c3", subject: "u3", at: ts("2026-01-12T00:00:00Z"), product: "coins.100", transaction: "t8")),
    EventLines.line(.transfer(id: "x3", subject: "u1", at: ts("2026-01-15T00:00:00Z"), to: "u3", transaction: "l1")),
  ]

  /// After `transferPrefix`: a purchase of another subject, no transfer.
  static let tailWithoutTransfer = [
    EventLines.line(.purchase(id: "c4", subject: "u4", at: ts("2026-01-25T00:00:00Z"), product: "coins.100", transaction: "t6"))
  ]

  /// `u1` buys monthly Pro (`t1`) and a lifetime unlock (`l1`), then moves `t1` to `u2`.
  static let transferPrefix = [
    EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z"))),
    EventLines.line(.purchase(id: "l1", subject: "u1", at: ts("2026-01-02T00:00:00Z"), product: "pro.lifetime", transaction: "l1")),
    EventLines.line(.purchase(id: "c2", subject: "u2", at: ts("2026-01-03T00:00:00Z"), product: "coins.100", transaction: "t9")),
    EventLines.line(.transfer(id: "x1", subject: "u1", at: ts("2026-01-10T00:00:00Z"), to: "u2", originalTransaction: "t1")),
  ]

  /// The owner chains, named: each unit with its steps (line, from, to) and its charges.
  static func ownerChains(_ ledger: Ledger) -> [String] {
    let owners = ledger.owners
    return owners.units.map { unit in
      let steps = unit.steps.map { "\($0.transfer.line) \(owners.partyNames[Int($0.from)])>\(owners.partyNames[Int($0.to)])" }
      let charges = unit.charges.map { ledger.symbols.transactions.string($0) }
      return "\(ledger.symbols.transactions.string(unit.name)): \(steps.joined(separator: ", ")); charges \(charges.joined(separator: ","))"
    }
  }

  @Test(
    "with transfers, the restored owner chains are the full load's: empty tail, a tail without transfers, a tail with them",
    arguments: [(1, [String]()), (1, tailWithoutTransfer), (2, transferTail)])
  func ownerChainsLikeFullLoad(units: Int, tail: [String]) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (logPath, snapshotPath) = try Self.files(TailCase(name: "owners", prefix: Self.transferPrefix, tail: tail), in: directory, catalog: catalog)
    let full = try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog
    ).ledger
    #expect(Self.ownerChains(full).count == units)
    #expect(Self.ownerChains(restored) == Self.ownerChains(full))
    #expect(restored.owners.partyNames == full.owners.partyNames)
  }

  @Test("a snapshot's decode lists exactly the subjects with a transfer, ascending")
  func decodeListsTransferSubjects() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let prefix = Self.transferPrefix + Self.transferTail
    let (_, snapshotPath) = try Self.files(TailCase(name: "decode", prefix: prefix, tail: []), in: directory, catalog: catalog)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
    let restored = try SnapshotReader.read(bytes, file: snapshotPath, catalog: catalog).ledger
    let names = try #require(restored.transferSubjects).map { restored.symbols.subjects.string($0) }
    #expect(names.sorted() == ["u1", "u2"])
    #expect(restored.transferSubjects == restored.transferSubjects?.sorted())
  }

  /// The prefix and the whole log written in a fresh directory, a snapshot of the prefix beside them.
  private static func files(_ tailCase: TailCase, in directory: URL, catalog: Catalog) throws -> (log: String, snapshot: String) {
    let prefixPath = directory.appendingPathComponent("prefix.jsonl").path
    let logPath = directory.appendingPathComponent("log.jsonl").path
    try (tailCase.prefix.map { $0 + "\n" }.joined()).write(toFile: prefixPath, atomically: true, encoding: .utf8)
    try ((tailCase.prefix + tailCase.tail).map { $0 + "\n" }.joined()).write(toFile: logPath, atomically: true, encoding: .utf8)
    let (ledger, extent) = try LedgerLoader.load(logPath: prefixPath, catalog: catalog)
    let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: prefixPath, catalogPath: catalogPath)
    let snapshotPath = directory.appendingPathComponent("prefix.snapshot").path
    try SnapshotFiles.write(SnapshotWriter.write(ledger, header: header), to: snapshotPath)
    return (logPath, snapshotPath)
  }

  @Test("the restored ledger answers like a full fold at every edge instant and knowledge time", arguments: cases)
  func answersLikeFullFold(tailCase: TailCase) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (logPath, snapshotPath) = try Self.files(tailCase, in: directory, catalog: catalog)
    let full = try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog
    ).ledger
    #expect(restored.events.count == full.events.count)
    #expect(restored.duplicatesSkipped == full.duplicatesSkipped)
    #expect(restored.warnings.map(\.description) == full.warnings.map(\.description))
    var expected = QueryEngine(ledger: full)
    var actual = QueryEngine(ledger: restored)
    let subjects = (0..<full.subjectCount).map { full.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    let edges = Set(full.events.flatMap { e in [e.at, e.recorded] + (e.hasExpires ? [e.expires] : []) })
      .flatMap { [$0, $0.adding(milliseconds: -1)] }.sorted()
    let knowledge: [Timestamp?] = [nil] + edges.map { Optional($0) }
    for subject in subjects {
      for at in edges {
        for asOf in knowledge {
          let want = expected.answer(subject: subject, at: at, asOf: asOf, explain: true)
          #expect(actual.answer(subject: subject, at: at, asOf: asOf, explain: true) == want, "\(subject) at \(at) as of \(String(describing: asOf))")
        }
      }
    }
  }

  @Test("the redelivery's earlier knowledge time replaces the snapshot's, so an as-of answer between them sees the purchase")
  func knownEarlier() throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (logPath, snapshotPath) = try Self.files(Self.cases[0], in: directory, catalog: catalog)
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog
    ).ledger
    #expect(restored.duplicatesSkipped == 1)
    var engine = QueryEngine(ledger: restored)
    // Known from 3 Jan (the redelivery), not 10 Jan (the snapshot's line).
    let answer = engine.answer(subject: "u1", at: ts("2026-01-05T00:00:00Z"), asOf: ts("2026-01-05T00:00:00Z"), explain: false)
    let before = engine.answer(subject: "u1", at: ts("2026-01-05T00:00:00Z"), asOf: ts("2026-01-02T23:59:59.999Z"), explain: false)
    #expect(answer != before)
    var fullEngine = QueryEngine(ledger: try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger)
    #expect(answer == fullEngine.answer(subject: "u1", at: ts("2026-01-05T00:00:00Z"), asOf: ts("2026-01-05T00:00:00Z"), explain: false))
  }

  @Test(
    "a tail that overdraws a balance is refused with the full fold's diagnostics, also when the spend is dated before the prefix's",
    arguments: [
      EventLines.line(.consumption(id: "s9", subject: "u2", at: ts("2026-03-09T00:00:00Z"), currency: "coins", quantity: 400)),
      EventLines.line(.consumption(id: "s9", subject: "u2", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 400)),
    ])
  func overdraw(spend: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let tailCase = TailCase(name: "overdraw", prefix: Self.cases[2].prefix, tail: [spend])
    let (logPath, snapshotPath) = try Self.files(tailCase, in: directory, catalog: catalog)
    var fullErrors: [String] = []
    do { _ = try LedgerLoader.load(logPath: logPath, catalog: catalog) } catch { fullErrors = error.diagnostics.map(\.description) }
    #expect(fullErrors.contains { $0.contains("overdraw") }, "\(fullErrors)")
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
      Issue.record("restored a log whose tail overdraws")
    } catch {
      #expect(error.exitCode == 65)
      #expect(error.diagnostics.map(\.description) == fullErrors)
    }
  }

  /// Tail lines that the log-wide rules refuse against a prefix event (the builder's id and charge
  /// indexes over the restored events), and the phrase of the refusal.
  static let refusedTails: [(String, String)] = [
    (EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "t1", expires: ts("2027-01-01T00:00:00Z"))), "p1"),
    (EventLines.line(.purchase(id: "p1", subject: "u9", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-02-01T00:00:00Z")).recordedAt("2026-01-10T00:00:00Z")), "p1"),
    (EventLines.line(.purchase(id: "c2", subject: "u3", at: ts("2026-01-05T00:00:00Z"), product: "coins.100", transaction: "t9")), "t9"),
    // Owner chains are a log-wide rule: a tail transfer of a prefix unit from a subject without it.
    (EventLines.line(.transfer(id: "x9", subject: "u9", at: ts("2026-01-05T00:00:00Z"), to: "u8", originalTransaction: "t1")), "u9"),
  ]

  @Test("a tail line that conflicts with a prefix event's id or reuses its transaction is refused with the full load's diagnostics", arguments: refusedTails)
  func refusedTail(line: String, names: String) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let tailCase = TailCase(name: "refused", prefix: Self.cases[0].prefix, tail: [line])
    let (logPath, snapshotPath) = try Self.files(tailCase, in: directory, catalog: catalog)
    var fullErrors: [String] = []
    do { _ = try LedgerLoader.load(logPath: logPath, catalog: catalog) } catch { fullErrors = error.diagnostics.map(\.description) }
    #expect(fullErrors.count == 1 && fullErrors[0].contains(names) && fullErrors[0].contains(":3"), "\(fullErrors)")
    do {
      _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
      Issue.record("restored a log whose tail breaks a log-wide rule")
    } catch {
      #expect(error.exitCode == 65)
      #expect(error.diagnostics.map(\.description) == fullErrors)
    }
  }

  @Test("an exact redelivery of a prefix event in the tail is skipped, and an empty tail restores the prefix as it was", arguments: [true, false])
  func redeliveredOrEmpty(redeliver: Bool) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let prefix = Self.cases[0].prefix
    let tailCase = TailCase(name: "redelivered", prefix: prefix, tail: redeliver ? [prefix[1], prefix[0]] : [])
    let (logPath, snapshotPath) = try Self.files(tailCase, in: directory, catalog: catalog)
    let full = try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog
    ).ledger
    #expect(restored.events.count == 2 && full.events.count == 2)
    #expect(restored.duplicatesSkipped == (redeliver ? 2 : 0) && restored.duplicatesSkipped == full.duplicatesSkipped)
    #expect(restored.linesRead == full.linesRead)
    for id in ["p1", "c1"] {
      let event = try #require(restored.events.first { restored.symbols.ids.string($0.id) == id })
      let fullEvent = try #require(full.events.first { full.symbols.ids.string($0.id) == id })
      #expect(event.line == fullEvent.line && event.recorded == fullEvent.recorded)
    }
  }
}
