import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The one-pass leak scan agrees with judging every use by its own fold")
struct UseScanTests {
  @Test("seeded logs with late knowledge, releases, purchases and refunds give the same leaks both ways")
  func agreesWithExact() throws {
    for seed in testSeeds([41, 42, 43, 44, 45, 46]) {
      for offset in ["+00:00", "-05:00"] {
        var lines = PolicySnapshotTests.usageLog(seed: seed)
        // Some same-instant uses, a lifetime unlock and its refund recorded late.
        lines.append(use("tie-a", "s3", "2026-04-02T10:00:00Z"))
        lines.append(use("tie-b", "s3", "2026-04-02T10:00:00Z"))
        lines.append(
          EventLines.line(.purchase(id: "life", subject: "s3", at: ts("2026-04-03T00:00:00Z"), product: "plus.lifetime", transaction: "l3")))
        lines.append(
          EventLines.line(.revocation(id: "refund", subject: "s3", at: ts("2026-04-05T00:00:00Z"), transaction: "l3").recordedAt("2026-04-20T00:00:00Z")))
        // A subscription backfilled late: a use before it was recorded leaks as known then;
        // a use itself recorded after the backfill does not.
        lines.append(
          EventLines.line(.purchase(id: "late-buy", subject: "s4", at: ts("2026-04-01T00:00:00Z"), product: "plus.monthly", transaction: "t4", expires: ts("2026-05-01T00:00:00Z")).recordedAt("2026-04-10T00:00:00Z")))
        lines.append(use("early-use", "s4", "2026-04-02T00:00:00Z", "deep_compare"))
        lines.append(use("late-use", "s4", "2026-04-02T01:00:00Z", "deep_compare", recorded: "2026-04-12T00:00:00Z"))
        var engine = QueryEngine(ledger: try policyLedger(lines, offset: offset))
        var exact: [Leak] = []
        engine.forEachLeak(exact: true) { exact.append($0) }
        var scanned: [Leak] = []
        engine.forEachLeak { scanned.append($0) }
        #expect(scanned == exact, "seed \(seed) offset \(offset)")
        #expect(!exact.isEmpty, "seed \(seed): the log should have leaks to compare")
        #expect(exact.contains { $0.id == "early-use" } && !exact.contains { $0.id == "late-use" })
      }
    }
  }
}
