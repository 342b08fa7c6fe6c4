import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// Contract v1.3, section 10 (grants and blocks), and every worked example of
/// `../shared/examples/v13/` (transfers, section 9, included).
@Suite("Grants and blocks (contract v1.3, section 10)")
struct GrantsBlocksTests {
  /// The contract's v1.3 worked examples, read at test time beside the package (never copied in).
  static let examples = packageRoot.appendingPathComponent("../shared/examples/v13").standardizedFileURL

  @Test("every v1.3 example answer is reproduced exactly, by both answer writers and cached answers")
  func sharedExamples() throws {
    let directory = Self.examples
    // The Events/v13-support scenario holds the same stories for a checkout without them.
    guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("answers.jsonl").path) else { return }
    let lines = try String(contentsOf: directory.appendingPathComponent("examples.jsonl"), encoding: .utf8)
      .split(separator: "\n")
    let catalogText = try String(contentsOf: directory.appendingPathComponent("catalog.json"), encoding: .utf8)
    let loaded = try ledger(lines.joined(separator: "\n"), catalogText: catalogText)
    let queries = try String(contentsOf: directory.appendingPathComponent("queries.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let answers = try String(contentsOf: directory.appendingPathComponent("answers.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    var batchText: [UInt8] = []
    var expected: [JSONValue] = []
    for (query, answer) in zip(queries, answers) {
      batchText += Array(query.utf8) + [10]
      expected.append(try JSONValue.parse(answer))
    }
    #expect(expected.count == 32)
    var engine = QueryEngine(ledger: loaded)
    var written: [UInt8] = []
    engine.writeAnswers(try QueryBatch.parse(batchText, file: "queries.jsonl"), flushBytes: 1 << 16) { written += $0 }
    let got = try String(decoding: written, as: UTF8.self).split(separator: "\n").map { try JSONValue.parse(String($0)) }
    #expect(got == expected)
    // The structured answer (query, the library) agrees where there is no cache.
    var index = 0
    for query in batchText.split(separator: 10).map({ String(decoding: $0, as: UTF8.self) }) {
      let q = try JSONValue.parse(query)
      defer { index += 1 }
      guard q["cached_at"] == nil else { continue }
      let answer = engine.checkedAnswer(q["subject"]!.stringValue!, at: q["at"]!.stringValue!, asOf: q["as_of"]?.stringValue)
      #expect(answer.jsonValue == expected[index], "\(query)")
    }
  }

  static let base = EventLines.log([
    .purchase(id: "p1", subject: "u", at: ts("2026-01-01T00:00:00Z"), product: "pro.annual", transaction: "y1", expires: ts("2027-01-01T00:00:00Z")),
  ])

  /// (a line added to `base`, the field named, words of the message).
  static let invalid: [(String, String, String)] = [
    (EventLines.line(.grant(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), entitlements: ["porn"])), "entitlements", "did you mean 'pro'"),
    (EventLines.line(.grant(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), entitlements: [])), "entitlements", "non-empty"),
    (#"{"id":"x","type":"grant","subject":"u","at":"2026-02-01T00:00:00Z","entitlements":"pro"}"#, "entitlements", "an array of strings"),
    (#"{"id":"x","type":"grant","subject":"u","at":"2026-02-01T00:00:00Z","entitlements":["pro",1]}"#, "entitlements", "an array of strings"),
    (#"{"id":"x","type":"grant","subject":"u","at":"2026-02-01T00:00:00Z"}"#, "entitlements", "is required"),
    (EventLines.line(.grant(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), entitlements: ["pro"], expires: ts("2026-02-01T00:00:00Z"))), "expires", "later than"),
    (EventLines.line(.grant(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), entitlements: ["pro"], reason: "")), "reason", "1–256"),
    (#"{"id":"x","type":"grant","subject":"u","at":"2026-02-01T00:00:00Z","entitlements":["pro"],"product":"pro.annual"}"#, "product", "not allowed"),
    (EventLines.line(.grantRevoked(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), grant: "")), "grant", "the id of a grant"),
    (#"{"id":"x","type":"block","subject":"u","at":"2026-02-01T00:00:00Z"}"#, "service", "is required"),
    (EventLines.line(.block(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), service: String(repeating: "f", count: 65))), "service", "1–64"),
    (EventLines.line(.block(id: "x", subject: "u", at: ts("2026-02-01T00:00:00Z"), service: "fraud", entitlements: ["vip"])), "entitlements", "entitlement ids"),
    (#"{"id":"x","type":"unblock","subject":"u","at":"2026-02-01T00:00:00Z","service":"fraud","entitlements":["pro"]}"#, "entitlements", "not allowed"),
  ]

  @Test("every invalid grant, revocation, block or unblock is an error naming its line and field", arguments: invalid)
  func invalidValues(line: String, field: String, words: String) throws {
    let found = try errors(Self.base + "\n" + line)
    #expect(found.count == 1)
    #expect(found.first?.line == 2)
    #expect(found.first?.exitCode == 65)
    let message = found.first?.message ?? ""
    #expect(message.contains(field), "\(message)")
    #expect(message.contains(words), "\(message)")
  }

  @Test("a grant_revoked naming no grant of its subject changes nothing and is warned about")
  func unknownGrant() throws {
    let log = Self.base + "\n" + EventLines.log([
      .grant(id: "g1", subject: "other", at: ts("2026-02-01T00:00:00Z"), entitlements: ["pro"]),
      .grantRevoked(id: "x", subject: "u", at: ts("2026-02-02T00:00:00Z"), grant: "g1"),
    ])
    let loaded = try ledger(log)
    #expect(loaded.warnings.map(\.line) == [3])
    var engine = QueryEngine(ledger: loaded)
    #expect(engine.checkedAnswer("other", at: "2026-03-01T00:00:00Z").entitlements.byName.first?.value.ownership == .granted)
  }

  @Test("a grant's edges: active at its at, not at its expires; revoked from the revocation's at, even one learned late")
  func edges() throws {
    let log = EventLines.log([
      .grant(id: "g1", subject: "u", at: ts("2026-02-01T00:00:00Z"), entitlements: ["pro"], expires: ts("2026-03-01T00:00:00Z")),
      .grantRevoked(id: "r1", subject: "u", at: ts("2026-02-10T00:00:00Z"), grant: "g1").recordedAt("2026-02-20T00:00:00Z"),
    ])
    var engine = QueryEngine(ledger: try ledger(log))
    let cases: [(String, String?, Bool)] = [
      ("2026-01-31T23:59:59.999Z", nil, false), ("2026-02-01T00:00:00Z", nil, true),
      ("2026-02-09T23:59:59.999Z", nil, true), ("2026-02-10T00:00:00Z", nil, false),
      ("2026-02-10T00:00:00Z", "2026-02-19T23:59:59.999Z", true), ("2026-02-10T00:00:00Z", "2026-02-20T00:00:00Z", false),
    ]
    for (at, asOf, active) in cases {
      #expect(engine.checkedAnswer("u", at: at, asOf: asOf).entitlements.isEmpty == !active, "\(at) as of \(asOf ?? "now")")
    }
  }

  @Test("a blocked entitlement does not convert the usage trial nor match a tier; the plan still shows")
  func blockIsInactiveForPolicy() throws {
    let log = Self.base + "\n" + EventLines.log([
      .block(id: "b1", subject: "u", at: ts("2026-01-01T00:00:00Z"), service: "consent", entitlements: ["pro"]),
    ])
    var engine = QueryEngine(ledger: try ledger(log))
    let answer = engine.checkedAnswer("u", at: "2026-01-05T00:00:00Z")
    #expect(answer.entitlements.isEmpty)
    #expect(answer.plans.byName.first?.value.state == .active)
    #expect(answer.blocked?.byName.first?.value.map(\.service) == ["consent"])
    let absent = AbsentEntitlement.all(from: answer, ledger: try ledger(log))
    #expect(absent.map(\.absence.reason) == ["blocked by consent since 1 Jan 2026; events b1 (line 2: block, effective 1 Jan 2026)"])
    var state = SubjectState()
    let loaded = try ledger(log)
    let events = loaded.events(of: loaded.subject(named: "u")!)
    state.reset(subscriptionCount: 1, itemCount: events.count)
    for event in events { _ = state.apply(event, context: loaded.context) }
    #expect(!state.hasEntitlement(0, at: ts("2026-01-05T00:00:00Z"), catalog: loaded.catalog))
  }
}
