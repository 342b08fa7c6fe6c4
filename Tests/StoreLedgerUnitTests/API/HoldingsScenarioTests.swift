import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("LedgerStore answers every scenario question exactly as the CLI does")
struct HoldingsScenarioTests {
  @Test("an unknown feature is an unknown_feature error with the nearest name; no policy is no_policy")
  func unknownFeature() throws {
    let scenario = try #require(scenarios.first { $0.folder.hasSuffix("policy") && $0.name == "decide-daily" })
    let store = try LedgerStore(
      logPath: repoPath("\(scenario.folder)/\(scenario.name).jsonl"), catalogPath: repoPath("\(scenario.folder)/catalog.json"))
    let at = Timestamp.parseRFC3339("2026-03-02T20:00:00Z")!
    #expect(throws: DiagnosticList.self) { try store.can("sid-free", use: "decision_sesion", at: at) }
    do {
      _ = try store.can("sid-free", use: "decision_sesion", at: at)
    } catch {
      #expect(error.code == .unknownFeature)
      #expect(error.exitCode == 64)
      #expect(error.diagnostics[0].message.contains("did you mean 'decision_session'?"))
    }
    let demo = try LedgerStore(logPath: repoPath("Events/demo.jsonl"))
    do {
      _ = try demo.can("u1", use: "anything", at: at)
      Issue.record("a catalog without policy answered a feature check")
    } catch {
      #expect(error.code == .noPolicy)
    }
    do {
      _ = try demo.cachedAnswer(for: "u1", at: at, verifiedAt: at.adding(milliseconds: 1))
      Issue.record("a cache verified after T was accepted")
    } catch {
      #expect(error.code == .cacheAfterAnswer)
    }
  }
}
