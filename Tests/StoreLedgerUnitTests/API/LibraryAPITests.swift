import Dispatch
import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The lines of a repository file.
private func lines(_ path: String) throws -> [String] {
  try String(contentsOfFile: repoPath(path), encoding: .utf8).split(separator: "\n").map(String.init)
}

/// The Events catalog, built in code.
private let eventsCatalogInCode: LedgerCatalog = {
  try! LedgerCatalog(products: [
    .consumable("coins.100", currency: "coins", units: 100),
    .consumable("coins.500", currency: "coins", units: 500),
    .nonRenewing("pass.month", entitlements: ["pro"], duration: "P1M"),
    .nonRenewing("pass.week", entitlements: ["pro"], duration: "P7D"),
    .autoRenewable("pro.annual", group: "pro", level: 1, entitlements: ["pro"], familyShareable: true),
    .nonConsumable("pro.lifetime", entitlements: ["pro"]),
    .autoRenewable("pro.monthly", group: "pro", level: 2, entitlements: ["pro"], familyShareable: true),
    .nonConsumable("trial.14d", entitlements: ["pro"], expiresAfter: "P14D"),
    .autoRenewable("voice.monthly", group: "voice", level: 1, entitlements: ["voice"]),
  ])
}()

@Suite("The library API: test doubles, time, events, errors, streams, imports")
struct LibraryAPITests {
  @Test("an in-memory ledger with a catalog built in code answers like the file log with catalog.json", arguments: [4096, 8])
  func inMemoryMatchesFile(compactionFloor: Int) throws {
    let random = RandomLog(seed: 5, subjects: 10, eventsPerSubject: 30)
    let memory = LedgerStore(inMemory: eventsCatalogInCode)
    memory.state.compactionFloor = compactionFloor
    for start in stride(from: 0, to: random.lines.count, by: 4) {
      // Unstamped, as the file's lines are (the clock would make them known only now).
      let batch = Array(random.lines[start..<min(random.lines.count, start + 4)].joined(separator: "\n").utf8)
      #expect(try memory.append(lines: batch, named: "batch", now: nil).appended > 0)
    }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("log.jsonl").path
    try random.lines.map { $0 + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    let file = try LedgerStore(logPath: log)
    // The same batches appended to a file through an open store.
    let appendedLog = directory.appendingPathComponent("appended.jsonl").path
    let appended = try LedgerStore(logPath: appendedLog, createIfMissing: true)
    appended.state.compactionFloor = compactionFloor
    for start in stride(from: 0, to: random.lines.count, by: 4) {
      let batch = Array(random.lines[start..<min(random.lines.count, start + 4)].joined(separator: "\n").utf8)
      _ = try appended.append(lines: batch, named: "batch", now: nil)
    }
    for (subject, at, asOf) in random.queries(count: 200, seed: 5) {
      let id = SubjectID(rawValue: subject)
      #expect(appended.answer(for: id, at: at, asOf: asOf) == file.answer(for: id, at: at, asOf: asOf), "file store")
    }
    #expect(memory.eventCount == file.eventCount && memory.eventCount == random.lines.count)
    #expect(memory.logPath == "<memory>" && memory.catalogPath == "<catalog>")
    for (subject, at, asOf) in random.queries(count: 200, seed: 5) {
      let id = SubjectID(rawValue: subject)
      #expect(memory.answer(for: id, at: at, asOf: asOf) == file.answer(for: id, at: at, asOf: asOf))
      #expect(memory.explain(for: id, at: at, asOf: asOf) == file.explain(for: id, at: at, asOf: asOf))
    }
  }

  @Test("an open store, in memory or on file, learns an event earlier from a redelivery recorded earlier", arguments: [true, false])
  func learnsEarlier(inMemory: Bool) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try exampleCatalogText.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
    let store = inMemory
      ? LedgerStore(inMemory: eventsCatalogInCode)
      : try LedgerStore(logPath: directory.appendingPathComponent("log.jsonl").path, createIfMissing: true)
    var purchase = NewEvent.purchase(id: "e1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1")
    purchase.recorded = ts("2026-03-09T00:00:00Z")
    #expect(try store.append([purchase]).appended == 1)
    let between = ts("2026-03-05T00:00:00Z")
    #expect(!store.answer(for: "u1", at: between, asOf: between).has("pro"))
    purchase.recorded = ts("2026-03-02T00:00:00Z")
    let report = try store.append([purchase])
    #expect(report.appended == 0 && report.learnedEarlier == 1 && report.duplicates == 0)
    #expect(store.answer(for: "u1", at: between, asOf: between).has("pro"))
    #expect(store.eventCount == 1)
    #expect(try store.append([purchase]).duplicates == 1)
  }

