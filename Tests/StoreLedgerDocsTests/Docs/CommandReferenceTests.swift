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

/// The line of Docs/commands.md after which the file is generated from the option tables.
let commandReferenceMarker =
  "<!-- Generated from the commands' option tables (the same as --help); do not edit below. "
  + "Regenerate: STORELEDGER_RECORD=1 swift test --filter CommandReferenceTests -->"

@Suite("Docs/commands.md and completions come from the same option tables as --help")
struct CommandReferenceTests {
  @Test("Docs/commands.md ends with every command's --help, exactly as the tool prints it")
  func referenceAgrees() throws {
    let path = repoPath("Docs/commands.md")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let range = try #require(text.range(of: commandReferenceMarker + "\n\n"), "Docs/commands.md lacks the marker")
    let expected = StoreLedgerCLI.commandReference
    if ProcessInfo.processInfo.environment["STORELEDGER_RECORD"] == "1"
      && ProcessInfo.processInfo.environment["CI"] == nil
    {
      try (String(text[..<range.upperBound]) + expected).write(toFile: path, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      String(text[range.upperBound...]) == expected,
      "Docs/commands.md is out of date with the option tables: STORELEDGER_RECORD=1 swift test --filter CommandReferenceTests")
    for command in StoreLedgerCLI.commands {
      #expect(runCLI(["help", command.spec.name]).stdout == command.spec.helpText)
    }
  }

  @Test("the log format page lists every allowed value of ownership, offer and reason")
  func allowedValues() throws {
    let text = try String(contentsOfFile: repoPath("Docs/log-format.md"), encoding: .utf8)
    let rows: [(String, [String])] = [
      // `granted` is an answer's word for a support grant, never a log value (contract v1.3).
      ("| `ownership` |", Ownership.allCases.filter { $0 != .granted }.map(\.name)),
      ("| `offer` |", Offer.allCases.map(\.name)),
      ("| `reason` of `revocation` |", RevocationReason.allCases.map(\.name)),
      ("| `reason` of `expiration` |", ExpirationReason.allCases.map(\.name)),
      ("| `reason` of `refund_requested` |", RefundRequestReason.allCases.map(\.name)),
    ]
    for (prefix, names) in rows {
      let row = try #require(text.split(separator: "\n").first { $0.hasPrefix(prefix) }, "no row \(prefix)")
      let listed = row.dropFirst(prefix.count).split(separator: ",").map {
        $0.replacingOccurrences(of: "(default)", with: "").trimmingCharacters(in: CharacterSet(charactersIn: " `|"))
      }
      #expect(listed == names, "\(prefix)")
    }
  }

  @Test("bash completion completes subcommands and each subcommand's options", arguments: [
    (["storeledger", "qu"], 1, "query"),
    (["storeledger", "audit", "log.jsonl", "--qu"], 3, "--queries"),
    (["storeledger", "append", "log.jsonl", "--recorded-a"], 3, "--recorded-at --recorded-as-at"),
  ])
  func bashCompletion(words: [String], index: Int, expected: String) throws {
    let script = runCLI(["completion", "bash"]).stdout
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("storeledger.bash")
    try script.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    let quotedWords = words.map { "'\($0)'" }.joined(separator: " ")
    process.arguments = [
      "-c", "source '\(file.path)'; COMP_WORDS=(\(quotedWords)); COMP_CWORD=\(index); _storeledger; echo \"${COMPREPLY[*]}\"",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(String(decoding: data, as: UTF8.self) == expected + "\n")
  }

  @Test("zsh and fish completions name every subcommand and option")
  func otherShells() {
    let zsh = runCLI(["completion", "zsh"])
    #expect(zsh.stdout.hasPrefix("#compdef storeledger\n"))
    let fish = runCLI(["completion", "fish"]).stdout
    for command in StoreLedgerCLI.commands {
      #expect(fish.contains("-a \(command.spec.name) -d "))
      for option in command.spec.options {
        #expect(fish.contains("__fish_seen_subcommand_from \(command.spec.name)' -l \(option.name)"))
      }
    }
    let bad = runCLI(["completion", "tcsh"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("Error: Invalid value for '<shell>': 'tcsh' (expected bash, zsh or fish).\n"))
  }
}
