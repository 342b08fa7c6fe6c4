import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("audit --stream answers queries as they arrive")
struct AuditStreamTests {
  static let demo = try! String(contentsOfFile: repoPath("Events/demo.jsonl"), encoding: .utf8)

  /// Queries for every demo subject at many instants, crossing several 64 KiB reads.
  static var queries: String {
    var lines: [String] = []
    for day in 0..<900 {
      for subject in ["u1", "u2", "u3", "nobody"] {
        let at = Timestamp.parseRFC3339("2026-01-01T00:00:00Z")!.adding(milliseconds: Int64(day) * 3_600_000)
        lines.append(#"{"subject":"\#(subject)","at":"\#(at.rfc3339)"\#(day % 3 == 0 ? #","as_of":null"# : "")}"#)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("streamed answers are byte-identical to the batch answers, from a file and from stdin")
  func sameAnswers() throws {
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let queries = Self.queries
    try space.write("q.jsonl", queries)
    let batch = runCLI(["audit", space.log, "--queries", space.path("q.jsonl")])
    #expect(batch.status == 0)
    let fromFile = runCLI(["audit", space.log, "--queries", space.path("q.jsonl"), "--stream"])
    let fromStdin = runCLI(["audit", space.log, "--queries", "-", "--stream"], stdin: queries)
    #expect(fromFile.status == 0)
    #expect(fromStdin.status == 0)
    #expect(fromFile.stdout == batch.stdout)
    #expect(fromStdin.stdout == batch.stdout)
    #expect(batch.stdout.split(separator: "\n").count == 3600)
  }

  @Test("a bad line stops the stream with 65 naming its line; the answers before its read stay, none after")
  func badLine() throws {
    let space = try Workspace(log: Self.demo)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    var lines = Self.queries.split(separator: "\n").map(String.init)
    lines[3000] = #"{"subject":"u1","at":"soonish"}"#
    let result = runCLI(["audit", space.log, "--queries", "-", "--stream"], stdin: lines.joined(separator: "\n") + "\n")
    #expect(result.status == 65)
    #expect(result.stderr.contains("<stdin>:3001:"), "\(result.stderr)")
    let answered = result.stdout.split(separator: "\n").count
    #expect(answered > 0 && answered < 3000, "\(answered) answers")
    // Whole answers only: every printed line parses.
    for line in result.stdout.split(separator: "\n") { _ = try JSONValue.parse(String(line)) }
  }
}
