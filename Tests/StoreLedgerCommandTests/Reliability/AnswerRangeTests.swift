import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerCLI

private let lifetime = EventLines.line(
  .purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.lifetime", transaction: "t1"))

/// A workspace with the policy catalog of Events/policy (trial P21D, grace PT48H, local days at -05:00).
private func policySpace(log: String) throws -> Workspace {
  let space = try Workspace(log: log)
  try space.write("catalog.json", try String(contentsOfFile: repoPath("Events/policy/catalog.json"), encoding: .utf8))
  return space
}

private func usage(at: String) -> String {
  #"{"id":"x","type":"usage","subject":"u","at":"\#(at)","feature":"interaction"}"# + "\n"
}

@Suite("Answers print only years the tool reads back; counts say 1 line (issue 18, item 11)")
struct AnswerRangeTests {
  /// (offset minutes, typed time, accepted).
  static let zoned: [(Int64, String, Bool)] = [
    (-300, "9999-12-31T23:00", false), (-300, "9999-12-31T18:59:59.999", true), (-300, "9999-12-31", true),
    (300, "0000-01-01", false), (300, "0000-01-01T05:00", true), (-60, "9999-12-31 23:30", false),
  ]

  @Test("--tz cannot carry a typed time outside 0000–9999", arguments: zoned)
  func tzRange(offset: Int64, text: String, accepted: Bool) {
    switch TimeInput(utcOffsetMinutes: offset).parse(text) {
    case .success(let time):
      #expect(accepted, "\(text) gave \(time.rfc3339)")
      #expect(time.isReadable)
    case .failure(let problem):
      #expect(!accepted)
      #expect(problem == .outOfRange)
    }
  }

  @Test("query --at with --tz past 9999 is a usage error (64) saying why")
  func tzOnTheCommandLine() throws {
    let space = try Workspace(log: lifetime + "\n")
    let result = runCLI(["query", space.log, "--subject", "u1", "--at", "9999-12-31T23:00", "--tz", "-05:00"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("'--at': '9999-12-31T23:00' is outside the times the tool can print and read back"))
    #expect(result.stdout.isEmpty)
  }

  @Test("query --during the last day of 9999 is refused; the day before answers with readable times")
  func during() throws {
    let space = try Workspace(log: lifetime + "\n")
    let last = runCLI(["query", space.log, "--subject", "u1", "--during", "9999-12-31"])
    #expect(last.status == 64)
    #expect(last.stderr.contains("ends at 10000-01-01T00:00:00Z"))
    let before = runCLI(["query", space.log, "--subject", "u1", "--during", "9999-12-30", "--format", "text"])
    #expect(before.status == 0)
    #expect(before.stdout.hasPrefix("u1 from 30 Dec 9999 to 31 Dec 9999, as known now:\n"))
  }

  /// (from, to, every, accepted).
  static let spans: [(String, String, String, Bool)] = [
    ("9999-12-01", "9999-12-31T12:00:00Z", "month", false), ("9999-12-30", "9999-12-31T12:00:00Z", "week", false),
    ("0000-01-01", "0000-01-31", "week", false), ("9999-12-30", "9999-12-30T12:00:00Z", "day", true),
    ("0000-01-01", "0000-03-01", "month", true),
  ]

  @Test("a report bucket that would start before 0000 or end after 9999 is a usage error", arguments: spans)
  func reportBuckets(from: String, to: String, every: String, accepted: Bool) throws {
    let space = try Workspace(log: lifetime + "\n")
    let result = runCLI(["report", space.log, "--from", from, "--to", to, "--every", every, "--metrics", "charges"])
    #expect(result.status == (accepted ? 0 : 64), "\(result.stderr)")
    if accepted {
      #expect(!result.stdout.contains("10000-") && !result.stdout.contains("\"-"))
    } else {
      #expect(result.stderr.contains("outside the times a report can print"))
    }
  }

  @Test("a usage whose trial would end after 9999 is refused at the event; an earlier one answers in range")
  func trialEnd() throws {
    let late = try policySpace(log: usage(at: "9999-12-20T00:00:00Z"))
    let refused = runCLI(["check", late.log])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("log.jsonl:1: error: field 'at': expected a time from which the policy's trial (P21D and grace PT48H) ends by"))
    #expect(refused.stderr.contains("it would end at 10000-01-10T00:00:00Z"))

    let early = try policySpace(log: usage(at: "9999-12-01T00:00:00Z"))
    let answer = runCLI(["query", early.log, "--subject", "u", "--at", "9999-12-02"])
    #expect(answer.status == 0, "\(answer.stderr)")
    #expect(answer.stdout.contains(#""ends":"9999-12-22T00:00:00Z""#))
    #expect(answer.stdout.contains(#""grace_ends":"9999-12-24T00:00:00Z""#))
  }

  /// (--at, window_ends): daily windows are local days at -05:00, so the last one ends at 10000-01-01T05:00Z.
  static let windows: [(String, String)] = [
    ("9999-12-31T04:59:59Z", #""window_ends":"9999-12-31T05:00:00Z""#), ("9999-12-31T05:00:00Z", #""window_ends":null"#),
  ]

  @Test("a usage window ending after 9999 prints no end rather than year 10000", arguments: windows)
  func windowEnds(at: String, expected: String) throws {
    let space = try policySpace(log: usage(at: "9999-12-01T00:00:00Z"))
    let result = runCLI(["can", space.log, "--subject", "u", "--feature", "interaction", "--at", at])
    #expect(result.stdout.contains(expected), "\(result.stdout)")
    #expect(!result.stdout.contains("10000-"))
  }

  @Test("counts say 1 line, 1 error, 1 byte")
  func plurals() throws {
    let bad = try Workspace(log: "{oops\n")
    #expect(runCLI(["check", bad.log]).stderr.hasSuffix("log.jsonl: 1 error in 1 line\n"))
    let good = try Workspace(log: lifetime + "\n")
    #expect(runCLI(["check", good.log]).stdout.hasSuffix("1 line, 1 event, 0 duplicates skipped, 1 subject, 0 warnings\n"))
    let torn = try Workspace(log: lifetime + "\n{")
    #expect(runCLI(["query", torn.log, "--subject", "u1", "--at", "2026-04-01"]).stderr.contains("(1 byte without a final newline)"))
    #expect(Plural.counted(0, "line") == "0 lines")
    #expect(Plural.counted(2, "query", "queries") == "2 queries")
  }
}
