import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A customer of `Events/policy/catalog.json` in one tier, with no other conditional tier applying.
struct TierCustomer: CustomTestStringConvertible {
  /// The tier the engine must report.
  var tier: String
  /// Lines that put the subject there (subject `SUBJECT`).
  var setup: [String]
  /// When the question is asked.
  var at: String
  /// Uses the setup already made, by feature and window (they count against those windows at `at`).
  var priorUses: [String: [UsageWindow: Int64]] = [:]
  var testDescription: String { tier }

  // Monday 2 March 2026, 10:00 at the policy's -05:00.
  static let day0 = "2026-03-02T15:00:00Z"

  static let all: [TierCustomer] = [
    // A plus subscriber after the first week: the trial converted at the purchase, intro is over.
    TierCustomer(
      tier: "plus",
      setup: [EventLines.line(.purchase(id: "SUBJECT-p", subject: "SUBJECT", at: ts("2026-03-02T15:00:00Z"), product: "plus.monthly", transaction: "SUBJECT-t", expires: ts("2026-04-02T15:00:00Z")))],
      at: "2026-03-12T15:00:00Z"),
    // A pro subscriber after the trial's 21 days and 48 hours of grace.
    TierCustomer(
      tier: "pro",
      setup: [EventLines.line(.purchase(id: "SUBJECT-p", subject: "SUBJECT", at: ts("2026-03-02T15:00:00Z"), product: "pro.monthly", transaction: "SUBJECT-t", expires: ts("2026-04-02T15:00:00Z")))],
      at: "2026-03-27T15:00:00Z"),
    // In the trial, after the intro week.
    TierCustomer(
      tier: "trial",
      setup: [EventLines.line(.purchase(id: "SUBJECT-c", subject: "SUBJECT", at: ts("2026-03-02T15:00:00Z"), product: "coins.100", transaction: "SUBJECT-t"))],
      at: "2026-03-12T15:00:00Z"),
    // The trial matured by 50 interactions on day one, its grace over, still in the intro week.
    TierCustomer(
      tier: "intro",
      setup: [
        EventLines.line(.purchase(id: "SUBJECT-c", subject: "SUBJECT", at: ts("2026-03-02T15:00:00Z"), product: "coins.100", transaction: "SUBJECT-t")),
        EventLines.line(.usage(id: "SUBJECT-i", subject: "SUBJECT", at: ts("2026-03-02T16:00:00Z"), feature: "interaction", quantity: 50)),
      ],
      at: "2026-03-06T15:00:00Z", priorUses: ["interaction": [.ever: 50, .week: 50, .month: 50]]),
    // Past every condition.
    TierCustomer(
      tier: "free",
      setup: [EventLines.line(.purchase(id: "SUBJECT-c", subject: "SUBJECT", at: ts("2026-03-02T15:00:00Z"), product: "coins.100", transaction: "SUBJECT-t"))],
      at: "2026-03-27T15:00:00Z"),
  ]
}

