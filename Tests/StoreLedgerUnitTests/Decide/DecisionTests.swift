import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// One admission case: what the ledger knows of an event's id and transaction, and the decision.
struct AdmissionCase: Sendable, CustomTestStringConvertible {
  let label: String
  /// Changes the event the ledger holds into the one given (and what is known of it).
  let given: @Sendable (inout Event, inout EventDetails, inout Decision.Known) -> Void
  let expected: Decision

  var testDescription: String { label }
}

@Suite("Decision: admission from what the ledger knows of an event's id and transaction")
struct DecisionTests {
  static let cases: [AdmissionCase] = [
    AdmissionCase(label: "a new id and a new transaction are accepted", given: { _, _, known in known = Decision.Known() }, expected: .accepted),
    AdmissionCase(label: "the same event again is a duplicate of its first line", given: { _, _, _ in }, expected: .duplicate(firstLine: 1)),
    AdmissionCase(
      label: "the same event learned earlier is a redelivery that lowers the knowledge time",
      given: { e, _, _ in e.recorded = e.at.adding(milliseconds: -1) }, expected: .learnedEarlier(firstLine: 1)),
    AdmissionCase(
      label: "the same event learned later is a plain duplicate",
      given: { e, _, _ in e.recorded = e.at.adding(milliseconds: 1) }, expected: .duplicate(firstLine: 1)),
    AdmissionCase(
      label: "the same id with another expires is an id conflict naming expires",
      given: { e, _, _ in e.expires = e.expires.adding(milliseconds: 1) },
      expected: .rejected(.idConflict(id: "p0", firstLine: 1, differing: ["expires"]))),
    AdmissionCase(
      label: "the same id under another subject and price is an id conflict naming both",
      given: { _, d, known in
        known.sameSubject = false
        d.price = 1
      },
      expected: .rejected(.idConflict(id: "p0", firstLine: 1, differing: ["subject", "price"]))),
    AdmissionCase(
      label: "a charge of a transaction charged before is refused",
      given: { _, _, known in known = Decision.Known(chargeLine: 7) },
      expected: .rejected(.transactionReused(transaction: "t0", firstLine: 7))),
    AdmissionCase(
      label: "a refund names a charged transaction and is accepted",
      given: { e, _, known in
        e.kind = .revocation
        known = Decision.Known(chargeLine: 7)
      },
      expected: .accepted),
  ]

  @Test("the decision for each case", arguments: cases)
  func decides(_ admission: AdmissionCase) throws {
    let ledger = try ledger(
      EventLines.line(.purchase(id: "p0", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "pro.monthly", transaction: "t0", expires: ts("2026-04-01T00:00:00Z"), price: 4990, currency: "USD")))
    let first = try #require(ledger.events.first)
    let firstDetails = ledger.details.details(line: first.line)
    var event = first
    var details = firstDetails
    var known = Decision.Known(eventWithID: first, sameSubject: true, firstDetails: firstDetails)
    admission.given(&event, &details, &known)
    #expect(Decision.of(event, details: details, knowing: known, symbols: ledger.symbols) == admission.expected)
  }
}
