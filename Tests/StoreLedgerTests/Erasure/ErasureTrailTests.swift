import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// Issue 38, point 5 and 3: an erasure leaves a trail without the data (`check` and the
/// pseudonym's `timeline` say when), and a snapshot it made stale is refused saying why.
@Suite("Erasure's trail: check, timeline and stale snapshots say what happened")
struct ErasureTrailTests {
  @Test("after an erasure, check counts it, the pseudonym's timeline says when, an older snapshot is refused naming the erasure")
  func trail() throws {
    let text = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
    let workspace = try Workspace(log: text)
    let snapshot = workspace.directory.appendingPathComponent("before.snapshot").path
    #expect(runCLI(["snapshot", workspace.log, "--out", snapshot]).status == 0)
    let before = runCLI(["check", workspace.log])
    #expect(before.status == 0 && !before.stdout.contains("erased"))
    let erase = runCLI(["erase", workspace.log, "--subject", "u1"])
    #expect(erase.status == 0, "\(erase.stderr)")
    let check = runCLI(["check", workspace.log])
    #expect(check.status == 0)
    #expect(check.stdout.contains("erased: 1 subject, the last on "), "\(check.stdout)")
    let registry = try #require(try ErasureRegistry.read(log: workspace.log))
    let pseudonym = try #require(registry.erasures.first?.pseudonym)
    let timeline = runCLI(["timeline", workspace.log, "--subject", pseudonym])
    #expect(timeline.status == 0)
    #expect(timeline.stdout.hasPrefix("erased on "), "\(timeline.stdout.prefix(200))")
    #expect(!runCLI(["timeline", workspace.log, "--subject", "u2"]).stdout.contains("erased on"))
    let stale = runCLI(["query", workspace.log, "--subject", "u2", "--at", "2026-03-01T00:00:00Z", "--snapshot", snapshot])
    #expect(stale.status == 65)
    #expect(stale.stderr.contains("an erasure rewrote the log on"), "\(stale.stderr)")
  }
}
