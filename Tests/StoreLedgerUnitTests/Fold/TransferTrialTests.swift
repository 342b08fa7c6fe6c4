import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// The usage-based trial of a subject in a transfer group (contract v1.3, section 9 with section
/// 7): it starts at the subject's own first line whoever owns its units now, and converts at the
/// first of its lines (or a transfer to it) at which the answer then, with the owners then, holds
/// the trial's entitlement. Cases found by an independent model of the contract.
@Suite("The trial of a subject joined by transfers")
struct TransferTrialTests {
  static let buyM1 = EventLines.line(.purchase(id: "p1", subject: "a", at: ts("2026-01-01T00:00:00Z"), product: "plus.monthly", transaction: "m1", expires: ts("2026-02-01T00:00:00Z")))

  /// b uses and buys coins before a's subscription reaches it on 10 Jan.
  static let receivedAfterOwnLines = [
    EventLines.line(.usage(id: "u1", subject: "b", at: ts("2026-01-01T00:00:00Z"), feature: "interaction")),
    EventLines.line(.purchase(id: "p1", subject: "a", at: ts("2026-01-02T00:00:00Z"), product: "plus.monthly", transaction: "m1", expires: ts("2026-02-02T00:00:00Z"))),
    EventLines.line(.purchase(id: "c1", subject: "b", at: ts("2026-01-05T00:00:00Z"), product: "coins.100", transaction: "k1")),
    EventLines.line(.transfer(id: "t1", subject: "a", at: ts("2026-01-10T00:00:00Z"), to: "b", originalTransaction: "m1")),
  ]

  struct Case: Sendable, CustomTestStringConvertible {
    var lines: [String]
    var subject: String
    var at: String
    /// state, started, ends
    var expected: (String, String, String)
    var testDescription: String { "\(subject) at \(at) after \(lines.count) lines" }
  }

  static let cases: [Case] = [
    // A line of a unit given away later still starts the trial, and the access it gave converted it.
    Case(
      lines: [
        buyM1,
        EventLines.line(.usage(id: "u1", subject: "a", at: ts("2026-01-03T00:00:00Z"), feature: "interaction")),
        EventLines.line(.transfer(id: "t1", subject: "a", at: ts("2026-01-10T00:00:00Z"), to: "b", originalTransaction: "m1")),
      ], subject: "a", at: "2026-01-10T00:00:00Z",
      expected: ("expired", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z")),
    // Access held before giving the unit away converted the trial; the transfer does not undo it.
    Case(
      lines: [
        EventLines.line(.usage(id: "u1", subject: "a", at: ts("2026-01-01T00:00:00Z"), feature: "interaction")),
        EventLines.line(.purchase(id: "p1", subject: "a", at: ts("2026-01-02T00:00:00Z"), product: "plus.monthly", transaction: "m1", expires: ts("2026-02-02T00:00:00Z"))),
        EventLines.line(.transfer(id: "t1", subject: "a", at: ts("2026-01-10T00:00:00Z"), to: "b", originalTransaction: "m1")),
      ], subject: "a", at: "2026-01-10T00:00:00Z",
      expected: ("expired", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")),
    // A unit received before the subject's first line converts the trial at that first line, a use.
    Case(
      lines: [
        buyM1,
        EventLines.line(.transfer(id: "t1", subject: "a", at: ts("2026-01-05T00:00:00Z"), to: "b", originalTransaction: "m1")),
        EventLines.line(.usage(id: "u1", subject: "b", at: ts("2026-01-06T00:00:00Z"), feature: "interaction")),
      ], subject: "b", at: "2026-01-07T00:00:00Z",
      expected: ("subscribed", "2026-01-06T00:00:00Z", "2026-01-06T00:00:00Z")),
    // A line of the subject before the unit reached it does not convert: the owner then was another.
    Case(
      lines: receivedAfterOwnLines, subject: "b", at: "2026-01-10T00:00:00Z",
      expected: ("subscribed", "2026-01-01T00:00:00Z", "2026-01-10T00:00:00Z")),
    Case(
      lines: receivedAfterOwnLines, subject: "b", at: "2026-01-09T23:59:59.999Z",
      expected: ("trial", "2026-01-01T00:00:00Z", "2026-01-22T00:00:00Z")),
    // Access that came back by the first owner's renewal converts at the subject's next line.
    Case(
      lines: [
        EventLines.line(.purchase(id: "p1", subject: "a", at: ts("2026-01-01T00:00:00Z"), product: "plus.monthly", transaction: "m1", expires: ts("2026-01-02T00:00:00Z"))),
        EventLines.line(.transfer(id: "t1", subject: "a", at: ts("2026-01-01T12:00:00Z"), to: "b", originalTransaction: "m1")),
        EventLines.line(.usage(id: "u1", subject: "b", at: ts("2026-01-03T00:00:00Z"), feature: "interaction")),
        EventLines.line(.renewal(id: "r1", subject: "a", at: ts("2026-01-05T00:00:00Z"), product: "plus.monthly", transaction: "m2", originalTransaction: "m1", expires: ts("2026-02-05T00:00:00Z"))),
        EventLines.line(.usage(id: "u2", subject: "b", at: ts("2026-01-07T00:00:00Z"), feature: "interaction")),
      ], subject: "b", at: "2026-01-08T00:00:00Z",
      expected: ("subscribed", "2026-01-03T00:00:00Z", "2026-01-07T00:00:00Z")),
  ]

  @Test("the trial's start and conversion follow the owners at each instant", arguments: cases)
  func trial(_ example: Case) throws {
    let catalogText = try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)
    let ledger = try ledger(example.lines.joined(separator: "\n") + "\n", catalogText: catalogText)
    var engine = QueryEngine(ledger: ledger)
    let trial = try #require(engine.answer(subject: example.subject, at: ts(example.at), asOf: nil).policy?.trial)
    #expect(trial.state.rawValue == example.expected.0)
    #expect(trial.started == ts(example.expected.1))
    #expect(trial.ends == ts(example.expected.2))
  }
}
