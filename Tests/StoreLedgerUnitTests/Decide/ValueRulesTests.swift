import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// A catalog with a product of each kind, a family-shareable subscription, entitlements and a usage policy.
private let rulesCatalogText = #"""
  {
    "products": {
      "sub.monthly": {"type": "auto_renewable", "group": "g", "entitlements": ["pro"], "family_shareable": true},
      "lifetime": {"type": "non_consumable", "entitlements": ["pro"]},
      "pass": {"type": "non_renewing", "duration": "P1M", "entitlements": ["pro"]},
      "coins": {"type": "consumable", "currency": "coins", "units": 100}
    },
    "policy": {
      "utc_offset": "+00:00",
      "tiers": [{"name": "pro", "entitlement": "pro"}, {"name": "free"}],
      "features": {"interaction": {"window": "day", "limits": {"pro": null, "free": 5}}}
    }
  }
  """#

/// One value rule broken: the line that breaks it, the same line without the fault, and the
/// fault made on the typed event the valid line loads to (what a damaged snapshot record holds).
struct BrokenRuleCase: Sendable, CustomTestStringConvertible {
  let label: String
  /// Lines before the one checked (the charge a refund names, say).
  let context: [String]
  let valid: String
  let broken: String
  let fault: @Sendable (inout Event, inout EventDetails, Catalog) -> Void

  var testDescription: String { label }

  init(
    _ label: String, context: [String] = [], valid: String, broken: String,
    fault: @escaping @Sendable (inout Event, inout EventDetails, Catalog) -> Void
  ) {
    self.label = label
    self.context = context
    self.valid = valid
    self.broken = broken
    self.fault = fault
  }
}

/// A line of `kind` with `fields` (JSON members without braces) at the test's instant.
private func line(_ id: String, _ kind: String, _ fields: String, at: String = "2026-03-01T00:00:00Z") -> String {
  #"{"id":"\#(id)","type":"\#(kind)","subject":"u1","at":"\#(at)"\#(fields.isEmpty ? "" : "," + fields)}"#
}

private let buy = line("p0", "purchase", #""product":"sub.monthly","transaction":"t0","expires":"2026-04-01T00:00:00Z""#)
private let buyLifetime = line("p1", "purchase", #""product":"lifetime","transaction":"t1""#)

/// A valid line of each kind with no `quantity` and the lines it needs before it.
private let quantityFreeLines: [(kind: String, context: [String], fields: String)] = [
  ("purchase_pending", [], #""product":"lifetime""#),
  ("renewal", [buy], #""product":"sub.monthly","transaction":"t2","original_transaction":"t0","expires":"2026-05-01T00:00:00Z""#),
  ("billing_retry", [buy], #""original_transaction":"t0""#),
  ("grace_entered", [buy], #""original_transaction":"t0","grace_expires":"2026-03-05T00:00:00Z""#),
  ("expiration", [buy], #""original_transaction":"t0""#),
  ("auto_renew_changed", [buy], #""original_transaction":"t0","auto_renew":false"#),
  ("plan_changed", [buy], #""original_transaction":"t0","product":"sub.monthly""#),
  ("renewal_extended", [buy], #""original_transaction":"t0","expires":"2026-06-01T00:00:00Z""#),
  ("refund_reversed", [buyLifetime], #""transaction":"t1""#),
  ("refund_requested", [buyLifetime], #""transaction":"t1""#),
  ("refund_declined", [buyLifetime], #""transaction":"t1""#),
  ("grant_revoked", [line("g0", "grant", #""entitlements":["pro"]"#)], #""grant":"g0""#),
  ("unblock", [], #""service":"fraud""#),
  ("transfer", [buyLifetime], #""transaction":"t1","to":"u2""#),
]

@Suite("Value rules: parse and restore refuse the same values with the same words")
struct ValueRulesTests {
  static let cases: [BrokenRuleCase] = [
    BrokenRuleCase(
      "purchase of an auto_renewable product without expires",
      valid: buy, broken: line("p0", "purchase", #""product":"sub.monthly","transaction":"t0""#)
    ) { e, _, _ in e.hasExpires = false },
    BrokenRuleCase(
      "purchase of a non_consumable product with expires",
      valid: buyLifetime,
      broken: line("p1", "purchase", #""product":"lifetime","transaction":"t1","expires":"2026-04-01T00:00:00Z""#)
    ) { e, _, _ in
      e.expires = ts("2026-04-01T00:00:00Z")
      e.hasExpires = true
    },
    BrokenRuleCase(
      "purchase of a non_consumable product with original_transaction",
      valid: buyLifetime,
      broken: line("p1", "purchase", #""product":"lifetime","transaction":"t1","original_transaction":"t1""#)
    ) { e, _, _ in e.originalTransaction = e.transaction },
    BrokenRuleCase(
      "purchase of a non_consumable product with quantity",
      valid: buyLifetime, broken: line("p1", "purchase", #""product":"lifetime","transaction":"t1","quantity":2"#)
    ) { e, _, _ in e.quantity = 2 },
    BrokenRuleCase(
      "family_shared purchase of a product that is not family_shareable",
      valid: buyLifetime,
      broken: line("p1", "purchase", #""product":"lifetime","transaction":"t1","ownership":"family_shared""#)
    ) { e, _, _ in
      e.ownership = .familyShared
      e.hasOwnership = true
    },
    BrokenRuleCase(
      "consumable purchase of quantity below 1",
      valid: line("p2", "purchase", #""product":"coins","transaction":"t2","quantity":3"#),
      broken: line("p2", "purchase", #""product":"coins","transaction":"t2","quantity":-3"#)
    ) { e, _, _ in e.quantity = -3 },
    BrokenRuleCase(
      "consumable purchase crediting more than the amount limit",
      valid: line("p2", "purchase", #""product":"coins","transaction":"t2","quantity":3"#),
      broken: line("p2", "purchase", #""product":"coins","transaction":"t2","quantity":20000000000000"#)
    ) { e, _, _ in e.quantity = 20_000_000_000_000 },
    BrokenRuleCase(
      "non_renewing purchase whose catalog duration ends past the latest time",
      valid: line("p3", "purchase", #""product":"pass","transaction":"t3""#, at: "9999-11-01T00:00:00Z"),
      broken: line("p3", "purchase", #""product":"pass","transaction":"t3""#, at: "9999-12-15T00:00:00Z")
    ) { e, _, _ in
      e.at = ts("9999-12-15T00:00:00Z")
      e.recorded = e.at
    },
    BrokenRuleCase(
      "charge with a negative price",
      valid: line("p1", "purchase", #""product":"lifetime","transaction":"t1","price":4990,"currency":"USD""#),
      broken: line("p1", "purchase", #""product":"lifetime","transaction":"t1","price":-1,"currency":"USD""#)
    ) { _, d, _ in d.price = -1 },
    BrokenRuleCase(
      "renewal of a product that is not auto_renewable",
      context: [buy], valid: line("r1", "renewal", quantityFreeLines[1].fields),
      broken: line(
        "r1", "renewal", #""product":"lifetime","transaction":"t2","original_transaction":"t0","expires":"2026-05-01T00:00:00Z""#)
    ) { e, _, catalog in e.product = catalog.index(of: "lifetime") ?? .none },
    BrokenRuleCase(
      "renewal_extended whose expires is not after at",
      context: [buy], valid: line("x1", "renewal_extended", quantityFreeLines[7].fields),
      broken: line("x1", "renewal_extended", #""original_transaction":"t0","expires":"2026-03-01T00:00:00Z""#)
    ) { e, _, _ in e.expires = e.at },
    BrokenRuleCase(
      "grace_entered whose grace_expires is before at",
      context: [buy], valid: line("x2", "grace_entered", quantityFreeLines[3].fields),
      broken: line("x2", "grace_entered", #""original_transaction":"t0","grace_expires":"2026-02-01T00:00:00Z""#)
    ) { e, _, _ in e.expires = ts("2026-02-01T00:00:00Z") },
    BrokenRuleCase(
      "consumption of quantity 0",
      context: [line("p2", "purchase", #""product":"coins","transaction":"t2""#)],
      valid: line("c1", "consumption", #""currency":"coins","quantity":1"#),
      broken: line("c1", "consumption", #""currency":"coins","quantity":0"#)
    ) { e, _, _ in e.quantity = 0 },
    BrokenRuleCase(
      "usage of quantity 0",
      valid: line("u1", "usage", #""feature":"interaction""#), broken: line("u1", "usage", #""feature":"interaction","quantity":0"#)
    ) { e, _, _ in e.quantity = 0 },
    BrokenRuleCase(
      "usage of more than a million",
      valid: line("u1", "usage", #""feature":"interaction""#),
      broken: line("u1", "usage", #""feature":"interaction","quantity":-1000001"#)
    ) { e, _, _ in e.quantity = -1_000_001 },
    BrokenRuleCase(
      "revocation of a negative number of packs",
      context: [buyLifetime], valid: line("v1", "revocation", #""transaction":"t1""#),
      broken: line("v1", "revocation", #""transaction":"t1","quantity":-1"#)
    ) { e, _, _ in e.quantity = -1 },
    BrokenRuleCase(
      "revocation refunding a negative amount",
      context: [buyLifetime], valid: line("v1", "revocation", #""transaction":"t1""#),
      broken: line("v1", "revocation", #""transaction":"t1","refunded":-5"#)
    ) { e, d, _ in
      e.hasRefunded = true
      d.price = -5
    },
    BrokenRuleCase(
      "grant of no entitlements",
      valid: line("g0", "grant", #""entitlements":["pro"]"#), broken: line("g0", "grant", #""entitlements":[]"#)
    ) { e, _, _ in e.entitlementMask = 0 },
    BrokenRuleCase(
      "block of no entitlements",
      valid: line("b0", "block", #""service":"fraud","entitlements":["pro"]"#),
      broken: line("b0", "block", #""service":"fraud","entitlements":[]"#)
    ) { e, _, _ in e.entitlementMask = 0 },
  ]
    + quantityFreeLines.enumerated().map { index, row in
      BrokenRuleCase(
        "\(row.kind) with a quantity", context: row.context, valid: line("k\(index)", row.kind, row.fields),
        broken: line("k\(index)", row.kind, row.fields + #","quantity":1"#)
      ) { e, _, _ in e.quantity = 1 }
    }

  @Test("a value rule a line breaks is refused by the parser and, on the typed record, by restore, in the same words", arguments: cases)
  func parseAndRestoreAgree(_ rule: BrokenRuleCase) throws {
    let catalog = try catalog(rulesCatalogText)
    let lines = rule.context + [rule.broken]
    let parsed = try errors(lines.joined(separator: "\n"), catalogText: rulesCatalogText)
    let first = try #require(parsed.first, "the parser accepts \(rule.broken)")
    #expect(first.line == lines.count, "\(first)")

    let ledger = try ledger((rule.context + [rule.valid]).joined(separator: "\n"), catalogText: rulesCatalogText)
    let (valid, position) = try #require(lastLineEvent(of: ledger))
    let details = ledger.details.details(line: valid.line)
    let checks = RecordChecks(
      section: UnsafeRawBufferPointer(start: nil, count: 0), file: "s.snapshot", catalog: catalog,
      counts: [ledger.subjectCount, ledger.symbols.ids.count, ledger.symbols.transactions.count, ledger.symbols.currencies.count])
    #expect(checks.check(valid, details, position: position), "restore refuses the valid record of \(rule.valid)")

    var broken = valid
    var brokenDetails = details
    rule.fault(&broken, &brokenDetails, catalog)
    #expect(!checks.check(broken, brokenDetails, position: position), "restore accepts the broken record")
    let typed = ValueRules(catalog: catalog).problem(
      broken, brokenDetails, present: ValueRules.storedFields(broken, brokenDetails))
    #expect(typed == first.problem, "the typed rule words it otherwise than the parser")
  }

  @Test("every kind has a broken value rule in the table")
  func everyKindIsCovered() {
    let covered = Set(Self.cases.compactMap { EventKind(name: String($0.broken.split(separator: "\"")[7])) })
    for kind in EventKind.allCases { #expect(covered.contains(kind), "\(kind.name) has no case") }
  }

  /// The event of the log's last line and its position among its subject's events.
  private func lastLineEvent(of ledger: Ledger) -> (Event, Int)? {
    for subject in 0..<ledger.subjectCount {
      let events = Array(ledger.events(of: Symbol(rawValue: UInt32(subject))))
      if let position = events.firstIndex(where: { Int($0.line) == ledger.linesRead }) { return (events[position], position) }
    }
    return nil
  }
}
