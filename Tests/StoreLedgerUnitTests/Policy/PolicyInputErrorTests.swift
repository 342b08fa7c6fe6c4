import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Bad policies, bad usage lines and bad flags are refused with a clear message")
struct PolicyInputErrorTests {
  /// The policy catalog with one substring replaced.
  static func catalogText(replacing old: String, with new: String) -> String {
    let text = policyCatalogText()
    precondition(text.contains(old), "\(old) is not in the test catalog")
    return text.replacingOccurrences(of: old, with: new)
  }

  @Test(
    "a bad policy is a catalog error naming what is wrong",
    arguments: [
      (#""free": 5}"#, #""fre": 5}"#, "feature 'interaction': field 'limits': unknown tier 'fre'"),
      (#""pattern": 3}"#, #""patterns": 3}"#, "trial: field 'usage': unknown feature 'patterns'"),
      (#""window": "week""#, #""window": "fortnight""#, "feature 'weekly': field 'window': expected day, week, month or ever"),
      (#""utc_offset": "+00:00""#, #""utc_offset": "+25:00""#, "field 'utc_offset': expected an offset"),
      (#""utc_offset": "+00:00""#, #""utc_offset": "UTC""#, "field 'utc_offset': expected an offset"),
      (#""within": "P7D""#, #""within": "7 days""#, "tier 'intro': field 'within': expected an ISO 8601 duration"),
      (#""duration": "P21D""#, #""duration": 21"#, "trial: field 'duration' is required"),
      (#""interaction": 50"#, #""interaction": 0"#, "feature 'interaction': expected an integer ≥ 1"),
      (#""free": 5}"#, #""free": -1}"#, "limit of tier 'free': expected an integer ≥ 0"),
      (#"{"name": "free"}"#, #"{"name": "plus"}"#, "tier name 'plus' is used twice"),
      (#""trial": true"#, #""trial": false"#, "field 'trial': expected true"),
    ])
  func badPolicy(old: String, new: String, message: String) throws {
    do {
      _ = try catalog(Self.catalogText(replacing: old, with: new))
      Issue.record("the catalog was accepted")
    } catch let list as DiagnosticList {
      let text = list.diagnostics.map(\.description).joined(separator: "\n")
      #expect(text.contains(message), "\(text)")
      #expect(list.exitCode == 65)
    }
  }

  @Test("a trial: true tier without a trial section is a catalog error")
  func trialTierWithoutTrial() throws {
    let text = policyCatalogText().replacingOccurrences(
      of: #""trial": {"entitlement": "plus", "duration": "P21D", "usage": {"interaction": 50, "pattern": 3}, "grace": "PT48H"},"#,
      with: "")
    #expect(throws: DiagnosticList.self) { try catalog(text) }
    do { _ = try catalog(text) } catch let list as DiagnosticList {
      #expect(list.diagnostics.first?.message == "bad catalog: policy: tier 'trial' has 'trial: true' but the policy has no 'trial' section")
    }
  }

  @Test(
    "a bad usage line names the field",
    arguments: [
      (#"{"id":"x","type":"usage","subject":"a","at":"2026-01-01T00:00:00Z"}"#, "field 'feature' is required for type 'usage'"),
      (EventLines.line(.usage(id: "x", subject: "a", at: ts("2026-01-01T00:00:00Z"), feature: "chat")),
       #"field 'feature': expected a feature of the catalog's policy (deep_compare, interaction, monthly, pattern, saved_trip, weekly), found "chat""#),
      (EventLines.line(.usage(id: "x", subject: "a", at: ts("2026-01-01T00:00:00Z"), feature: "pattern", quantity: 0)),
       "field 'quantity': expected a non-zero integer from -1000000 to 1000000 (negative: held items released), found 0"),
      (EventLines.line(.usage(id: "x", subject: "a", at: ts("2026-01-01T00:00:00Z"), feature: "pattern", quantity: 1000001)),
       "found 1000001"),
      (#"{"id":"x","type":"usage","subject":"a","at":"2026-01-01T00:00:00Z","feature":"pattern","quantity":1.5}"#,
       "field 'quantity': expected an integer"),
      (#"{"id":"x","type":"usage","subject":"a","at":"2026-01-01T00:00:00Z","feature":"pattern","product":"plus.monthly"}"#,
       "field 'product' is not allowed for type 'usage'"),
    ])
  func badUsageLine(line: String, message: String) throws {
    let found = try errors(line, catalogText: policyCatalogText())
    #expect(found.count == 1)
    #expect(found.first?.message.contains(message) == true, "\(found.map(\.message))")
    #expect(found.first?.line == 1)
  }

  @Test("a usage line against a catalog without a policy says so")
  func usageWithoutPolicy() throws {
    let found = try errors(EventLines.line(.usage(id: "x", subject: "a", at: ts("2026-01-01T00:00:00Z"), feature: "pattern")))
    #expect(found.first?.message == #"field 'feature': expected a feature of the catalog's 'policy' (this catalog has no policy), found "pattern""#)
  }

  @Test("the largest release and use are accepted")
  func quantityBounds() throws {
    let ledger = try policyLedger([
      use("a", "q", "2026-01-01T00:00:00Z", "saved_trip", quantity: 1_000_000),
      use("b", "q", "2026-01-02T00:00:00Z", "saved_trip", quantity: -1_000_000),
    ])
    #expect(ledger.events.map(\.quantity) == [1_000_000, -1_000_000])
  }
}
