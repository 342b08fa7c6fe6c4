import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// The other outputs a support ticket carries, pinned as `query`'s are: a customer's timeline in
/// text and what `find` prints for each kind of id a customer sends.
@Suite("timeline and find in text, pinned as golden files in Snapshots/answers/")
struct TicketGoldenTests {
  /// Name of the golden file, then the command as typed from the repository's root.
  static let cases: [(name: String, command: [String])] = [
    ("timeline-refunded-late", ["timeline", "Events/demo.jsonl", "--subject", "u1"]),
    ("timeline-refunded-late-as-of", ["timeline", "Events/demo.jsonl", "--subject", "u1", "--as-of", "2026-03-06"]),
    ("timeline-grace", ["timeline", "Events/grace-recovery.jsonl", "--subject", "hank"]),
    ("find-transaction", ["find", "Events/demo.jsonl", "u1-t2"]),
    ("find-original-transaction", ["find", "Events/demo.jsonl", "u1-t1"]),
    ("find-subject-substring", ["find", "Events/grace-recovery.jsonl", "an"]),
    ("find-order-id", ["find", "Events/googleplay/mapping-rows.expected.jsonl", "GPA.3302-1000-2000-00222"]),
    (
      "find-purchase-token",
      [
        "find", "Events/googleplay/mapping-rows.expected.jsonl",
        "bbnncbocjodegohhhbihfibo.AO-J1OitMl8DpYA9IeFtF8BBU0wZFmFTcZPS09e6l2yL802O6iFwZ1YQnE7kGKIX4rOHcEh2Re_2Q4SKOo-v1b",
      ]
    ),
  ]

  @Test("each command's output matches its golden file", arguments: cases.map(\.name))
  func golden(name: String) throws {
    let command = Self.cases.first { $0.name == name }!.command
    var arguments = command
    arguments[1] = repoPath(command[1])
    if let catalog = Self.catalog(for: command[1]) { arguments += ["--catalog", repoPath(catalog)] }
    let result = runCLI(arguments)
    let received = "$ storeledger \(command.joined(separator: " "))\n" + result.stdout + "(exit \(result.status))\n"
    try expectAnswerGolden(received, name: name, suite: "TicketGoldenTests")
  }

  /// The Google Play sample's own catalog (it is not beside the expected lines' file).
  static func catalog(for log: String) -> String? {
    log.hasPrefix("Events/googleplay/") ? "Events/googleplay/catalog.json" : nil
  }
}
