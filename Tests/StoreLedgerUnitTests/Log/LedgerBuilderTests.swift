import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Log-wide rules: idempotency, conflicts, charges, overdraw")
struct LedgerBuilderTests {
  @Test("a redelivery equal as JSON ignoring recorded is skipped and counted")
  func redelivery() throws {
    let ledger = try ledger(
      #"""
      {"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","meta":{"a":1,"b":[true,null]}}
      {"meta":{"b":[true,null],"a":1.0}, "transaction":"t1","product":"pro.lifetime","at":"2026-03-01T13:00:00+01:00","subject":"u1","type":"purchase","id":"e1","recorded":"2026-03-09T00:00:00Z"}
      """#)
    #expect(ledger.duplicatesSkipped == 1)
    #expect(ledger.events.count == 1)
    #expect(ledger.events[0].line == 1)
  }

  @Test(
    "a redelivery recorded earlier makes the event known from that earlier time; one recorded later changes nothing",
    arguments: [
      (#","recorded":"2026-03-05T00:00:00Z""#, "2026-03-05T00:00:00.000Z", true),
      (#","recorded":"2026-03-12T00:00:00Z""#, "2026-03-09T00:00:00.000Z", false),
      ("", "2026-03-01T12:00:00.000Z", true),
    ])
  func redeliveryRecordedEarlier(recorded: String, knownFrom: String, lowered: Bool) throws {
    let first = #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","recorded":"2026-03-09T00:00:00Z"}"#
    let again = #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1"\#(recorded)}"#
    var builder = LedgerBuilder(catalog: try catalog(exampleCatalogText), file: "log.jsonl")
    let outcomes = [first, again].enumerated().map { index, line in
      Array(line.utf8).withUnsafeBufferPointer { builder.add(line: $0, lineNumber: index + 1) }
    }
    #expect(outcomes[1] == (lowered ? .learnedEarlier(firstLine: 1) : .duplicate(firstLine: 1)))
    guard case .success(let ledger) = builder.finish() else { Issue.record("the log was refused"); return }
    #expect(ledger.duplicatesSkipped == 1)
    #expect(ledger.events.map(\.recorded) == [ts(knownFrom)])
    var engine = QueryEngine(ledger: ledger)
    let justBefore = Timestamp(millisecondsSinceEpoch: ts(knownFrom).millisecondsSinceEpoch - 1)
    #expect(engine.checkedAnswer("u1", at: "2026-03-20T00:00:00Z", asOf: knownFrom).entitlements.keys.sorted() == ["pro"])
    #expect(engine.checkedAnswer("u1", at: "2026-03-20T00:00:00Z", asOf: justBefore.rfc3339).entitlements.isEmpty)
  }

  @Test("a log's tail after a snapshot can tell of a restored event earlier, as the whole log would")
  func redeliveryRecordedEarlierAfterRestore() throws {
    let first = #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","recorded":"2026-03-09T00:00:00Z"}"#
    let again = #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","recorded":"2026-03-02T00:00:00Z"}"#
    var builder = LedgerBuilder(restoring: try ledger(first), file: "log.jsonl")
    #expect(Array(again.utf8).withUnsafeBufferPointer { builder.add(line: $0, lineNumber: 2) } == .learnedEarlier(firstLine: 1))
    guard case .success(let restored) = builder.finish() else { Issue.record("the tail was refused"); return }
    let whole = try ledger(first + "\n" + again)
    #expect(restored.events.map(\.recorded) == [ts("2026-03-02T00:00:00Z")])
    #expect(whole.events.map(\.recorded) == restored.events.map(\.recorded))
  }

  @Test("a refund made known before a spend by a redelivery in a snapshot's tail makes that spend an overdraw, as in the whole log")
  func refundLearnedEarlierAfterRestore() throws {
    let log = #"""
      {"id":"p1","type":"purchase","subject":"coins","at":"2026-01-01T00:00:00Z","product":"coins.100","transaction":"c1"}
      {"id":"s1","type":"consumption","subject":"coins","at":"2026-01-03T00:00:00Z","currency":"coins","quantity":100}
      {"id":"r1","type":"revocation","subject":"coins","at":"2026-01-02T00:00:00Z","transaction":"c1","reason":"refund","recorded":"2026-01-05T00:00:00Z"}
      """#
    let again = #"{"id":"r1","type":"revocation","subject":"coins","at":"2026-01-02T00:00:00Z","transaction":"c1","reason":"refund","recorded":"2026-01-02T00:00:00Z"}"#
    let whole = try errors(log + "\n" + again)
    #expect(whole.map(\.code) == [.overdraw])
    var builder = LedgerBuilder(restoring: try ledger(log), file: "log.jsonl")
    #expect(Array(again.utf8).withUnsafeBufferPointer { builder.add(line: $0, lineNumber: 4) } == .learnedEarlier(firstLine: 3))
    guard case .failure(let list) = builder.finish() else { Issue.record("the tail was accepted"); return }
    #expect(list.diagnostics.filter { $0.severity == .error }.map(\.description) == whole.map(\.description))
  }

  @Test(
    "the same id with different content is a conflict naming both lines",
    arguments: [
      #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t9"}"#,
      #"{"id":"e1","type":"purchase","subject":"u2","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1"}"#,
      #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","meta":{"a":2}}"#,
      #"{"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","offer":"promo"}"#,
    ])
  func conflict(second: String) throws {
    let diagnostics = try errors(
      #"""
      {"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime","transaction":"t1","meta":{"a":1}}
      {"id":"e0","type":"purchase_pending","subject":"u1","at":"2026-03-01T12:00:00Z","product":"pro.lifetime"}
      """# + "\n" + second)
    try #require(diagnostics.count == 1)
    #expect(diagnostics[0].line == 3)
    #expect(diagnostics[0].message.contains("id conflict: 'e1' was first used on line 1"))
  }

  @Test("a transaction charged twice under another id is an error")
  func transactionTwice() throws {
    let diagnostics = try errors(
      #"""
      {"id":"e1","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"coins.100","transaction":"t1"}
      {"id":"e2","type":"purchase","subject":"u1","at":"2026-03-01T12:00:00Z","product":"coins.100","transaction":"t1"}
      """#)
    #expect(diagnostics.map(\.line) == [2])
    #expect(diagnostics.first?.message.contains("transaction 't1' was already charged by the event on line 1") == true)
  }

  @Test("spending more than the balance just before it, in effective order, is an overdraw")
  func overdraw() throws {
    // The purchase is written later but effective earlier: the spend is covered.
    _ = try ledger(
      #"""
      {"id":"s1","type":"consumption","subject":"u1","at":"2026-03-02T00:00:00Z","currency":"coins","quantity":100}
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"t1"}
      """#)
    let diagnostics = try errors(
      #"""
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"t1"}
      {"id":"s1","type":"consumption","subject":"u1","at":"2026-03-02T00:00:00Z","currency":"coins","quantity":60}
      {"id":"s2","type":"consumption","subject":"u1","at":"2026-03-03T00:00:00Z","currency":"coins","quantity":41}
      {"id":"s3","type":"consumption","subject":"u2","at":"2026-03-03T00:00:00Z","currency":"gems","quantity":1}
      """#)
    #expect(diagnostics.map(\.line) == [3, 4])
    #expect(diagnostics.first?.message.contains("overdraw: spending 41 coins with a balance of 40") == true)
  }

  @Test("a refund known before a spend, effective before it, makes that spend an overdraw")
  func knownRefundBeforeSpend() throws {
    let diagnostics = try errors(
      #"""
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"t1"}
      {"id":"s1","type":"consumption","subject":"u1","at":"2026-03-03T00:00:00Z","currency":"coins","quantity":50}
      {"id":"r1","type":"revocation","subject":"u1","at":"2026-03-02T00:00:00Z","recorded":"2026-03-03T00:00:00Z","transaction":"t1"}
      """#)
    #expect(diagnostics.map(\.line) == [2])
  }

  @Test("a refund learned after a spend is accepted and the balance goes negative from the refund's at")
  func lateRefundBeforeSpend() throws {
    let ledger = try ledger(
      #"""
      {"id":"p1","type":"purchase","subject":"coins","at":"2026-01-01T00:00:00Z","product":"coins.100","transaction":"c1"}
      {"id":"s1","type":"consumption","subject":"coins","at":"2026-01-03T00:00:00Z","currency":"coins","quantity":100}
      {"id":"r1","type":"revocation","subject":"coins","at":"2026-01-02T00:00:00Z","transaction":"c1","reason":"refund","recorded":"2026-01-05T00:00:00Z"}
      """#)
    var engine = QueryEngine(ledger: ledger)
    let balance = { (at: String, asOf: String?) in
      engine.checkedAnswer("coins", at: at, asOf: asOf).balances.byName.first?.value
    }
    #expect(balance("2026-01-04T00:00:00Z", "2026-01-04T00:00:00Z") == 0)
    #expect(balance("2026-01-04T00:00:00Z", "2026-01-05T00:00:00Z") == -100)
    #expect(balance("2026-01-02T00:00:00Z", nil) == 0)
    #expect(balance("2026-01-01T23:59:59.999Z", nil) == 100)
    #expect(balance("2026-01-04T00:00:00Z", nil) == -100)
  }

  @Test("a refund recorded at the spend's own recorded instant counts as known")
  func refundRecordedWithSpend() throws {
    let diagnostics = try errors(
      #"""
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"t1"}
      {"id":"s1","type":"consumption","subject":"u1","at":"2026-03-03T00:00:00Z","recorded":"2026-03-04T00:00:00Z","currency":"coins","quantity":50}
      {"id":"r1","type":"revocation","subject":"u1","at":"2026-03-02T00:00:00Z","recorded":"2026-03-04T00:00:00Z","transaction":"t1"}
      """#)
    #expect(diagnostics.map(\.line) == [2])
  }

  @Test("a reversal goes with its late refund: a spend the balance covered stays valid")
  func lateRefundAndReversal() throws {
    let ledger = try ledger(
      #"""
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"t1"}
      {"id":"r1","type":"revocation","subject":"u1","at":"2026-03-02T00:00:00Z","recorded":"2026-03-10T00:00:00Z","transaction":"t1"}
      {"id":"x1","type":"refund_reversed","subject":"u1","at":"2026-03-02T12:00:00Z","recorded":"2026-03-10T00:00:00Z","transaction":"t1"}
      {"id":"s1","type":"consumption","subject":"u1","at":"2026-03-03T00:00:00Z","currency":"coins","quantity":100}
      """#)
    #expect(ledger.events.count == 4)
    let spendAfterBoth = try errors(
      #"""
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"t1"}
      {"id":"r1","type":"revocation","subject":"u1","at":"2026-03-02T00:00:00Z","recorded":"2026-03-10T00:00:00Z","transaction":"t1"}
      {"id":"s1","type":"consumption","subject":"u1","at":"2026-03-03T00:00:00Z","currency":"coins","quantity":100}
      {"id":"s2","type":"consumption","subject":"u1","at":"2026-03-11T00:00:00Z","currency":"coins","quantity":1}
      """#)
    #expect(spendAfterBoth.map(\.line) == [4])
  }

  @Test("a reversal learned after a spend, of a refund known before it, still counts: the spend was covered")
  func lateReversalOfKnownRefund() throws {
    func log(spending quantity: Int) -> String {
      #"""
      {"id":"p1","type":"purchase","subject":"u","at":"2026-03-01T00:00:00Z","product":"coins.100","transaction":"c1"}
      {"id":"r1","type":"revocation","subject":"u","at":"2026-03-02T00:00:00Z","transaction":"c1","reason":"refund"}
      {"id":"s1","type":"consumption","subject":"u","at":"2026-03-05T00:00:00Z","currency":"coins","quantity":\#(quantity)}
      {"id":"x1","type":"refund_reversed","subject":"u","at":"2026-03-03T00:00:00Z","recorded":"2026-03-10T00:00:00Z","transaction":"c1"}
      """#
    }
    var engine = QueryEngine(ledger: try ledger(log(spending: 40)))
    let balance = { (at: String, asOf: String?) in engine.checkedAnswer("u", at: at, asOf: asOf).balances.byName.first?.value }
    #expect(balance("2026-03-06T00:00:00Z", nil) == 60)
    #expect(balance("2026-03-06T00:00:00Z", "2026-03-06T00:00:00Z") == -40)
    #expect(balance("2026-03-06T00:00:00Z", "2026-03-10T00:00:00Z") == 60)
    // Spending past the balance the reversal restores is an overdraw all the same.
    #expect(try errors(log(spending: 101)).map(\.line) == [3])
  }

  @Test("an event naming a subscription the subject has no purchase for yet changes nothing and warns")
  func unknownReference() throws {
    let ledger = try ledger(
      #"""
      {"id":"b1","type":"billing_retry","subject":"u1","at":"2026-02-01T00:00:00Z","original_transaction":"t1"}
      {"id":"p1","type":"purchase","subject":"u1","at":"2026-02-02T00:00:00Z","product":"pro.monthly","transaction":"t1","expires":"2026-03-02T00:00:00Z"}
      {"id":"r1","type":"revocation","subject":"u2","at":"2026-02-03T00:00:00Z","transaction":"t1"}
      """#)
    #expect(ledger.warnings.map(\.line) == [1, 3])
    var engine = QueryEngine(ledger: ledger)
    #expect(engine.checkedAnswer("u1", at: "2026-02-10T00:00:00Z").plans.byName.first?.value.state == .active)
  }

  @Test("empty and whitespace-only lines are ignored")
  func emptyLines() throws {
    let ledger = try ledger("\n  \n" + EventLineParserTests.valid + "\n\n")
    #expect(ledger.events.count == 1)
    #expect(ledger.events[0].line == 3)
  }
}
