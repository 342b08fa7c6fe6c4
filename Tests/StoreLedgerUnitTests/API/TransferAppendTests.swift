import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerStorage

/// Appends of transfers (contract v1.3, section 9) through an open `LedgerStore`, the CLI's
/// appender and the index: each answers as a fresh load of the whole log does.
@Suite("Transfers appended to an open ledger, through the appender and the index")
struct TransferAppendTests {
  static let scenario = repoPath("Events/v13-support.jsonl")

  /// The scenario's lines, and every (subject, at, as of) its queries ask plus each line's edge instants.
  static func material() throws -> (lines: [String], questions: [(String, Timestamp, Timestamp?)]) {
    let lines = try String(contentsOfFile: scenario, encoding: .utf8).split(separator: "\n").map(String.init)
    var questions: [(String, Timestamp, Timestamp?)] = []
    let queries = try String(contentsOfFile: repoPath("Events/v13-support.queries.jsonl"), encoding: .utf8)
    for query in queries.split(separator: "\n") {
      let q = try JSONValue.parse(String(query))
      questions.append((q["subject"]!.stringValue!, ts(q["at"]!.stringValue!), q["as_of"]?.stringValue.map(ts)))
    }
    for line in lines where line.contains(#""type":"transfer""#) {
      let q = try JSONValue.parse(line)
      let at = ts(q["at"]!.stringValue!)
      let recorded = q["recorded"]?.stringValue.map(ts) ?? at
      for subject in [q["subject"]!.stringValue!, q["to"]!.stringValue!] {
        for (t, r) in [(at, nil), (at.adding(milliseconds: -1), nil), (at, recorded), (at, recorded.adding(milliseconds: -1))] {
          questions.append((subject, t, r))
        }
      }
    }
    return (lines, questions)
  }

  /// An open ledger over an empty log in `directory`, with the example catalog beside it.
  static func emptyStore(in directory: URL) throws -> LedgerStore {
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try "".write(toFile: log, atomically: true, encoding: .utf8)
    return try LedgerStore(logPath: log)
  }

  @Test("an open ledger fed the v1.3 scenario a few lines at a time answers every question as a fresh load")
  func openLedgerAppends() throws {
    let (lines, questions) = try Self.material()
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try (lines[0] + "\n").write(toFile: log, atomically: true, encoding: .utf8)
    let store = try LedgerStore(logPath: log)
    var next = 1
    while next < lines.count {
      let end = min(lines.count, next + 3)
      let batch = Array(lines[next..<end].map { $0 + "\n" }.joined().utf8)
      if next % 2 == 0 {
        _ = try LogAppender.append(input: batch, inputName: "other", logPath: log, catalog: store.catalog, now: nil)
        try store.refresh()
      } else {
        _ = try store.append(lines: batch, named: "batch", now: nil)
      }
      next = end
    }
    let fresh = try LedgerLoader.load(logPath: log, catalog: store.catalog).ledger
    var engine = QueryEngine(ledger: fresh)
    for (subject, at, asOf) in questions {
      let expected = engine.answer(subject: subject, at: at, asOf: asOf)
      #expect(store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf) == expected, "\(subject) at \(at)")
    }
  }

