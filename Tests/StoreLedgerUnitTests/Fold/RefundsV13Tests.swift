import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// Contract v1.3, section 11 and the charges' `store`, `country` and `proceeds`: what they do to
/// answers, and every invalid case named by line and field.
@Suite("Refunds as the stores make them (contract v1.3, section 11)")
struct RefundsV13Tests {
  static let packs = EventLines.log([
    .purchase(id: "c1", subject: "u", at: ts("2026-01-02T00:00:00Z"), product: "coins.100", transaction: "c1", quantity: 3, price: 2970, currency: "EUR"),
    .consumption(id: "s1", subject: "u", at: ts("2026-01-03T00:00:00Z"), currency: "coins", quantity: 120),
  ])

  @Test(
    "a consumable revocation debits its packs' units or the whole credit, and its reversal credits back what it debited",
    arguments: [
      (1, nil, 80, 180), (3, nil, -120, 180), (nil, nil, -120, 180), (2, 0, -20, 180),
    ] as [(Int64?, Int64?, Int64, Int64)])
  func packs(packsRevoked: Int64?, refunded: Int64?, afterRevocation: Int64, afterReversal: Int64) throws {
    let log = Self.packs + "\n" + EventLines.log([
      .revocation(id: "r1", subject: "u", at: ts("2026-01-05T00:00:00Z"), transaction: "c1", refunded: refunded, quantity: packsRevoked),
      .refundReversed(id: "r2", subject: "u", at: ts("2026-01-08T00:00:00Z"), transaction: "c1"),
    ])
    var engine = QueryEngine(ledger: try ledger(log))
    #expect(engine.checkedAnswer("u", at: "2026-01-06T00:00:00Z").balances.byName.first?.value == afterRevocation)
    #expect(engine.checkedAnswer("u", at: "2026-01-09T00:00:00Z").balances.byName.first?.value == afterReversal)
  }

  @Test("a prorated refund still revokes the subscription from its at")
  func proratedRevokes() throws {
    let log = EventLines.log([
      .purchase(id: "a1", subject: "u", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "a1", expires: ts("2027-01-01T00:00:00Z"), price: 59990, currency: "EUR", store: "appstore", country: "FR", proceeds: 41993),
      .revocation(id: "r1", subject: "u", at: ts("2026-07-01T00:00:00Z"), transaction: "a1", reason: .refund, refunded: 29995),
    ])
    var engine = QueryEngine(ledger: try ledger(log))
    #expect(engine.checkedAnswer("u", at: "2026-06-30T23:59:59.999Z").entitlements.count == 1)
    let after = engine.checkedAnswer("u", at: "2026-07-01T00:00:00Z")
    #expect(after.entitlements.isEmpty)
    #expect(after.plans.byName.first?.value.state == .revoked)
  }

  @Test("refund requests and declines change nothing; one naming no charge of the subject is warned about")
  func requests() throws {
    let pass = EventLines.log([
      .purchase(id: "q1", subject: "h", at: ts("2026-05-01T10:00:00Z"), product: "pass.week", transaction: "p1", price: 1990, currency: "USD"),
    ])
    let log = pass + "\n" + EventLines.log([
      .refundRequested(id: "q2", subject: "h", at: ts("2026-05-02T10:00:00Z"), transaction: "p1", reason: .unsatisfied, respondBy: ts("2026-05-02T22:00:00Z")),
      .refundDeclined(id: "q3", subject: "h", at: ts("2026-05-02T20:00:00Z"), transaction: "p1"),
      .refundRequested(id: "q4", subject: "h", at: ts("2026-05-03T10:00:00Z"), transaction: "nope"),
    ])
    let loaded = try ledger(log)
    #expect(loaded.warnings.map(\.line) == [4])
    #expect(loaded.warnings.first?.message.contains("nope") == true)
    var engine = QueryEngine(ledger: loaded)
    var plain = QueryEngine(ledger: try ledger(pass))
    for at in ["2026-05-02T12:00:00Z", "2026-05-08T09:59:59.999Z", "2026-05-08T10:00:00Z"] {
      #expect(engine.checkedAnswer("h", at: at).jsonValue == plain.checkedAnswer("h", at: at).jsonValue)
    }
  }

