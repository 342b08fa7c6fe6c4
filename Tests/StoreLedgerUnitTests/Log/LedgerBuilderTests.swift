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
      ("2026-03-05T00:00:00Z", "2026-03-05T00:00:00.000Z", true),
      ("2026-03-12T00:00:00Z", "2026-03-09T00:00:00.000Z", false),
      (nil, "2026-03-01T12:00:00.000Z", true),
    ] as [(String?, String, Bool)])
  func redeliveryRecordedEarlier(recorded: String?, knownFrom: String, lowered: Bool) throws {
    let event = NewEvent.purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.lifetime", transaction: "t1")
    let first = EventLines.line(event.recordedAt("2026-03-09T00:00:00Z"))
    let again = EventLines.line(recorded.map(event.recordedAt) ?? event)
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
    let event = NewEvent.purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.lifetime", transaction: "t1")
    let first = EventLines.line(event.recordedAt("2026-03-09T00:00:00Z"))
    let again = EventLines.line(event.recordedAt("2026-03-02T00:00:00Z"))
    var builder = LedgerBuilder(restoring: try ledger(first), file: "log.jsonl")
    #expect(Array(again.utf8).withUnsafeBufferPointer { builder.add(line: $0, lineNumber: 2) } == .learnedEarlier(firstLine: 1))
    guard case .success(let restored) = builder.finish() else { Issue.record("the tail was refused"); return }
    let whole = try ledger(first + "\n" + again)
    #expect(restored.events.map(\.recorded) == [ts("2026-03-02T00:00:00Z")])
    #expect(whole.events.map(\.recorded) == restored.events.map(\.recorded))
  }

  @Test("a refund made known before a spend by a redelivery in a snapshot's tail makes that spend an overdraw, as in the whole log")
  func refundLearnedEarlierAfterRestore() throws {
    let refund = NewEvent.revocation(id: "r1", subject: "coins", at: ts("2026-01-02T00:00:00Z"), transaction: "c1", reason: .refund)
    let log = EventLines.log([
      .purchase(id: "p1", subject: "coins", at: ts("2026-01-01T00:00:00Z"), product: "coins.100", transaction: "c1"),
      .consumption(id: "s1", subject: "coins", at: ts("2026-01-03T00:00:00Z"), currency: "coins", quantity: 100),
      refund.recordedAt("2026-01-05T00:00:00Z"),
    ])
    let again = EventLines.line(refund.recordedAt("2026-01-02T00:00:00Z"))
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
      EventLines.log([
        .purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "coins.100", transaction: "t1"),
        .purchase(id: "e2", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "coins.100", transaction: "t1"),
      ]))
    #expect(diagnostics.map(\.line) == [2])
    #expect(diagnostics.first?.message.contains("transaction 't1' was already charged by the event on line 1") == true)
  }

  @Test("spending more than the balance just before it, in effective order, is an overdraw")
  func overdraw() throws {
    // The purchase is written later but effective earlier: the spend is covered.
    let purchase = NewEvent.purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t1")
    _ = try EventLines.ledger([
      .consumption(id: "s1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "coins", quantity: 100),
      purchase,
    ])
    let diagnostics = try errors(
      EventLines.log([
        purchase,
        .consumption(id: "s1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "coins", quantity: 60),
        .consumption(id: "s2", subject: "u1", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 41),
        .consumption(id: "s3", subject: "u2", at: ts("2026-03-03T00:00:00Z"), currency: "gems", quantity: 1),
      ]))
    #expect(diagnostics.map(\.line) == [3, 4])
    #expect(diagnostics.first?.message.contains("overdraw: spending 41 coins with a balance of 40") == true)
  }

  @Test("a refund known before a spend, effective before it, makes that spend an overdraw")
  func knownRefundBeforeSpend() throws {
    let diagnostics = try errors(
      EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t1"),
        .consumption(id: "s1", subject: "u1", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 50),
        .revocation(id: "r1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1").recordedAt("2026-03-03T00:00:00Z"),
      ]))
    #expect(diagnostics.map(\.line) == [2])
  }

  @Test("a refund learned after a spend is accepted and the balance goes negative from the refund's at")
  func lateRefundBeforeSpend() throws {
    let ledger = try EventLines.ledger([
      .purchase(id: "p1", subject: "coins", at: ts("2026-01-01T00:00:00Z"), product: "coins.100", transaction: "c1"),
      .consumption(id: "s1", subject: "coins", at: ts("2026-01-03T00:00:00Z"), currency: "coins", quantity: 100),
      .revocation(id: "r1", subject: "coins", at: ts("2026-01-02T00:00:00Z"), transaction: "c1", reason: .refund).recordedAt("2026-01-05T00:00:00Z"),
    ])
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
      EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t1"),
        .consumption(id: "s1", subject: "u1", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 50).recordedAt("2026-03-04T00:00:00Z"),
        .revocation(id: "r1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1").recordedAt("2026-03-04T00:00:00Z"),
      ]))
    #expect(diagnostics.map(\.line) == [2])
  }

  @Test("a reversal goes with its late refund: a spend the balance covered stays valid")
  func lateRefundAndReversal() throws {
    let purchase = NewEvent.purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t1")
    let refund = NewEvent.revocation(id: "r1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1").recordedAt("2026-03-10T00:00:00Z")
    let spend = NewEvent.consumption(id: "s1", subject: "u1", at: ts("2026-03-03T00:00:00Z"), currency: "coins", quantity: 100)
    let ledger = try EventLines.ledger([
      purchase, refund,
      .refundReversed(id: "x1", subject: "u1", at: ts("2026-03-02T12:00:00Z"), transaction: "t1").recordedAt("2026-03-10T00:00:00Z"),
      spend,
    ])
    #expect(ledger.events.count == 4)
    let spendAfterBoth = try errors(
      EventLines.log([
        purchase, refund, spend,
        .consumption(id: "s2", subject: "u1", at: ts("2026-03-11T00:00:00Z"), currency: "coins", quantity: 1),
      ]))
    #expect(spendAfterBoth.map(\.line) == [4])
  }

  @Test("a reversal learned after a spend, of a refund known before it, still counts: the spend was covered")
  func lateReversalOfKnownRefund() throws {
    func log(spending quantity: Int64) -> String {
      EventLines.log([
        .purchase(id: "p1", subject: "u", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "c1"),
        .revocation(id: "r1", subject: "u", at: ts("2026-03-02T00:00:00Z"), transaction: "c1", reason: .refund),
        .consumption(id: "s1", subject: "u", at: ts("2026-03-05T00:00:00Z"), currency: "coins", quantity: quantity),
        .refundReversed(id: "x1", subject: "u", at: ts("2026-03-03T00:00:00Z"), transaction: "c1").recordedAt("2026-03-10T00:00:00Z"),
      ])
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
    let ledger = try EventLines.ledger([
      .billingRetry(id: "b1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), originalTransaction: "t1"),
      .purchase(id: "p1", subject: "u1", at: ts("2026-02-02T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-03-02T00:00:00Z")),
      .revocation(id: "r1", subject: "u2", at: ts("2026-02-03T00:00:00Z"), transaction: "t1"),
    ])
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