  @Test("an append that breaks an owner chain is refused naming the line, and nothing is written")
  func brokenChainRefused() throws {
    let (lines, _) = try Self.material()
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try lines.map { $0 + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    // m1 moved ana → ben → ana; a transfer from ben after that breaks the chain.
    let broken = EventLines.line(.transfer(id: "bad", subject: "ben", at: ts("2026-03-10T00:00:00Z"), to: "zed", originalTransaction: "m1")) + "\n"
    let store = try LedgerStore(logPath: log)
    do {
      _ = try store.append(lines: Array(broken.utf8), named: "input", now: nil)
      Issue.record("the broken chain was accepted")
    } catch {
      #expect(error.diagnostics.first?.code == .ownerChain)
      #expect(error.diagnostics.first?.message.contains("moved it to 'ana' before") == true, "\(error.diagnostics)")
    }
    do {
      _ = try LogAppender.append(input: Array(broken.utf8), inputName: "input", logPath: log, catalog: store.catalog, now: nil)
      Issue.record("the broken chain was accepted by the appender")
    } catch {
      #expect(error.diagnostics.first?.code == .ownerChain)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
  }

  @Test("the typed constructors of transfers, grants and blocks append lines the ledger folds as the contract says")
  func typedConstructors() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Self.emptyStore(in: directory)
    let at = { (text: String) in ts(text) }
    _ = try store.append([
      .purchase(id: "p1", subject: "a", at: at("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "l1"),
      .transfer(id: "t1", subject: "a", at: at("2026-01-10T00:00:00Z"), to: "b", transaction: "l1"),
      .grant(id: "g1", subject: "c", at: at("2026-01-01T00:00:00Z"), entitlements: ["pro"], expires: at("2026-02-01T00:00:00Z")),
      .block(id: "k1", subject: "c", at: at("2026-01-05T00:00:00Z"), service: "fraud"),
      .unblock(id: "k2", subject: "c", at: at("2026-01-07T00:00:00Z"), service: "fraud"),
    ])
    #expect(store.answer(for: "b", at: at("2026-01-10T00:00:00Z")).has("pro"))
    #expect(!store.answer(for: "a", at: at("2026-01-10T00:00:00Z")).has("pro"))
    #expect(store.answer(for: "a", at: at("2026-01-09T23:59:59.999Z")).has("pro"))
    #expect(store.answer(for: "c", at: at("2026-01-04T00:00:00Z")).has("pro"))
    #expect(!store.answer(for: "c", at: at("2026-01-06T00:00:00Z")).has("pro"))
    #expect(store.answer(for: "c", at: at("2026-01-07T00:00:00Z")).has("pro"))
    #expect(!store.answer(for: "c", at: at("2026-02-01T00:00:00Z")).has("pro"))
  }

  @Test("the typed constructors of v1.3 fields and notices write the scenario's own lines", arguments: [
    (1, NewEvent.purchase(
      id: "t1", subject: "ana", at: ts("2026-01-01T09:00:00Z"), product: "pro.monthly", transaction: "m1",
      expires: ts("2026-02-01T09:00:00Z"), price: 4990, currency: "USD", country: "US", proceeds: 3493)),
    (8, .renewal(
      id: "t6", subject: "ana", at: ts("2026-03-04T09:00:00Z"), product: "pro.monthly", transaction: "m3",
      originalTransaction: "m1", expires: ts("2026-04-04T09:00:00Z"), store: "appstore")),
    (11, .grantRevoked(id: "g3", subject: "eve", at: ts("2026-03-10T00:00:00Z"), grant: "g1", reason: "granted by mistake")),
    (23, .revocation(
      id: "r4", subject: "gia", at: ts("2026-01-05T00:00:00Z"), transaction: "c1", reason: .refund, refunded: 990, quantity: 1)),
    (27, .refundRequested(
      id: "q2", subject: "hal", at: ts("2026-05-02T10:00:00Z"), transaction: "p1", reason: .unsatisfied,
      respondBy: ts("2026-05-02T22:00:00Z"))),
    (28, .refundDeclined(id: "q3", subject: "hal", at: ts("2026-05-02T20:00:00Z"), transaction: "p1")),
  ])
  func v13Constructors(line: Int, event: NewEvent) throws {
    let lines = try String(contentsOfFile: Self.scenario, encoding: .utf8).split(separator: "\n")
    #expect(event.jsonValue == (try JSONValue.parse(String(lines[line - 1]))), "line \(line)")
  }

  @Test("the change stream names every subject a transfer joins: the receiver, and a unit's owner when its lines change")
  func commitsNameTheGroup() async throws {
    let (lines, _) = try Self.material()
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Self.emptyStore(in: directory)
    var iterator = store.commits(pollingInterval: nil).makeAsyncIterator()
    // Lines 1-6: ana buys m1, cleo buys l1, ana → ben, ben renews m1, ben → ana, cleo → dan.
    let expected: [[SubjectID]] = [["ana"], ["cleo"], ["ana", "ben"], ["ana", "ben"], ["ana", "ben"], ["cleo", "dan"], ["ana", "ben"]]
    for (line, subjects) in zip(lines, expected) {
      _ = try store.append(lines: Array((line + "\n").utf8), named: "input", now: nil)
      let batch = try #require(try await iterator.next())
      #expect(batch.subjects == subjects, "\(line)")
    }
  }

  @Test("an open ledger takes a transfer onward from a subject that a transfer alone named, as a fresh load does")
  func onwardFromReceiverWithoutLines() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Self.emptyStore(in: directory)
    let lines = [
      EventLines.line(.purchase(id: "p1", subject: "ana", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "l1")),
      EventLines.line(.transfer(id: "x1", subject: "ana", at: ts("2026-02-01T00:00:00Z"), to: "ben", transaction: "l1")),
      EventLines.line(.transfer(id: "x2", subject: "ben", at: ts("2026-03-01T00:00:00Z"), to: "cy", transaction: "l1")),
    ]
    for line in lines { _ = try store.append(lines: Array((line + "\n").utf8), named: "input", now: nil) }
    for (subject, has) in [("ana", false), ("ben", false), ("cy", true)] {
      #expect(store.answer(for: SubjectID(rawValue: subject), at: ts("2026-03-02T00:00:00Z")).has("pro") == has, "\(subject)")
    }
    #expect(store.answer(for: "ben", at: ts("2026-02-02T00:00:00Z")).has("pro"))
  }
  // The store rebuilds its owner chains only after a batch whose refold has transfers: a batch
  // that skips the rebuild must leave every answer as a fresh load of the log so far gives.
  @Test("an open ledger fed a generated v1.3 log with transfers in uneven batches answers, after each batch, at every transfer's edges, as a fresh load")
  func generatedBatches() throws {
    let options = GeneratorOptions(subjects: 80, seed: 45, usage: .none, contract: .v1_3, transfers: true)
    let lines = generatedLog(options).bytes.split(separator: 10).map { Array($0) + [10] }
    let transfers = try Contract13ReadPathTests.transfers(in: generatedLog(options).bytes)
    #expect(transfers.count >= 2)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try LogGenerator.catalogJSON.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try "".write(toFile: log, atomically: true, encoding: .utf8)
    let store = try LedgerStore(logPath: log)
    var random = SeededGenerator(seed: 45)
    var (next, batches, compared) = (0, 0, 0)
    while next < lines.count {
      let end = min(lines.count, next + Int.random(in: 1...(lines.count / 12), using: &random))
      _ = try store.append(lines: Array(lines[next..<end].joined()), named: "batch", now: nil)
      next = end
      batches += 1
      guard batches % 3 == 0 || next == lines.count else { continue }
      var engine = QueryEngine(ledger: try LedgerLoader.load(logPath: log, catalog: store.catalog).ledger)
      for transfer in transfers {
        for subject in transfer.subjects {
          for (at, asOf) in [(transfer.at, nil), (transfer.at.adding(milliseconds: -1), nil), (transfer.at, transfer.recorded.adding(milliseconds: -1))] {
            let expected = engine.answer(subject: subject, at: at, asOf: asOf)
            #expect(store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf) == expected, "batch \(batches): \(subject) at \(at)")
            compared += 1
          }
        }
      }
    }
    #expect(compared > 100)
  }
}
