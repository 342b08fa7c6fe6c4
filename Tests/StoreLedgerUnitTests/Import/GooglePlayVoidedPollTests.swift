import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `voidedpurchases.list` reaches back 30 days only: an import into a log whose kept documents
/// hold no list fetched in the 30 days before it warns (issue 35, item 6).
@Suite("Google Play import: polling the voided purchases list")
struct GooglePlayVoidedPollTests {
  typealias V2 = GooglePlayProductV2Tests

  /// Imports `runs` one after another as `--append` does; the warnings of each run and the store.
  private func appendRuns(_ runs: [[String]]) throws -> (warnings: [[String]], store: String) {
    var log: [String] = []
    var store: [UInt8] = []
    var warnings: [[String]] = []
    for run in runs {
      let result = try GooglePlayImporter.importEvents(
        run.joined(separator: "\n"), file: "run.jsonl", catalog: GP.catalog, options: GooglePlayImportOptions(),
        knowledge: LedgerKnowledge.read(log: Array(log.joined(separator: "\n").utf8)), documentStore: store)
      log += result.eventLines
      store += Array(result.documentLines.map { $0 + "\n" }.joined().utf8)
      warnings.append(result.warnings.map(\.description).filter { $0.contains("voidedpurchases.list fetched") })
    }
    return (warnings, String(decoding: store, as: UTF8.self))
  }

  /// An empty list response, fetched at `time`.
  static func emptyList(_ time: String) -> String { #"{"fetchTime":"\#(time)","voidedPurchases":[]}"# }

  @Test(
    "a later import warns when the kept list polls are 30 days old or more at its latest fetch: at 30 days minus a millisecond it does not",
    arguments: [("2026-03-02T23:59:59.999Z", false), ("2026-03-03T00:00:00Z", true)])
  func stalePoll(fetched: String, warns: Bool) throws {
    let runs = [
      [Self.emptyList("2026-02-01T00:00:00Z"), V2.resource(fetched: "2026-02-01T00:00:01Z")],
      [V2.resource(V2.tokenE, order: V2.orderE, completed: "2026-03-01T00:00:00Z", fetched: fetched)],
    ]
    let (warnings, store) = try appendRuns(runs)
    #expect(warnings[0].isEmpty)
    #expect(warnings[1].count == (warns ? 1 : 0), "\(warnings)")
    #expect(warnings[1].allSatisfy { $0.contains("the last was fetched at 2026-02-01T00:00:00Z") && $0.contains("type=1") })
    // The empty response is kept as a poll, so it counts in later runs.
    #expect(store.contains(#"{"token":"voidedpurchases.list polls","document":{"fetchTime":"2026-02-01T00:00:00Z","voidedPurchases":[]}}"#))
  }

  @Test("a log whose kept documents hold no list at all is warned about; a list in the import itself counts")
  func neverPolled() throws {
    let never = try appendRuns([[V2.resource()], [V2.resource(V2.tokenE, order: V2.orderE)]])
    #expect(never.warnings[1].count == 1)
    #expect(never.warnings[1].first?.contains("none is kept") == true)
    let withList = try appendRuns([
      [V2.resource()], [V2.resource(V2.tokenE, order: V2.orderE), Self.emptyList("2026-03-01T00:00:00Z")],
    ])
    #expect(withList.warnings[1].isEmpty)
  }
}
