import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

@Suite("Refund evidence: what to answer a store's refund request with (Docs/evidence.md)")
struct RefundEvidenceTests {
  /// Gems in packs of 1,000, a monthly plan, a one-week pass, a lifetime unlock, and a policy feature for uses.
  static let catalogText = #"""
    {
      "products": {
        "gems.1000": {"type": "consumable", "currency": "gems", "units": 1000},
        "pro.monthly": {"type": "auto_renewable", "group": "pro", "entitlements": ["pro"]},
        "pass.week": {"type": "non_renewing", "entitlements": ["pro"], "duration": "P7D"},
        "pro.lifetime": {"type": "non_consumable", "entitlements": ["pro"]}
      },
      "policy": {
        "utc_offset": "+00:00",
        "tiers": [{"name": "pro", "entitlement": "pro"}, {"name": "free"}],
        "features": {"export": {"window": "day", "limits": {"pro": null, "free": 5000}}}
      }
    }
    """#

  static func evidence(
    _ lines: String, _ selector: RefundRequestSelector = .id("rq"), consented: Bool = false, catalogText: String = catalogText
  ) throws -> RefundEvidence {
    try RefundEvidence.build(
      ledger: try ledger(lines, catalogText: catalogText), selector: selector, customerConsented: consented, logPath: nil)
  }

  @Test("452 of 1,000 gems spent gives the documented bodies' values: 45200 milliunits, DELIVERED, GRANT_PRORATED")
  func documentedBodies() throws {
    // Google's reference: "45200 represents 45.2%"; Apple's ConsumptionRequest V2 fields.
    let evidence = try Self.evidence(
      EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T10:00:00Z"), product: "gems.1000", transaction: "t1", price: 9990, currency: "USD"),
      .consumption(id: "c1", subject: "u1", at: ts("2026-03-02T10:00:00Z"), currency: "gems", quantity: 400),
      .consumption(id: "c2", subject: "u1", at: ts("2026-03-03T10:00:00Z"), currency: "gems", quantity: 52),
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-04T10:00:00Z"), transaction: "t1", reason: .unsatisfied),
      ]), consented: true)
    #expect(
      evidence.appStoreBody
        == .object([
          ("customerConsented", .bool(true)), ("consumptionPercentage", .integer(45200)), ("deliveryStatus", .string("DELIVERED")),
          ("refundPreference", .string("GRANT_PRORATED")), ("sampleContentProvided", .bool(false)),
        ]))
    #expect(evidence.googlePlayBody["consumptionPercentageMilliunits"] == .integer(45200))
    #expect(evidence.googlePlayBody["refundPreference"] == .string("NEUTRAL"))
    #expect(evidence.googlePlayBody["sampleContentProvided"] == .bool(false))
    // Newest first: c2 then c1.
    #expect(
      evidence.googlePlayBody["consumptionUsageEvents"]
        == .array([
          .object([("consumptionTime", .string("2026-03-03T10:00:00Z")), ("consumptionItemDescription", .string("c2: 52 of 52 gems spent from this purchase"))]),
          .object([("consumptionTime", .string("2026-03-02T10:00:00Z")), ("consumptionItemDescription", .string("c1: 400 of 400 gems spent from this purchase"))]),
        ]))
    #expect(evidence.request.reason == "unsatisfied")
    #expect(evidence.history.purchases == 1 && evidence.history.purchased == ["USD": 9990])
    #expect(evidence.tenureDays == 3)
  }

  @Test("spends take the oldest credits first: across two purchases, the share is of the one asked about")
  func oldestCreditsFirst() throws {
    // p1 credits 1,000 (older), p2 1,000. Spends of 700 then 600: p1 gives 1,000, p2 gives 300.
    let log = EventLines.log([
      .purchase(id: "p2", subject: "u1", at: ts("2026-03-02T00:00:00Z"), product: "gems.1000", transaction: "t2"),
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
      .consumption(id: "c1", subject: "u1", at: ts("2026-03-03T00:00:00Z"), currency: "gems", quantity: 700),
      .consumption(id: "c2", subject: "u1", at: ts("2026-03-04T00:00:00Z"), currency: "gems", quantity: 600),
      .refundRequested(id: "r1", subject: "u1", at: ts("2026-03-05T00:00:00Z"), transaction: "t1"),
      .refundRequested(id: "r2", subject: "u1", at: ts("2026-03-05T00:00:00Z"), transaction: "t2"),
    ])
    let first = try Self.evidence(log, .id("r1"))
    #expect(first.consumption == .credits(currency: "gems", credited: 1000, spent: 1000))
    #expect(first.consumedMilliunits == 100_000 && first.preference == .decline)
    #expect(first.uses.map(\.description) == ["c2: 300 of 600 gems spent from this purchase", "c1: 700 of 700 gems spent from this purchase"])
    let second = try Self.evidence(log, .transaction("t2", at: ts("2026-03-05T00:00:00Z")))
    #expect(second.consumption == .credits(currency: "gems", credited: 1000, spent: 300))
    #expect(second.consumedMilliunits == 30_000 && second.preference == .grantProrated)
    #expect(second.uses.map(\.description) == ["c2: 300 of 600 gems spent from this purchase"])
    #expect(second.appStoreBody["refundPreference"] == .string("GRANT_PRORATED"))
  }

  @Test("a revoked purchase's credit leaves the line: later spends take the next oldest credit")
  func revokedCreditSkipped() throws {
    let evidence = try Self.evidence(
      EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
      .purchase(id: "p2", subject: "u1", at: ts("2026-03-02T00:00:00Z"), product: "gems.1000", transaction: "t2"),
      .revocation(id: "v1", subject: "u1", at: ts("2026-03-03T00:00:00Z"), transaction: "t1", reason: .refund),
      .consumption(id: "c1", subject: "u1", at: ts("2026-03-04T00:00:00Z"), currency: "gems", quantity: 250),
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-05T00:00:00Z"), transaction: "t2"),
      ]))
    #expect(evidence.consumption == .credits(currency: "gems", credited: 1000, spent: 250))
    #expect(evidence.consumedMilliunits == 25_000)
    #expect(evidence.history.refunds == 1)
  }

  @Test("a subscription halfway through its period: 50000 milliunits, no consumptionPercentage for Apple")
  func subscriptionHalfway() throws {
    let evidence = try Self.evidence(
      EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-04-01T00:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-05-01T00:00:00Z"), price: 4990, currency: "EUR"),
      .usage(id: "u1", subject: "u1", at: ts("2026-04-10T00:00:00Z"), feature: "export", quantity: 3),
      .usage(id: "u2", subject: "u1", at: ts("2026-04-12T00:00:00Z"), feature: "export"),
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-04-16T00:00:00Z"), transaction: "t1"),
      ]))
    #expect(evidence.consumption == .period(start: ts("2026-04-01T00:00:00Z"), end: ts("2026-05-01T00:00:00Z"), elapsedMs: 15 * 86_400_000))
    #expect(evidence.consumedMilliunits == 50_000)
    #expect(
      evidence.appStoreBody
        == .object([("deliveryStatus", .string("DELIVERED")), ("refundPreference", .string("GRANT_PRORATED")), ("sampleContentProvided", .bool(false))]))
    #expect(evidence.googlePlayBody["consumptionPercentageMilliunits"] == .integer(50_000))
    #expect(evidence.uses.map(\.description) == ["u2: 1 use of export", "u1: 3 uses of export"])
    #expect(evidence.notes.contains { $0.contains("no consumptionPercentage for an auto-renewable") })
  }

  @Test(
    "the share of a week's pass at its edges: rounded half up to a milliunit, clamped at the period's end",
    arguments: [
      ("2026-04-01T00:00:00.001Z", 0, "GRANT_FULL", "APPROVE"),
      ("2026-04-01T00:00:03.023Z", 0, "GRANT_FULL", "APPROVE"),
      ("2026-04-01T00:00:03.024Z", 1, "GRANT_PRORATED", "NEUTRAL"),
      ("2026-04-04T12:00:00Z", 50_000, "GRANT_PRORATED", "NEUTRAL"),
      ("2026-04-07T23:59:59.999Z", 100_000, "DECLINE", "DECLINE"),
      ("2026-04-08T00:00:00Z", 100_000, "DECLINE", "DECLINE"),
      ("2026-04-09T00:00:00Z", 100_000, "DECLINE", "DECLINE"),
    ] as [(String, Int64, String, String)])
  func periodEdges(requestAt: String, milliunits: Int64, apple: String, google: String) throws {
    // A week is 604,800,000 ms, so a milliunit is 6,048 ms: 3,024 ms is exactly half of one (rounded up),
    // 3,023 ms less than half; 1 ms before the end is 99,999.9998 milliunits, rounded up to all.
    let evidence = try Self.evidence(
      EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-04-01T00:00:00Z"), product: "pass.week", transaction: "t1"),
        .refundRequested(id: "rq", subject: "u1", at: ts(requestAt), transaction: "t1"),
      ]))
    #expect(evidence.consumedMilliunits == milliunits)
    #expect(evidence.appStoreBody["consumptionPercentage"] == .integer(milliunits))
    #expect(evidence.appStoreBody["refundPreference"] == .string(apple))
    #expect(evidence.googlePlayBody["refundPreference"] == .string(google))
  }

  @Test("a charge at the request's own instant is not before it: no evidence, exit 65")
  func chargeAtTheRequest() throws {
    #expect(throws: Diagnostic.self) {
      try Self.evidence(
        EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-04-01T00:00:00Z"), product: "pass.week", transaction: "t1"),
        .refundRequested(id: "rq", subject: "u1", at: ts("2026-04-01T00:00:00Z"), transaction: "t1"),
        ]))
    }
    do {
      _ = try Self.evidence(
        EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-04-01T00:00:00Z"), product: "pass.week", transaction: "t1"),
        .refundRequested(id: "rq", subject: "u1", at: ts("2026-04-01T00:00:00Z"), transaction: "t1"),
        ]))
    } catch let error as Diagnostic {
      #expect(error.exitCode == 65 && error.code == .evidenceWithoutCharge)
      #expect(error.message.contains("transaction 't1'"))
    }
  }

  @Test("a free trial before the purchase is a sample; a lasting unlock has no share and no Apple preference")
  func trialAndLastingUnlock() throws {
    let evidence = try Self.evidence(
      EventLines.log([
      .purchase(id: "tr", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t0", expires: ts("2026-01-08T00:00:00Z"), offer: .trial),
      .purchase(id: "p1", subject: "u1", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1", price: 29990, currency: "USD"),
      .usage(id: "u1", subject: "u1", at: ts("2026-01-05T00:00:00Z"), feature: "export"),
      .usage(id: "u2", subject: "u1", at: ts("2026-02-03T00:00:00Z"), feature: "export", quantity: 2),
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-02-10T00:00:00Z"), transaction: "t1"),
      ]))
    #expect(evidence.sample == "a free trial of pro.monthly from 1 Jan 2026")
    #expect(evidence.consumption == .unmeasured && evidence.consumedMilliunits == nil)
    #expect(evidence.appStoreBody == .object([("deliveryStatus", .string("DELIVERED")), ("sampleContentProvided", .bool(true))]))
    #expect(evidence.googlePlayBody["refundPreference"] == .string("NEUTRAL"))
    #expect(evidence.googlePlayBody["sampleContentProvided"] == .bool(true))
    // Only the use after the purchase is one it paid for.
    #expect(evidence.uses.map(\.description) == ["u2: 2 uses of export"])
    #expect(evidence.tenureDays == 40)
  }

  @Test("a unit transferred to the subject: its charge is the first owner's, its uses the requester's")
  func transferredUnit() throws {
    let evidence = try Self.evidence(
      EventLines.log([
      .purchase(id: "p1", subject: "old", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1", price: 9990, currency: "USD"),
      .usage(id: "u0", subject: "old", at: ts("2026-01-02T00:00:00Z"), feature: "export"),
      .transfer(id: "x1", subject: "old", at: ts("2026-01-03T00:00:00Z"), to: "new", transaction: "t1"),
      .usage(id: "u1", subject: "new", at: ts("2026-01-04T00:00:00Z"), feature: "export"),
      .refundRequested(id: "rq", subject: "new", at: ts("2026-01-05T00:00:00Z"), transaction: "t1"),
      ]))
    #expect(evidence.request.subject == "new")
    #expect(evidence.purchase.line == 1 && evidence.purchase.price == 9990)
    #expect(evidence.uses.map(\.description) == ["u1: 1 use of export"])
    // The requester's own history: no charge of its own.
    #expect(evidence.history.purchases == 0 && evidence.tenureDays == 1)
  }

  @Test("Google's list holds the newest 1,000 uses of 1,001; the note says so")
  func usesCap() throws {
    var lines = [
      EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "t1"))
    ]
    for minute in 0..<1_001 {
      let at = Timestamp(millisecondsSinceEpoch: ts("2026-01-02T00:00:00Z").millisecondsSinceEpoch + Int64(minute) * 60_000)
      lines.append(EventLines.line(.usage(id: "u\(minute)", subject: "u1", at: at, feature: "export")))
    }
    lines.append(EventLines.line(.refundRequested(id: "rq", subject: "u1", at: ts("2026-02-01T00:00:00Z"), transaction: "t1")))
    let evidence = try Self.evidence(lines.joined(separator: "\n"))
    #expect(evidence.usesTotal == 1_001 && evidence.uses.count == 1_000)
    guard case .array(let events)? = evidence.googlePlayBody["consumptionUsageEvents"] else {
      Issue.record("no usage events")
      return
    }
    #expect(events.count == 1_000)
    #expect(events.first?["consumptionItemDescription"] == .string("u1000: 1 use of export"))
    #expect(events.last?["consumptionItemDescription"] == .string("u1: 1 use of export"))
    #expect(evidence.notes.contains("Google Play: 1001 uses; the newest 1000 are listed (Google refuses more)."))
  }

  @Test("customerConsented is in Apple's body only with the flag; without it the text says Apple requires it", arguments: [true, false])
  func consent(consented: Bool) throws {
    let evidence = try Self.evidence(
      EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1"),
      ]), consented: consented)
    #expect(evidence.appStoreBody["customerConsented"] == (consented ? .bool(true) : nil))
    #expect(evidence.text.contains("Apple requires it to be true") == !consented)
    #expect(evidence.text.contains("Nothing was sent"))
    #expect(evidence.appStoreBody["refundPreference"] == .string("GRANT_FULL"))
  }

  @Test("a request known late sees what was known at its recorded: a spend recorded after it does not count")
  func requestKnownLate() throws {
    func log(requestRecorded: String) -> String {
      EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
        .consumption(id: "c1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "gems", quantity: 100),
        .consumption(id: "c2", subject: "u1", at: ts("2026-03-03T00:00:00Z"), currency: "gems", quantity: 200)
          .recordedAt("2026-03-10T00:00:00Z"),
        .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-05T00:00:00Z"), transaction: "t1").recordedAt(requestRecorded),
      ])
    }
    let early = try Self.evidence(log(requestRecorded: "2026-03-09T23:59:59.999Z"))
    #expect(early.consumedMilliunits == 10_000)
    let late = try Self.evidence(log(requestRecorded: "2026-03-10T00:00:00Z"))
    #expect(late.consumedMilliunits == 30_000)
  }

  @Test("an unknown request is a usage error (64) naming the nearest request ids or the transaction's requests")
  func unknownRequest() throws {
    let log = EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
      .refundRequested(id: "req-1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1"),
    ])
    for (selector, words) in [
      (RefundRequestSelector.id("req-2"), "no refund_requested event 'req-2' in the log; did you mean 'req-1'?"),
      (.transaction("t1", at: ts("2026-03-03T00:00:00Z")), "its requests are at 2026-03-02T00:00:00Z"),
    ] {
      do {
        _ = try Self.evidence(log, selector)
        Issue.record("expected an error")
      } catch let error as Diagnostic {
        #expect(error.exitCode == 64 && error.code == .unknownRefundRequest)
        #expect(error.message.contains(words))
      }
    }
  }

  @Test("the catalog's refund_preference moves the thresholds; a bad one names the field")
  func catalogPolicy() throws {
    let catalogText = Self.catalogText.replacingOccurrences(
      of: #""policy": {"#, with: #""refund_preference": {"grant_full_up_to": 10000, "decline_from": 50000}, "policy": {"#)
    func log(spent quantity: Int64) -> String {
      EventLines.log([
        .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
        .consumption(id: "c1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "gems", quantity: quantity),
        .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-05T00:00:00Z"), transaction: "t1"),
      ])
    }
    for (quantity, outcome) in [(100, RefundPreferencePolicy.Outcome.grantFull), (101, .grantProrated), (499, .grantProrated), (500, .decline)] {
      let evidence = try Self.evidence(log(spent: Int64(quantity)), catalogText: catalogText)
      #expect(evidence.preference == outcome, "\(quantity) gems")
      #expect(evidence.preferenceFromCatalog)
    }
    #expect(throws: DiagnosticList.self) {
      try Catalog.parse(#"{"products": {}, "refund_preference": {"grant_full_up_to": 50000, "decline_from": 50000}}"#, file: "c.json")
    }
    do {
      _ = try Catalog.parse(#"{"products": {}, "refund_preference": {"decline_from": 100001}}"#, file: "c.json")
    } catch {
      #expect(error.diagnostics.first?.message.contains("field 'refund_preference.decline_from'") == true)
    }
  }

  @Test("the request's meta.pendingRefundToken is read again from the log file and copied into Google's body")
  func pendingRefundToken() throws {
    let directory = try temporaryDirectory()
    let path = directory.appendingPathComponent("log.jsonl").path
    let log = EventLines.log([
      .purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1"),
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-02T00:00:00Z"), transaction: "t1").withMeta(["pendingRefundToken": "prt-123"]),
    ]) + "\n"
    try log.write(toFile: path, atomically: true, encoding: .utf8)
    let built = try ledger(log, catalogText: Self.catalogText)
    let withToken = try RefundEvidence.build(ledger: built, selector: .id("rq"), customerConsented: false, logPath: path)
    #expect(withToken.googlePlayBody["pendingRefundToken"] == .string("prt-123"))
    let without = try RefundEvidence.build(ledger: built, selector: .id("rq"), customerConsented: false, logPath: nil)
    #expect(without.googlePlayBody["pendingRefundToken"] == nil)
    #expect(without.notes.contains { $0.hasPrefix("Google Play: pendingRefundToken is required and missing") })
  }

  @Test("the same log gives byte-identical evidence, whatever the order of its lines")
  func deterministic() throws {
    let lines = [
      EventLines.line(.purchase(id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "gems.1000", transaction: "t1", price: 990, currency: "USD")),
      EventLines.line(.consumption(id: "c1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "gems", quantity: 10)),
      EventLines.line(.refundRequested(id: "rq", subject: "u1", at: ts("2026-03-05T00:00:00Z"), transaction: "t1")),
    ]
    let forward = try Self.evidence(lines.joined(separator: "\n"))
    let backward = try Self.evidence(lines.reversed().joined(separator: "\n"))
    #expect(JSONWriter.pretty(forward.json.removingLines) == JSONWriter.pretty(backward.json.removingLines))
    #expect(forward.text == (try Self.evidence(lines.joined(separator: "\n"))).text)
  }
}

extension JSONValue {
  /// The value without `line` members (which move when lines are reordered).
  fileprivate var removingLines: JSONValue {
    switch self {
    case .object(let members): return .object(members.filter { $0.0 != "line" }.map { ($0.0, $0.1.removingLines) })
    case .array(let items): return .array(items.map(\.removingLines))
    default: return self
    }
  }
}
