import Foundation
import Testing

@testable import StoreLedger

/// A `Holdings` written back in the answer's JSON shape of Docs/semantics.md, field by field.
private func answerJSON(_ holdings: Holdings) -> JSONValue {
  func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }
  func string(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
  func integer(_ n: Int64?) -> JSONValue { n.map { .integer($0) } ?? .null }
  var members: [(String, JSONValue)] = [
    ("subject", .string(holdings.subject.rawValue)), ("at", time(holdings.at)), ("as_of", time(holdings.asOf)),
    (
      "entitlements",
      .object(
        holdings.entitlements.map { name, e in
          (
            name,
            .object([
              ("product", .string(e.product.rawValue)), ("state", .string(e.state.name)), ("expires", time(e.expires)),
              ("ownership", .string(e.ownership.name)), ("period", .string(e.period.name)),
            ])
          )
        })
    ),
    (
      "plans",
      .object(
        holdings.plans.map { group, p in
          (
            group,
            .object([
              ("product", .string(p.product.rawValue)), ("state", .string(p.state.name)), ("expires", time(p.expires)),
              ("will_renew", .bool(p.willRenew)), ("renews_to", string(p.renewsTo?.rawValue)),
              ("period", .string(p.period.name)), ("ownership", .string(p.ownership.name)),
              ("original_transaction", .string(p.originalTransaction.rawValue)),
              ("transaction", .string(p.transaction.rawValue)),
            ])
          )
        })
    ),
    ("balances", .object(holdings.balances.map { ($0.key, .integer($0.value)) })),
  ]
  if let policy = holdings.policy {
    members.append(("tier", string(policy.tier)))
    members.append(
      (
        "trial",
        policy.trial.map { trial in
          .object([
            ("state", .string(trial.state.rawValue)), ("started", time(trial.started)), ("ends", time(trial.ends)),
            ("ends_by", .string(trial.endsBy)), ("grace_ends", time(trial.graceEnds)),
          ])
        } ?? .null
      ))
    members.append(
      (
        "usage",
        .object(
          policy.usage.map { feature, u in
            (
              feature,
              .object([
                ("allowed", .bool(u.allowed)), ("tier", string(u.tier)), ("used", .integer(u.used)),
                ("limit", integer(u.limit)), ("window_ends", time(u.windowEnds)),
              ])
            )
          })
      ))
  }
  return .object(members)
}

@Suite("LedgerStore answers every scenario query as the golden answers say")
struct HoldingsScenarioTests {
  @Test("typed holdings carry every field of the expected answer", arguments: scenarios)
  func scenario(_ scenario: Scenario) throws {
    let store = try LedgerStore(
      logPath: repoPath("\(scenario.folder)/\(scenario.name).jsonl"),
      catalogPath: repoPath("\(scenario.folder)/catalog.json"))
    let queries = try String(contentsOfFile: repoPath("\(scenario.folder)/\(scenario.name).queries.jsonl"), encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    let answers = try String(contentsOfFile: repoPath("\(scenario.folder)/\(scenario.name).answers.jsonl"), encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    #expect(queries.count == answers.count)
    var compared = 0
    for (query, expected) in zip(queries, answers) where query["cached_at"] == nil {
      let subject = try #require(query["subject"]?.stringValue)
      let at = try #require(query["at"]?.stringValue.flatMap(Timestamp.parseRFC3339))
      let asOf = query["as_of"]?.stringValue.flatMap(Timestamp.parseRFC3339)
      let holdings = store.answer(for: SubjectID(rawValue: subject), at: at, asOf: asOf)
      #expect(answerJSON(holdings) == expected, "\(scenario.name): \(subject) at \(at)")
      compared += 1
    }
    #expect(compared > 0 || queries.allSatisfy { $0["cached_at"] != nil })
  }
}
