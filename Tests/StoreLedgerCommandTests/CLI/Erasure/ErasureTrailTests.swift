import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// Issue 38, points 5 and 3: an erasure leaves a trail without the data (`check` and the
/// pseudonym's `timeline`, text and HTML, say when), and a snapshot it made stale is refused
/// saying why and what to do.
@Suite("Erasure's trail: check, timeline and stale snapshots say what happened")
struct ErasureTrailTests {
  @Test("after two erasures, check counts them and says when the last was; the pseudonym's timeline says when, as text and as HTML")
  func trail() throws {
    let text = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
      + EventLines.line(.purchase(id: "e9", subject: "u4", at: ts("2026-02-02T00:00:00Z"), product: "coins.100", transaction: "u4-t1", quantity: 1)) + "\n"
    let workspace = try Workspace(log: text)
    defer { try? FileManager.default.removeItem(at: workspace.directory) }
    let before = runCLI(["check", workspace.log])
    #expect(before.status == 0 && !before.stdout.contains("erased"))
    #expect(runCLI(["erase", workspace.log, "--subject", "u1"]).status == 0)
    let erase = runCLI(["erase", workspace.log, "--subject", "u2", "--subject", "u3"])
    #expect(erase.status == 0, "\(erase.stderr)")
    let registry = try #require(try ErasureRegistry.read(log: workspace.log))
    let last = try #require(registry.erasures.last)
    let check = runCLI(["check", workspace.log])
    #expect(check.status == 0)
    #expect(
      check.stdout.contains("erased: 3 subjects in 2 erasures, the last on \(AnswerWords.instant(last.erasedAt))"),
      "\(check.stdout)")
    let pseudonym = try #require(registry.erasures.first?.pseudonym)
    let timeline = runCLI(["timeline", workspace.log, "--subject", pseudonym])
    #expect(timeline.status == 0)
    #expect(timeline.stdout.hasPrefix("erased on \(AnswerWords.instant(registry.erasures[0].erasedAt)): "), "\(timeline.stdout.prefix(200))")
    let html = runCLI(["timeline", workspace.log, "--subject", pseudonym, "--format", "html"])
    #expect(html.status == 0 && html.stderr.isEmpty, "\(html.stderr)")
    #expect(html.stdout.contains("<p class=\"erased\"><strong>erased on \(AnswerWords.instant(registry.erasures[0].erasedAt)): "), "\(html.stdout.prefix(600))")
    let other = runCLI(["timeline", workspace.log, "--subject", "u4", "--format", "html"])
    #expect(other.status == 0 && !other.stdout.contains("erased on"))
  }

  @Test("a snapshot written before an erasure is refused as stale, naming the erasure and how to make a new one; one written after it and then edited by hand gets the general message")
  func staleSnapshot() throws {
    let text = try String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)
    let workspace = try Workspace(log: text)
    defer { try? FileManager.default.removeItem(at: workspace.directory) }
    let older = workspace.path("before.snapshot")
    #expect(runCLI(["snapshot", workspace.log, "--out", older]).status == 0)
    // Erasure times are milliseconds: the erasure is strictly later than the snapshot's file.
    usleep(5_000)
    #expect(runCLI(["erase", workspace.log, "--subject", "u1"]).status == 0)
    let erasedAt = try #require(try ErasureRegistry.read(log: workspace.log)?.erasures.last?.erasedAt)
    let stale = runCLI(["query", workspace.log, "--subject", "u2", "--at", "2026-03-01T00:00:00Z", "--snapshot", older])
    #expect(stale.status == 65)
    #expect(stale.stderr.contains("is stale: the log was rewritten by 'erase' on \(AnswerWords.instant(erasedAt)), after this snapshot was written"), "\(stale.stderr)")
    #expect(stale.stderr.contains("make a new snapshot with 'storeledger snapshot \(workspace.log) --out \(older)'"), "\(stale.stderr)")
    #expect(!stale.stderr.contains("lines before the cut were edited"), "\(stale.stderr)")

    let newer = workspace.path("after.snapshot")
    #expect(runCLI(["snapshot", workspace.log, "--out", newer]).status == 0)
    #expect(runCLI(["query", workspace.log, "--subject", "u2", "--at", "2026-03-01T00:00:00Z", "--snapshot", newer]).status == 0)
    let edited = try String(contentsOfFile: workspace.log, encoding: .utf8).replacingOccurrences(of: "\"u2\"", with: "\"u9\"")
    try edited.write(toFile: workspace.log, atomically: true, encoding: .utf8)
    let handEdited = runCLI(["query", workspace.log, "--subject", "u2", "--at", "2026-03-01T00:00:00Z", "--snapshot", newer])
    #expect(handEdited.status == 65)
    #expect(handEdited.stderr.contains("lines before the cut were edited") && !handEdited.stderr.contains("is stale"), "\(handEdited.stderr)")
  }
}
