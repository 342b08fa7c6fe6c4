import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// Contract v1.3, section 9: who owned a unit when, in effective and knowledge time.
@Suite("Transfers: one customer across ids (contract v1.3, section 9)")
struct TransfersTests {
  /// `a` buys monthly Pro (`m1`) and a lifetime unlock (`l1`) and 100 coins (`c1`).
  static let base = EventLines.log([
    .purchase(id: "p1", subject: "a", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "m1", expires: ts("2026-02-01T00:00:00Z")),
    .purchase(id: "p2", subject: "a", at: ts("2026-01-02T00:00:00Z"), product: "pro.lifetime", transaction: "l1"),
    .purchase(id: "p3", subject: "a", at: ts("2026-01-03T00:00:00Z"), product: "coins.100", transaction: "c1"),
  ])

  /// (lines added to `base`, the line reported, the field named, words of the message).
  static let invalid: [(String, Int, String, String)] = [
    (#"{"id":"x","type":"transfer","subject":"a","at":"2026-01-05T00:00:00Z","to":"b","original_transaction":"m1","transaction":"m1"}"#, 4, "'transaction'", "exactly one of 'original_transaction'"),
    (#"{"id":"x","type":"transfer","subject":"a","at":"2026-01-05T00:00:00Z","to":"b"}"#, 4, "'original_transaction'", "exactly one of"),
    (#"{"id":"x","type":"transfer","subject":"a","at":"2026-01-05T00:00:00Z","original_transaction":"m1"}"#, 4, "'to'", "is required"),
    (EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "a", originalTransaction: "m1")), 4, "'to'", "a subject other than"),
    (EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "", originalTransaction: "m1")), 4, "'to'", "1–256 characters"),
    (#"{"id":"x","type":"transfer","subject":"a","at":"2026-01-05T00:00:00Z","to":"b","original_transaction":"m1","reason":"restore"}"#, 4, "'reason'", "not allowed"),
    (EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "b", transaction: "c1")), 4, "'transaction'", "a consumable's credit stays with its buyer"),
    (EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "b", transaction: "m1")), 4, "'transaction'", "a unit named by 'original_transaction'"),
    (EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "b", originalTransaction: "l1")), 4, "'original_transaction'", "a unit named by 'transaction'"),
    (EventLines.line(.transfer(id: "x", subject: "z", at: ts("2026-01-05T00:00:00Z"), to: "b", originalTransaction: "m1")), 4, "'original_transaction'", "subject 'z' has no line naming it"),
    (EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "b", originalTransaction: "nope")), 4, "'original_transaction'", "subject 'a' has no line naming it"),
    (
      EventLines.line(.transfer(id: "x", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "b", originalTransaction: "m1")) + "\n"
        + EventLines.line(.transfer(id: "y", subject: "a", at: ts("2026-01-06T00:00:00Z"), to: "c", originalTransaction: "m1")),
      5, "'subject'", "line 4 moved it to 'b' before"
    ),
    // Chain order is effective order: the later line is the earlier transfer, so line 4 breaks it.
    (
      EventLines.line(.transfer(id: "x", subject: "b", at: ts("2026-01-07T00:00:00Z"), to: "c", originalTransaction: "m1")) + "\n"
        + EventLines.line(.transfer(id: "y", subject: "a", at: ts("2026-01-06T00:00:00Z"), to: "d", originalTransaction: "m1")),
      4, "'subject'", "line 5 moved it to 'd' before"
    ),
  ]

  @Test("every invalid transfer is an error naming its line and field, with exit 65", arguments: invalid)
  func invalidTransfers(lines: String, line: Int, field: String, words: String) throws {
    let found = try errors(Self.base + "\n" + lines)
    #expect(found.count == 1, "\(found.map(\.description))")
    #expect(found.first?.line == line)
    #expect(found.first?.exitCode == 65)
    let message = found.first?.message ?? ""
    #expect(message.contains(field), "\(message)")
    #expect(message.contains(words), "\(message)")
  }

  @Test("a broken owner chain is reported beside a line error, in line order, in one run")
  func chainErrorBesideLineError() throws {
    let found = try errors(
      Self.base + "\n"
        + EventLines.line(.transfer(id: "x", subject: "z", at: ts("2026-01-05T00:00:00Z"), to: "b", transaction: "l1")) + "\n"
        + EventLines.line(.grant(id: "g", subject: "a", at: ts("2026-01-06T00:00:00Z"), entitlements: [])))
    #expect(found.map(\.line) == [4, 5], "\(found.map(\.description))")
    #expect(found.first?.message.contains("subject 'z' has no line naming it") == true)
    #expect(found.last?.message.contains("'entitlements'") == true)
  }

  static let moved = base + "\n" + EventLines.log([
    .transfer(id: "t1", subject: "a", at: ts("2026-01-10T12:00:00Z"), to: "b", originalTransaction: "m1").recordedAt("2026-02-05T00:00:00Z"),
    .transfer(id: "t2", subject: "a", at: ts("2026-01-11T00:00:00Z"), to: "c", transaction: "l1"),
    .renewal(id: "r2", subject: "b", at: ts("2026-02-01T00:00:00Z"), product: "pro.monthly", transaction: "m2", originalTransaction: "m1", expires: ts("2026-03-01T00:00:00Z")),
  ])

  /// (subject, at, as of, whether it has Pro, its plan's transaction or nil).
  static let edges: [(String, String, String?, Bool, String?)] = [
    // 1 ms before the transfer's `at`, at it: the unit moves at `at` exactly.
    ("a", "2026-01-10T11:59:59.999Z", nil, true, "m1"),
    ("a", "2026-01-10T12:00:00Z", nil, true, nil),  // still Pro: the lifetime unlock moves a day later
    ("b", "2026-01-10T11:59:59.999Z", nil, false, nil),
    ("b", "2026-01-10T12:00:00Z", nil, true, "m1"),
    // As known 1 ms before the transfer was recorded, and at that instant.
    ("a", "2026-01-15T00:00:00Z", "2026-02-04T23:59:59.999Z", true, "m1"),
    ("b", "2026-01-15T00:00:00Z", "2026-02-04T23:59:59.999Z", false, nil),
    ("b", "2026-01-15T00:00:00Z", "2026-02-05T00:00:00Z", true, "m1"),
    // The renewal under `b` is the unit's, so `b` holds the renewed period; `a` holds nothing.
    ("b", "2026-02-15T00:00:00Z", nil, true, "m2"),
    ("a", "2026-02-15T00:00:00Z", nil, false, nil),
    // Before the transfer is known, `b`'s renewal folds as `b`'s own subscription (v1.2), and
    // `a` still has its own, expired.
    ("b", "2026-02-15T00:00:00Z", "2026-02-02T00:00:00Z", true, "m2"),
    ("a", "2026-02-15T00:00:00Z", "2026-02-02T00:00:00Z", false, "m1"),
    // `c`, who has no line of its own, holds the lifetime unlock from the second transfer's `at`.
    ("c", "2026-01-10T23:59:59.999Z", nil, false, nil),
    ("c", "2026-01-11T00:00:00Z", nil, true, nil),
  ]

  @Test("who holds a unit at a transfer's edge instants, in effective and knowledge time", arguments: edges)
  func edgeInstants(subject: String, at: String, asOf: String?, hasPro: Bool, plan: String?) throws {
    var engine = QueryEngine(ledger: try ledger(Self.moved))
    let answer = engine.checkedAnswer(subject, at: at, asOf: asOf)
    #expect((answer.entitlements["pro"] != nil) == hasPro, "\(answer.jsonValue)")
    #expect(answer.plans.byName.first?.value.transaction.rawValue == plan, "\(answer.jsonValue)")
  }

  @Test("balances stay with their subject: the coins are a's before and after every transfer")
  func balancesStay() throws {
    var engine = QueryEngine(ledger: try ledger(Self.moved))
    #expect(engine.checkedAnswer("a", at: "2026-02-15T00:00:00Z").balances.byName.map(\.value) == [100])
    #expect(engine.checkedAnswer("b", at: "2026-02-15T00:00:00Z").balances.isEmpty)
  }

  @Test("--explain cites the transfer that made the subject the owner, beside the unit's charges")
  func explainCitesTransfer() throws {
    var engine = QueryEngine(ledger: try ledger(Self.moved))
    let answer = engine.answer(subject: "b", at: ts("2026-02-15T00:00:00Z"), asOf: nil, explain: true)
    let cited = answer.explanation?.entitlements["pro"]?.map(\.id) ?? []
    #expect(cited.contains("t1"), "\(cited)")
    #expect(cited.contains("r2"), "\(cited)")
    let own = engine.answer(subject: "a", at: ts("2026-01-05T00:00:00Z"), asOf: nil, explain: true)
    let ownCited = own.explanation?.entitlements.byName.flatMap { $0.value.map(\.id) } ?? []
    #expect(ownCited == ["p2"])
  }

  @Test("--explain of the giver after a transfer cites the transfer as what ended its access, and names the receiver")
  func explainCitesTransferAway() throws {
    let log = Self.moved
    var engine = QueryEngine(ledger: try ledger(log))
    let answer = engine.answer(subject: "a", at: ts("2026-02-15T00:00:00Z"), asOf: nil, explain: true)
    let absent = AbsentEntitlement.all(from: answer, ledger: engine.ledger).first { $0.entitlement == "pro" }
    // Pro came from m1 (to b on 10 Jan) and the lifetime l1 (to c on 11 Jan): the later transfer ended it.
    #expect(absent?.absence.events.map(\.id) == ["t2"])
    #expect(absent?.absence.reason.contains("transferred to c") == true, "\(absent?.absence.reason ?? "nil")")
    // An expiry with no transfer at its instant cites nothing and keeps the plan's state.
    let lapsed = try ledger(Self.base)
    var plain = QueryEngine(ledger: lapsed)
    let expired = AbsentEntitlement.all(
      from: plain.answer(subject: "a", at: ts("2026-02-15T00:00:00Z"), asOf: nil, explain: true), ledger: lapsed)
    #expect(expired.allSatisfy { $0.absence.events.isEmpty && !$0.absence.reason.contains("transferred") }, "\(expired)")
  }

  @Test("the giver's timeline closes the subscription at the transfer's at, once the transfer is known; a return reopens it")
  func giverTimelineClosesAtTransfer() throws {
    let log = Self.moved + "\n" + EventLines.log([
      .transfer(id: "t3", subject: "b", at: ts("2026-02-10T00:00:00Z"), to: "a", originalTransaction: "m1"),
    ])
    let loaded = try ledger(log)
    func states(_ subject: String, asOf: String?) -> [String] {
      let timeline = loaded.timeline(named: subject, asOf: asOf.map(ts))
      let changes = timeline?.subscriptions.first { $0.0 == "m1" }?.1 ?? []
      return changes.map { "\($0.state)@\(AnswerWords.instant($0.at))" }
    }
    #expect(states("a", asOf: nil) == [
      "active@1 Jan 2026", "transferred_away@10 Jan 2026 12:00 UTC", "active@10 Feb 2026", "expired@1 Mar 2026",
    ])
    // b's renewal r2 is a change of transaction; the return to a closes b's lane.
    #expect(states("b", asOf: nil) == ["active@10 Jan 2026 12:00 UTC", "active@1 Feb 2026", "transferred_away@10 Feb 2026"])
    // Before t1's recorded the ledger does not know of it: a's m1 runs out, and b's renewal folds
    // as b's own (section 9); the return t3, effective and learned on 10 Feb, is not known yet either.
    #expect(states("a", asOf: "2026-02-04T00:00:00Z") == ["active@1 Jan 2026", "expired@1 Feb 2026"])
    #expect(states("b", asOf: "2026-02-04T00:00:00Z") == ["active@1 Feb 2026", "expired@1 Mar 2026"])
  }

  @Test("a transfer back to an earlier owner is allowed, and the unit returns with every line it gathered")
  func transferBack() throws {
    let log = Self.moved + "\n" + EventLines.log([
      .transfer(id: "t3", subject: "b", at: ts("2026-02-10T00:00:00Z"), to: "a", originalTransaction: "m1"),
    ])
    var engine = QueryEngine(ledger: try ledger(log))
    #expect(engine.checkedAnswer("a", at: "2026-02-15T00:00:00Z").plans.byName.first?.value.transaction == "m2")
    #expect(engine.checkedAnswer("b", at: "2026-02-15T00:00:00Z").plans.isEmpty)
    #expect(engine.checkedAnswer("b", at: "2026-02-09T00:00:00Z").plans.byName.first?.value.transaction == "m2")
  }

  /// `count` subjects `s<k>` each buying a lifetime unlock `l<k>` and moving it to `r<k>`; with
  /// `broken`, every 50th unit is then moved again from `z<k>`, who never held it.
  static func manyTransfers(_ count: Int, broken: Bool) -> String {
    let purchases = (0..<count).map { k in
      EventLines.line(.purchase(id: "p\(k)", subject: "s\(k)", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "l\(k)"))
    }
    let transfers = (0..<count).map { k in
      EventLines.line(.transfer(id: "x\(k)", subject: "s\(k)", at: ts("2026-01-02T00:00:00Z"), to: "r\(k)", transaction: "l\(k)"))
    }
    let again = (0..<count).filter { broken && $0 % 50 == 0 }.map { k in
      EventLines.line(.transfer(id: "y\(k)", subject: "z\(k)", at: ts("2026-01-03T00:00:00Z"), to: "q\(k)", transaction: "l\(k)"))
    }
    return (purchases + transfers + again).joined(separator: "\n")
  }

  @Test("600 transfers settle, on every core, into the chains their lines say; broken chains are reported in line order")
  func manyTransfersSettle() throws {
    let settled = try ledger(Self.manyTransfers(600, broken: false))
    let owners = settled.owners
    #expect(owners.units.count == 600)
    for (k, unit) in owners.units.enumerated() {
      #expect(settled.symbols.transactions.string(unit.name) == "l\(k)")
      #expect(unit.steps.map { [owners.partyNames[Int($0.from)], owners.partyNames[Int($0.to)]] } == [["s\(k)", "r\(k)"]])
      #expect(unit.charges.map { settled.symbols.transactions.string($0) } == ["l\(k)"])
    }
    let found = try errors(Self.manyTransfers(600, broken: true))
    #expect(found.map(\.line) == (0..<12).map { 1_201 + $0 })
    #expect(found.allSatisfy { $0.message.contains("moved it to 'r") }, "\(found.prefix(2).map(\.description))")
  }

  @Test("a log without transfers has no owner chains, so every answer is the v1.2 fold")
  func noTransfers() throws {
    #expect(try ledger(Self.base).owners.isEmpty)
    #expect(try !ledger(Self.moved).owners.isEmpty)
  }
}

