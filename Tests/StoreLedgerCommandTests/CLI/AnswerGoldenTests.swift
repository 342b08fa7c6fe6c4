import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// Whether this run re-records the golden answers: only when asked, and never on CI.
let isRecordingAnswers: Bool = {
  let environment = ProcessInfo.processInfo.environment
  return environment["STORELEDGER_RECORD"] == "1" && environment["CI"] == nil
}()

/// Compares `received` with `Snapshots/answers/NAME.txt`, or writes it there when re-recording.
func expectAnswerGolden(_ received: String, name: String, suite: String) throws {
  let goldenPath = repoPath("Snapshots/answers/\(name).txt")
  if isRecordingAnswers {
    try FileManager.default.createDirectory(atPath: repoPath("Snapshots/answers"), withIntermediateDirectories: true)
    try received.write(toFile: goldenPath, atomically: true, encoding: .utf8)
    return
  }
  let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
  #expect(
    golden == received,
    "Snapshots/answers/\(name).txt differs; re-record on purpose with STORELEDGER_RECORD=1 swift test --filter \(suite)")
}

/// One pinned question: a scenario log, a subject, a time and the customer's zone.
struct AnswerCase: CustomTestStringConvertible, Sendable {
  let name: String
  let scenario: String
  let subject: String
  let at: String
  let zone: String
  var testDescription: String { name }

  /// The two commands pinned: the explained text a ticket carries and the reply a customer reads.
  var commands: [[String]] {
    let base = ["query", "Events/\(scenario).jsonl", "--subject", subject, "--at", at]
    return [base + ["--format", "text", "--explain"], base + ["--format", "reply", "--tz", zone]]
  }
}

@Suite("query --explain in text and --format reply, pinned as golden files in Snapshots/answers/")
struct AnswerGoldenTests {
  static let cases: [AnswerCase] = [
    AnswerCase(name: "active", scenario: "trial-then-lifetime", subject: "bea", at: "2026-02-05", zone: "Europe/Paris"),
    AnswerCase(name: "grace", scenario: "grace-recovery", subject: "hank", at: "2026-03-10", zone: "Europe/Paris"),
    AnswerCase(name: "grace-day-shift", scenario: "grace-recovery", subject: "gina", at: "2026-02-22T12:00:00Z", zone: "America/Los_Angeles"),
    AnswerCase(name: "billing-retry", scenario: "billing-retry-expiry", subject: "kim", at: "2026-05-20", zone: "Europe/Paris"),
    AnswerCase(name: "billing-retry-after-grace", scenario: "grace-recovery", subject: "hank", at: "2026-04-02", zone: "Europe/Paris"),
    AnswerCase(name: "refunded-late", scenario: "demo", subject: "u1", at: "2026-03-05T12:00:00Z", zone: "Europe/Paris"),
    AnswerCase(name: "refunded", scenario: "refund-reversal", subject: "pat", at: "2026-01-30", zone: "Asia/Tokyo"),
    AnswerCase(name: "expired", scenario: "billing-retry-expiry", subject: "meg", at: "2026-12-10", zone: "Europe/Paris"),
    AnswerCase(name: "expired-billing", scenario: "grace-recovery", subject: "hank", at: "2026-05-02", zone: "Europe/Paris"),
    AnswerCase(name: "family-shared", scenario: "family-sharing", subject: "lena", at: "2026-03-25", zone: "Europe/Paris"),
    AnswerCase(name: "lifetime", scenario: "trial-then-lifetime", subject: "cal", at: "2026-02-01", zone: "Europe/Paris"),
    AnswerCase(name: "balance", scenario: "consumables", subject: "gus", at: "2026-03-05T12:00:00Z", zone: "Europe/Paris"),
    AnswerCase(name: "never-seen", scenario: "demo", subject: "nobody", at: "2026-03-05", zone: "Europe/Paris"),
  ]

  /// The transcript of a case: each command as typed from the repository's root, then what it printed.
  static func transcript(_ answerCase: AnswerCase) -> String {
    answerCase.commands.map { command in
      var arguments = command
      arguments[1] = repoPath(command[1])
      let result = runCLI(arguments)
      return "$ storeledger \(command.joined(separator: " "))\n" + result.stdout + "(exit \(result.status))\n"
    }.joined(separator: "\n")
  }

  @Test("each case's explained text and customer reply match its golden file", arguments: cases)
  func golden(answerCase: AnswerCase) throws {
    try expectAnswerGolden(Self.transcript(answerCase), name: answerCase.name, suite: "AnswerGoldenTests")
  }

  @Test("a reply names no id, no transaction and no state name", arguments: cases)
  func replyIsPlain(answerCase: AnswerCase) throws {
    var arguments = answerCase.commands[1]
    arguments[1] = repoPath(arguments[1])
    let reply = runCLI(arguments).stdout
    let ledgerText = try String(contentsOfFile: repoPath(answerCase.commands[1][1]), encoding: .utf8)
    let ids = ledgerText.split(separator: "\n").flatMap { line -> [String] in
      guard let value = try? JSONValue.parse(bytes: Array(line.utf8)), case .object(let fields) = value else { return [] }
      return fields.compactMap { key, field in
        guard ["id", "transaction", "original_transaction"].contains(key), case .string(let text) = field else { return nil }
        return text
      }
    }
    for word in ids + ["billing_retry", "revoked", "family_shared", "grace_entered", "purchased", "UTC"] {
      #expect(!reply.contains(word), "the reply for \(answerCase.name) says '\(word)': \(reply)")
    }
  }
}