  /// (a line added to a log with a priced annual plan `a1`, 3 packs `c1` and a free lifetime `l1`;
  /// the field the error names; words of its message).
  static let invalid: [(String, String, String)] = [
    (EventLines.line(.revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "a1", refunded: 59991)), "refunded", "at most the charge's price (59990"),
    (EventLines.line(.revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "a1", refunded: -1)), "refunded", "≥ 0"),
    (EventLines.line(.revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "l1", refunded: 10)), "refunded", "no price"),
    (EventLines.line(.revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "a1", quantity: 1)), "quantity", "only for a consumable"),
    (EventLines.line(.revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "c1", quantity: 4)), "quantity", "at most the 3 packs"),
    (EventLines.line(.revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "c1", quantity: 0)), "quantity", "≥ 1"),
    (EventLines.line(.purchase(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t9", price: 100, currency: "USD", proceeds: 101)), "proceeds", "from 0 to the price"),
    (EventLines.line(.purchase(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t9", proceeds: 1)), "proceeds", "with a price"),
    (EventLines.line(.purchase(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t9", store: "App Store")), "store", "a-z"),
    (EventLines.line(.purchase(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t9", country: "usa")), "country", "two uppercase"),
    (#"{"id":"x","type":"refund_requested","subject":"u","at":"2026-02-01T00:00:00Z","transaction":"a1","reason":"angry"}"#, "reason", "unintended_purchase"),
    (#"{"id":"x","type":"refund_declined","subject":"u","at":"2026-02-01T00:00:00Z","transaction":"a1","reason":"other"}"#, "reason", "refund_declined"),
    (#"{"id":"x","type":"consumption","subject":"u","at":"2026-02-01T00:00:00Z","currency":"coins","quantity":1,"refunded":1}"#, "refunded", "consumption"),
  ]

  @Test("every invalid v1.3 refund or charge value is an error naming its line and field", arguments: invalid)
  func invalidValues(line: String, field: String, words: String) throws {
    let base = EventLines.log([
      .purchase(id: "a1", subject: "u", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "a1", expires: ts("2027-01-01T00:00:00Z"), price: 59990, currency: "EUR"),
      .purchase(id: "c1", subject: "u", at: ts("2026-01-02T00:00:00Z"), product: "coins.100", transaction: "c1", quantity: 3, price: 2970, currency: "EUR"),
      .purchase(id: "l1", subject: "u", at: ts("2026-01-03T00:00:00Z"), product: "pro.lifetime", transaction: "l1"),
    ])
    let found = try errors(base + "\n" + line)
    #expect(found.count == 1)
    #expect(found.first?.line == 4)
    #expect(found.first?.exitCode == 65)
    let message = found.first?.message ?? ""
    #expect(message.contains(field), "\(message)")
    #expect(message.contains(words), "\(message)")
  }

  /// A refund of the annual plan `a1`, refunding `refunded`.
  static func refund(_ refunded: Int64) -> NewEvent {
    .revocation(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), transaction: "a1", refunded: refunded)
  }

  /// A priced lifetime unlock `t9` with `store`, `country` and `proceeds` as given.
  static func unlock(store: String? = nil, country: String? = nil, proceeds: Int64? = nil) -> NewEvent {
    .purchase(
      id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), product: "pro.lifetime", transaction: "t9", price: 100,
      currency: "USD", store: store, country: country, proceeds: proceeds)
  }

  @Test("a redelivery that changes refunded, store, country or proceeds is an id conflict", arguments: [
    (refund(100), refund(200)), (unlock(country: "US"), unlock(country: "FR")),
    (unlock(store: "appstore"), unlock(store: "googleplay")), (unlock(proceeds: 10), unlock(proceeds: 20)),
  ])
  func conflicts(first: NewEvent, second: NewEvent) throws {
    let base = NewEvent.purchase(id: "a1", subject: "u", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "a1", expires: ts("2027-01-01T00:00:00Z"), price: 59990, currency: "EUR")
    let same = try EventLines.ledger([base, first, first])
    #expect(same.duplicatesSkipped == 1)
    let found = try errors(EventLines.log([base, first, second]))
    #expect(found.first?.line == 3)
    #expect(found.first?.exitCode == 65)
  }
}