@Suite("Transfers and partitions: a group stays in one shard")
struct TransferShardTests {
  @Test("every v1.3 scenario question answered from its subject's shard equals the whole log's answer", arguments: [2, 3, 5])
  func shardsAnswerAsTheWholeLog(count: Int) throws {
    let path = repoPath("Events/v13-support.jsonl")
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
    var whole = QueryEngine(ledger: try LedgerLoader.load(logPath: path, catalog: catalog).ledger)
    let groups = try ShardGroups.scan(path: path)
    #expect(groups != ShardGroups())
    var engines: [QueryEngine] = []
    for index in 0..<count {
      var shard = Shard(index: index, of: count)
      shard.groups = groups
      engines.append(QueryEngine(ledger: try LedgerLoader.load(logPath: path, catalog: catalog, shard: shard).ledger))
    }
    let queries = try String(contentsOfFile: repoPath("Events/v13-support.queries.jsonl"), encoding: .utf8)
    for query in queries.split(separator: "\n") {
      let q = try JSONValue.parse(String(query))
      let subject = q["subject"]!.stringValue!
      let owning = engines.indices.filter { index in
        var shard = Shard(index: index, of: count)
        shard.groups = groups
        var name = subject
        return name.withUTF8 { shard.contains(subject: $0) }
      }
      #expect(owning.count == 1)
      let at = ts(q["at"]!.stringValue!)
      let asOf = q["as_of"]?.stringValue.map(ts)
      let expected = whole.answer(subject: subject, at: at, asOf: asOf)
      #expect(engines[owning[0]].answer(subject: subject, at: at, asOf: asOf) == expected, "\(query)")
    }
    // Subjects joined by a transfer share a shard.
    for pair in [("ana", "ben"), ("cleo", "dan")] {
      let placed = [pair.0, pair.1].map { name in
        var name = name
        return name.withUTF8 { groups.placing($0) { Shard.index(ofSubject: $0, count: count) } }
      }
      #expect(placed[0] == placed[1])
    }
  }
}
