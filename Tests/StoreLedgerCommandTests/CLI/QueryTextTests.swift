import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// `query --format text`: tier, trial and usage from the policy, and plans that say only what the store will do.
@Suite("query --format text tells the truth: tier, trial, usage and plans")
struct QueryTextTests {
  /// The policy catalog at −05:00, with a label on the free tier and a label and unit on `interaction`.
  static func catalogText() -> String {
    policyCatalogText(offset: "-05:00")
      .replacingOccurrences(of: #"{"name": "free"}"#, with: #"{"name": "free", "label": "Free"}"#)
      .replacingOccurrences(
        of: #""interaction": {"window": "day","#,
        with: #""interaction": {"label": "Decision sessions", "unit": {"one": "decision session", "other": "decision sessions"}, "window": "day","#)
  }

  static func workspace() throws -> Workspace {
    let space = try Workspace(log: PolicyFixtures.freeDay.joined(separator: "\n") + "\n")
    try space.write("catalog.json", catalogText())
    return space
  }

  @Test("in grace, access runs until the grace end: no date before the instant asked about", arguments: [
    ("hank", "2026-03-10", "17 Mar 2026", "1 Mar 2026)"), ("gina", "2026-02-22", "6 Mar 2026", "20 Feb 2026)"),
  ])
  func graceUntil(subject: String, at: String, graceEnd: String, periodEnd: String) {
    let result = runCLI(["query", repoPath("Events/grace-recovery.jsonl"), "--subject", subject, "--at", at, "--format", "text"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("pro: yes, by pro.") && result.stdout.contains("(grace, purchased, until \(graceEnd))"), "\(result.stdout)")
    #expect(result.stdout.contains("access continues until \(graceEnd) (transaction"), "\(result.stdout)")
    #expect(!result.stdout.contains("until \(periodEnd)"), "\(result.stdout)")
  }

  @Test("a free-tier subject with 4 of 5 uses spent and the trial over reads so, not 'no entitlements' alone")
  func freeTierAfterTrial() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["query", space.log, "--subject", "ana", "--at", "2026-03-30T09:04:00Z", "--format", "text"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("  tier: Free (free)"))
    // First event 1 Mar 08:00; 21 days; 48 hours of grace.
    #expect(lines.contains("  trial: over: ended 22 Mar 2026 08:00 UTC after 21 days, grace until 24 Mar 2026 08:00 UTC"))
    // Local midnight at −05:00 is 05:00Z; the use at exactly T is not counted.
    #expect(
      lines.contains(
        "  usage Decision sessions: 4 of 5 decision sessions today, 1 left, resets 00:00 UTC-05:00 (tier free)"))
    #expect(lines.contains("  usage saved_trip: 1 of 1 use in total, none left, never resets (tier free)"))
    #expect(lines.contains("  usage weekly: 0 of 2 uses this week, 2 left, resets 6 Apr 2026 00:00 UTC-05:00 (tier free)"))
    #expect(lines.contains("  usage monthly: 0 of 2 uses this month, 2 left, resets 1 Apr 2026 00:00 UTC-05:00 (tier free)"))
    #expect(lines.contains("  usage deep_compare: not included in tier free (0 uses so far)"))
  }

  @Test("during the trial: its start, its end, and what would end it sooner")
  func inTrial() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["query", space.log, "--subject", "ana", "--at", "2026-03-10", "--format", "text"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("  tier: trial"))
    #expect(
      lines.contains(
        "  trial: in trial since 1 Mar 2026 08:00 UTC; ends 22 Mar 2026 08:00 UTC after 21 days unless 50 decision sessions or 3 uses of pattern come sooner, then 48 hours of grace"
      ), "\(lines)")
    #expect(lines.contains("  usage Decision sessions: 0 decision sessions today, no limit, resets 00:00 UTC-05:00 (tier trial)"))
  }

  @Test("a catalog without a policy prints no tier, trial or usage lines")
  func noPolicy() throws {
    let result = runCLI(["query", repoPath("Events/demo.jsonl"), "--subject", "u1", "--at", "2026-02-10", "--format", "text"])
    #expect(!result.stdout.contains("tier:") && !result.stdout.contains("trial:") && !result.stdout.contains("usage "))
  }

  @Test(
    "a revoked or expired plan never says it renews; an active one says what the store will do",
    arguments: [
      // The refunded renewal: revoked before its period's end.
      ("demo", "u1", "2026-03-05", "plan pro: pro.monthly, revoked; its period would have run until 1 Apr 2026 10:00 UTC (transaction u1-t2)"),
      ("demo", "u1", "2026-02-10", "plan pro: pro.monthly, active until 1 Mar 2026 10:00 UTC, renews (transaction u1-t1)"),
      // kim: billing retry at the period end, then expired (reason billing) on 1 Jun.
      ("billing-retry-expiry", "kim", "2026-07-05", "plan pro: pro.monthly, expired; its last period ended 1 May 2026 (transaction ki-1)"),
      ("billing-retry-expiry", "kim", "2026-05-10", "plan pro: pro.monthly, in billing retry since 1 May 2026: the store is retrying the charge; no access (transaction ki-1)"),
      // leo: billing retry a day before his period's end keeps access until it.
      ("billing-retry-expiry", "leo", "2026-08-31T12:00:00Z", "plan pro: pro.annual, in billing retry: access until 1 Sep 2026 while the store retries the charge (transaction le-1)"),
      // meg: cancelled, expired, then refunded.
      ("billing-retry-expiry", "meg", "2026-12-20", "plan voice: voice.monthly, revoked; its last period ended 1 Dec 2026 (transaction mg-1)"),
    ])
  func plans(scenario: String, subject: String, at: String, line: String) throws {
    let result = runCLI(["query", repoPath("Events/\(scenario).jsonl"), "--subject", subject, "--at", at, "--format", "text"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map { $0.drop { $0 == " " } }.map(String.init)
    #expect(lines.contains(line), "\(lines)")
    if !line.contains("active until") { #expect(!result.stdout.contains("renews")) }
  }
}

@Suite("Transfers in words")
struct TransferWordsTests {
  @Test("--explain in text names the transfer that made the subject the owner, and the timeline says to whom a unit moved")
  func transferInWords() {
    let log = repoPath("Events/v13-support.jsonl")
    let query = runCLI(["query", log, "--subject", "ben", "--at", "2026-02-10T00:00:00Z", "--explain", "--format", "text"])
    #expect(query.status == 0)
    #expect(query.stdout.contains("owned through: transfer between accounts (event t2, line 3), took effect 10 Jan 2026 12:00 UTC"), "\(query.stdout)")
    // The giver: the transfer that took the unit away decides the "no", in the text and the reply.
    let given = runCLI(["query", log, "--subject", "ben", "--at", "2026-02-20", "--explain", "--format", "text"])
    #expect(given.stdout.contains("pro: no: it ended at 15 Feb 2026 (pro.monthly, transferred to ana)"), "\(given.stdout)")
    #expect(given.stdout.contains("decided by: transfer between accounts (event t4, line 5), took effect 15 Feb 2026"), "\(given.stdout)")
    let reply = runCLI(["query", log, "--subject", "ben", "--at", "2026-02-20", "--format", "reply"])
    #expect(reply.stdout.contains("Your Pro access moved to another account on 15 Feb 2026."), "\(reply.stdout)")
    #expect(!reply.stdout.contains("ana"), "\(reply.stdout)")
    let timeline = runCLI(["timeline", log, "--subject", "cleo"])
    #expect(timeline.stdout.contains("transfer to dan, transaction l1"), "\(timeline.stdout)")
  }
}
