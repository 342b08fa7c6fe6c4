import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerReport
@testable import StoreLedgerCLI

/// `query --format reply`: usage only when asked, and `--tz` zone names with their summer time.
@Suite("query --format reply: usage on request, zone names with summer time")
struct ReplyOptionsTests {
  @Test("a reply says nothing about usage unless --usage is given, and then one sentence per feature")
  func usageOnRequest() throws {
    let space = try QueryTextTests.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let base = ["query", space.log, "--subject", "ana", "--at", "2026-03-30T09:04:00Z", "--format", "reply"]
    let plain = runCLI(base)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(!plain.stdout.contains("used"), "\(plain.stdout)")
    let withUsage = runCLI(base + ["--usage"])
    #expect(withUsage.status == 0, "\(withUsage.stderr)")
    #expect(withUsage.stdout.contains("Decision sessions: 4 of 5 used, 1 left; resets 31 Mar 2026."), "\(withUsage.stdout)")
    #expect(withUsage.stdout.contains("deep_compare is not included in your plan."), "\(withUsage.stdout)")
  }

  @Test("--usage without --format reply is a usage error")
  func usageNeedsReply() {
    let result = runCLI(["query", repoPath("Events/demo.jsonl"), "--subject", "u1", "--usage"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: '--usage' only applies to '--format reply'"), "\(result.stderr)")
  }

  @Test(
    "--tz with a zone name reads a local --at with the offset in force then (summer time included)",
    arguments: [
      ("2026-01-15 12:00", "Europe/Paris", "2026-01-15T11:00:00Z"),
      ("2026-07-15 12:00", "Europe/Paris", "2026-07-15T10:00:00Z"),
      ("2026-07-15", "America/Los_Angeles", "2026-07-15T07:00:00Z"),
      ("2026-07-15T12:00:00Z", "Asia/Tokyo", "2026-07-15T12:00:00Z"),
      ("2026-07-15 12:00", "+02:00", "2026-07-15T10:00:00Z"),
    ])
  func zoneNames(at: String, zone: String, expected: String) {
    let result = runCLI(["query", repoPath("Events/demo.jsonl"), "--subject", "u1", "--at", at, "--tz", zone])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""at":"\#(expected)""#), "\(result.stdout)")
  }

  @Test("reply dates are the customer's local day: an end at 00:00 UTC is the day before in Los Angeles")
  func localDay() throws {
    let zone = try #require(ZoneRules.zone(named: "America/Los_Angeles"))
    let end = try #require(Timestamp.parseRFC3339("2026-03-06T00:00:00Z"))
    #expect(zone.day(end) == "5 Mar 2026")
    #expect(ZoneRules.zone(named: "Europe/Paris")?.day(end) == "6 Mar 2026")
    #expect(ZoneRules.zone(named: "CET") == nil)
  }
}