  @Test("a fixed clock stamps recorded on events without one, and only on those")
  func injectedClock() throws {
    let stamp = ts("2026-05-01T12:00:00Z")
    let store = LedgerStore(inMemory: eventsCatalogInCode, clock: .fixed(stamp))
    var early = NewEvent.purchase(
      id: "p1", subject: "s", at: ts("2026-04-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1")
    early.recorded = ts("2026-04-02T00:00:00Z")
    let late = NewEvent.purchase(
      id: "p2", subject: "s2", at: ts("2026-04-01T00:00:00Z"), product: "pro.lifetime", transaction: "t2")
    let report = try store.append([early, late])
    #expect(report.appended == 2 && report.stamped == 1)
    let asOfBetween = ts("2026-04-03T00:00:00Z")
    // Known on 3 April only for the event recorded on 2 April.
    #expect(store.answer(for: "s", at: ts("2026-04-05T00:00:00Z"), asOf: asOfBetween).has("pro"))
    #expect(!store.answer(for: "s2", at: ts("2026-04-05T00:00:00Z"), asOf: asOfBetween).has("pro"))
    #expect(!store.answer(for: "s2", at: ts("2026-04-05T00:00:00Z"), asOf: stamp.adding(milliseconds: -1)).has("pro"))
    #expect(store.answer(for: "s2", at: ts("2026-04-05T00:00:00Z"), asOf: stamp).has("pro"))
  }

  @Test("a log that does not exist opens empty with createIfMissing, and is file_not_found without")
  func newEmptyLog() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("new.jsonl").path
    do {
      _ = try LedgerStore(logPath: log, catalog: eventsCatalogInCode)
      Issue.record("a missing log opened")
    } catch {
      #expect(error.code == .fileNotFound && error.exitCode == 66)
    }
    let store = try LedgerStore(logPath: log, catalog: eventsCatalogInCode, createIfMissing: true)
    #expect(store.eventCount == 0 && FileManager.default.fileExists(atPath: log))
    let report = try store.append([
      .purchase(id: "web-\(1)", subject: "s", at: ts("2026-04-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1")
    ])
    #expect(report.appended == 1)
    #expect(try LedgerStore(logPath: log, catalog: eventsCatalogInCode).answer(for: "s", at: ts("2026-04-02T00:00:00Z")).has("pro"))
  }

  @Test(
    "each kind of bad batch carries its stable code and exit status",
    arguments: [
      (EventLines.line(.purchase(id: "e1", subject: "u9", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "x")), "id_conflict", Int32(65)),
      (EventLines.line(.purchase(id: "n1", subject: "u9", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "u1-t1")), "transaction_reused", 65),
      (EventLines.line(.consumption(id: "n2", subject: "u3", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 100000)), "overdraw", 65),
      (EventLines.line(.purchase(id: "n3", subject: "u9", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetme", transaction: "y")), "unknown_product", 65),
      (#"{"id":"n4","type":"purchase","subject":"u9","at":"2026-01-01T00:00:00Z","product":"pro.lifetime"}"#, "missing_field", 65),
      (#"{"id":"n5","type":"refund","subject":"u9","at":"2026-01-01T00:00:00Z"}"#, "unknown_event_type", 65),
      (#"{"id":"n6","type":"purchase","subject":"u9","at":"2026-01-01","product":"pro.lifetime","transaction":"z"}"#, "invalid_value", 65),
      (#"{"id":"n7""#, "invalid_json", 65),
    ])
  func errorCodes(line: String, code: String, exitCode: Int32) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in ["demo.jsonl", "catalog.json"] {
      try FileManager.default.copyItem(atPath: repoPath("Events/" + name), toPath: directory.appendingPathComponent(name).path)
    }
    let log = directory.appendingPathComponent("demo.jsonl").path
    let store = try LedgerStore(logPath: log)
    let before = try Data(contentsOf: URL(fileURLWithPath: log))
    do {
      _ = try store.append(lines: line)
      Issue.record("accepted \(line)")
    } catch {
      #expect(error.code == DiagnosticCode(rawValue: code), "\(error.diagnostics)")
      #expect(error.diagnostics.first { $0.severity == .error }?.code.rawValue == code)
      #expect(error.exitCode == exitCode)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
  }

  @Test("a diagnostic made in a test keeps its code, words and place; codes code as bare strings")
  func madeDiagnostics() throws {
    let made = Diagnostic(code: .idConflict, message: "id taken", file: "<events>", line: 3)
    let list = DiagnosticList([made])
    #expect(list.code == .idConflict && made.message == "id taken" && made.description == "<events>:3: error: id taken")
    #expect(DiagnosticCode(rawValue: "id_conflict") == .idConflict)
    #expect(String(decoding: try JSONEncoder().encode([DiagnosticCode.overdraw]), as: UTF8.self) == #"["overdraw"]"#)
    #expect(DiagnosticList([]).code == nil)
  }

  @Test(
    "parseUserInput reads what --at reads; parseRFC3339 stays strict",
    arguments: [
      ("2026-03-05", nil as Int?, "2026-03-05T00:00:00Z"),
      ("2026-03-05T12:00:00Z", nil, "2026-03-05T12:00:00Z"),
      ("2026-03-05 12:00:00+02:00", nil, "2026-03-05T10:00:00Z"),
      ("2026-03-05", 120, "2026-03-04T22:00:00Z"),
      ("2026-03-05T12:00", -60, "2026-03-05T13:00:00Z"),
      ("today", nil, "2026-03-05T00:00:00Z"),
      ("yesterday", nil, "2026-03-04T00:00:00Z"),
      ("now", nil, "2026-03-05T15:30:00Z"),
    ])
  func userInput(text: String, offsetMinutes: Int?, expected: String) {
    let now = ts("2026-03-05T15:30:00Z")
    #expect(Timestamp.parseUserInput(text, utcOffsetMinutes: offsetMinutes, now: now) == ts(expected))
    if text.count == 10 { #expect(Timestamp.parseRFC3339(text) == nil) }
  }

  @Test("unreadable user input is nil: a date-time without offset needs one, relative words need a clock")
  func userInputRefused() {
    #expect(Timestamp.parseUserInput("2026-03-05T12:00") == nil)
    #expect(Timestamp.parseUserInput("today") == nil)
    #expect(Timestamp.parseUserInput("5 March") == nil)
  }

  @Test("Timestamp converts to and from Date to the millisecond, and now is the wall clock")
  func dates() {
    let time = ts("2026-03-05T12:34:56.789Z")
    #expect(Timestamp(time.date) == time)
    #expect(Timestamp(Date(timeIntervalSince1970: -0.0005)) == Timestamp(millisecondsSinceEpoch: -1))
    let before = Timestamp(Date())
    let now = Timestamp.now
    #expect(now >= before && now.millisecondsSinceEpoch - before.millisecondsSinceEpoch < 5_000)
  }

  @Test("NewEvent decodes every scenario log line and encodes it back to the same JSON object")
  func newEventIsTheLogLine() throws {
    var count = 0
    for scenario in scenarios {
      for line in try lines("\(scenario.folder)/\(scenario.name).jsonl") where !line.isEmpty {
        let event = try JSONDecoder().decode(NewEvent.self, from: Data(line.utf8))
        let original = try JSONValue.parse(line)
        let encoded = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        // The same members; times as the same instants (written back in UTC).
        let back = try #require(try JSONValue.parse(encoded).objectMembers)
        let members = try #require(original.objectMembers)
        #expect(Set(back.map(\.0)) == Set(members.map(\.0)), "\(line) → \(encoded)")
        for (key, value) in members {
          let other = back.first { $0.0 == key }?.1
          if let text = value.stringValue, let time = Timestamp.parseRFC3339(text), key != "id" {
            #expect(other?.stringValue.flatMap(Timestamp.parseRFC3339) == time, "\(line) → \(encoded)")
          } else {
            #expect(other == value, "\(line) → \(encoded)")
          }
        }
        count += 1
      }
    }
    #expect(count > 200)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(NewEvent.self, from: Data(#"{"id":"a","type":"purchase","subject":"s","at":"2026-01-01T00:00:00Z","prodcut":"x"}"#.utf8))
    }
  }

  @Test("each typed constructor writes the line log-format.md gives for its type")
  func constructors() throws {
    let at = ts("2026-03-01T10:00:00Z")
    let cases: [(NewEvent, String)] = [
      (.purchase(id: "a", subject: "s", at: at, product: "pro.monthly", transaction: "t1", expires: at.adding(milliseconds: 1000), offer: .trial),
       EventLines.line(.purchase(id: "a", subject: "s", at: ts("2026-03-01T10:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-03-01T10:00:01Z"), offer: .trial))),
      (.renewal(id: "b", subject: "s", at: at, product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: at),
       EventLines.line(.renewal(id: "b", subject: "s", at: ts("2026-03-01T10:00:00Z"), product: "pro.monthly", transaction: "t2", originalTransaction: "t1", expires: ts("2026-03-01T10:00:00Z")))),
      (.expiration(id: "c", subject: "s", at: at, originalTransaction: "t1", reason: .priceIncrease),
       EventLines.line(.expiration(id: "c", subject: "s", at: ts("2026-03-01T10:00:00Z"), originalTransaction: "t1", reason: .priceIncrease))),
      (.revocation(id: "d", subject: "s", at: at, transaction: "t2", reason: .refund),
       EventLines.line(.revocation(id: "d", subject: "s", at: ts("2026-03-01T10:00:00Z"), transaction: "t2", reason: .refund))),
      (.autoRenewChanged(id: "e", subject: "s", at: at, originalTransaction: "t1", autoRenew: false),
       EventLines.line(.autoRenewChanged(id: "e", subject: "s", at: ts("2026-03-01T10:00:00Z"), originalTransaction: "t1", autoRenew: false))),
      (.consumption(id: "f", subject: "s", at: at, currency: "coins", quantity: 5),
       EventLines.line(.consumption(id: "f", subject: "s", at: ts("2026-03-01T10:00:00Z"), currency: "coins", quantity: 5))),
      (.usage(id: "g", subject: "s", at: at, feature: "decision_session"),
       EventLines.line(.usage(id: "g", subject: "s", at: ts("2026-03-01T10:00:00Z"), feature: "decision_session"))),
    ]
    for (event, line) in cases {
      var bytes: [UInt8] = []
      event.appendLine(to: &bytes)
      #expect(try JSONValue.parse(bytes: bytes) == JSONValue.parse(line), "\(line)")
    }
    var withMeta = cases[0].0
    withMeta.meta = ["source": "web", "order": "42"]
    let decoded = try JSONDecoder().decode(NewEvent.self, from: try JSONEncoder().encode(withMeta))
    #expect(decoded == withMeta)
  }

  @Test("the change stream delivers this process's appends at once and another process's when it polls")
  func commitStream() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("log.jsonl").path
    let store = try LedgerStore(logPath: log, catalog: eventsCatalogInCode, createIfMissing: true)
    let stream = store.commits(pollingInterval: .milliseconds(20))
    var iterator = stream.makeAsyncIterator()
    _ = try await store.append([
      .purchase(id: "a1", subject: "alice", at: ts("2026-04-01T00:00:00Z"), product: "pro.lifetime", transaction: "ta")
    ])
    let mine = try #require(try await iterator.next())
    #expect(mine.firstLine == 1 && mine.lineCount == 1 && mine.subjects == ["alice"] && mine.events.map(\.id) == ["a1"])
    // Another process: the same log through the CLI's appender.
    _ = try LogAppender.append(
      input: Array(
        (EventLines.line(.purchase(id: "b1", subject: "bob", at: ts("2026-04-01T00:00:00Z"), product: "pro.lifetime", transaction: "tb")) + "\n"
          + EventLines.line(.purchase(id: "b2", subject: "carol", at: ts("2026-04-01T00:00:00Z"), product: "coins.100", transaction: "tc")) + "\n").utf8),
      inputName: "other", logPath: log, catalog: eventsCatalogInCode.catalog, now: ts("2026-04-02T00:00:00Z"))
    let theirs = try #require(try await iterator.next())
    #expect(theirs.firstLine == 2 && theirs.lineCount == 2 && theirs.subjects == ["bob", "carol"])
    #expect(theirs.events.map(\.kind) == [.purchase, .purchase] && theirs.events.map(\.line) == [2, 3])
    #expect(store.answer(for: "bob", at: ts("2026-04-03T00:00:00Z")).has("pro"))
  }
}