@Suite("storeledger policy describes what the gate enforces")
struct PolicyDescriptionTests {
  static let catalogText: String = (try? String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8)) ?? ""

  /// The description's claim, read back from its JSON as a user's script would.
  private func claims(tier: String, json: JSONValue) throws -> [String: JSONValue] {
    guard case .array(let tiers)? = json["tiers"],
      let found = tiers.first(where: { $0["name"]?.stringValue == tier }),
      let features = found["features"]?.objectMembers
    else { throw CocoaError(.coderValueNotFound) }
    return Dictionary(uniqueKeysWithValues: features)
  }

  @Test("every tier's claim on every feature agrees with can at 0, limit − 1 and limit uses", arguments: TierCustomer.all)
  func claimsMatchTheGate(customer: TierCustomer) throws {
    let catalog = try StoreLedgerTestSupport.catalog(Self.catalogText)
    let description = try #require(PolicyDescription(catalog: catalog))
    let tierClaims = try claims(tier: customer.tier, json: description.json)
    let at = ts(customer.at)
    var checked = 0
    for (feature, claim) in tierClaims.sorted(by: { $0.key < $1.key }) {
      let kind = claim["kind"]?.stringValue
      var limits: [(limit: Int64, window: UsageWindow)] = []
      if case .array(let values)? = claim["limits"] {
        for value in values {
          guard case .integer(let limit)? = value["limit"], let window = UsageWindow.allCases.first(where: { $0.name == value["window"]?.stringValue })
          else { throw CocoaError(.coderValueNotFound) }
          limits.append((limit, window))
        }
      }
      // Below the trial's thresholds, so counting uses never moves the customer out of the trial.
      var counts: Set<Int64> = [0, 2]
      for limit in limits { counts.formUnion([limit.limit - 1, limit.limit]) }
      for uses in counts.sorted() where uses >= 0 {
        let subject = "\(customer.tier)-\(feature)-\(uses)"
        var lines = customer.setup.map { $0.replacingOccurrences(of: "SUBJECT", with: subject) }
        if uses > 0 {
          let use = NewEvent.usage(
            id: "\(subject)-u", subject: "\(subject)", at: Timestamp(millisecondsSinceEpoch: at.millisecondsSinceEpoch - 3_600_000),
            feature: FeatureID(rawValue: "\(feature)"), quantity: Int64(uses))
          lines.append(EventLines.line(use))
        }
        var engine = QueryEngine(ledger: try ledger(lines.joined(separator: "\n"), catalogText: Self.catalogText))
        let asked = engine.permission(subject: subject, feature: feature, at: at, asOf: nil)
        let permission = try #require(asked)
        #expect(permission.tier == customer.tier, "\(subject): the setup did not put the customer in the tier")
        let expected: Bool
        switch kind {
        case "unlimited": expected = true
        case "not_included": expected = false
        default:
          expected = limits.contains { uses + (customer.priorUses[feature]?[$0.window] ?? 0) < $0.limit }
        }
        #expect(permission.usage.allowed == expected, "\(subject): the description says \(claim["words"]?.stringValue ?? "?")")
        checked += 1
      }
    }
    #expect(checked >= 10)
  }

  @Test("labels and units name tiers and features; windows, trial and offline terms are in words")
  func wording() throws {
    var text = Self.catalogText
    text = text.replacingOccurrences(
      of: #""decision_session": {"window": "day","#,
      with: #""decision_session": {"label": "Decision sessions", "unit": {"one": "decision session", "other": "decision sessions"}, "window": "day","#)
    text = text.replacingOccurrences(of: #"{"name": "plus", "entitlement": "plus"}"#, with: #"{"name": "plus", "entitlement": "plus", "label": "Plus"}"#)
    let catalog = try StoreLedgerTestSupport.catalog(text)
    let description = try #require(PolicyDescription(catalog: catalog))
    let words = description.text
    #expect(words.contains("Plus (while the 'plus' entitlement is active (plus.annual, plus.monthly)):"))
    #expect(words.contains("  Decision sessions: 100 decision sessions a day\n"))
    #expect(words.contains("  saved_trip: 1 use in total\n"))
    #expect(words.contains("Daily limits reset every day at 00:00 UTC-05:00."))
    #expect(words.contains("It ends after 50 uses of interaction, 3 uses of pattern or 21 days, whichever comes first, then 48 hours of grace."))
    #expect(words.contains("up to 24 hours"))
    #expect(description.markdown.contains("| Decision sessions | 100 decision sessions a day | 5 decision sessions a day |"))
  }

  @Test("labels with control characters are a catalog error, and HTML escapes what it prints")
  func hostileLabels() throws {
    let bad = Self.catalogText.replacingOccurrences(
      of: #"{"name": "plus", "entitlement": "plus"}"#, with: #"{"name": "plus", "entitlement": "plus", "label": "P\u001b[2J"}"#)
    #expect(throws: (any Error).self) { try StoreLedgerTestSupport.catalog(bad) }
    let html = Self.catalogText.replacingOccurrences(
      of: #"{"name": "plus", "entitlement": "plus"}"#, with: #"{"name": "plus", "entitlement": "plus", "label": "<script>x</script>"}"#)
    let page = try #require(PolicyDescription(catalog: try StoreLedgerTestSupport.catalog(html))).html
    #expect(!page.contains("<script>") && page.contains("&lt;script&gt;"))
  }
}
