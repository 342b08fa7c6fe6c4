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

@Suite("snapshot, diff and --snapshot on the command line")
struct SnapshotCommandTests {
  static let first = EventLines.line(
    .purchase(id: "e1", subject: "u1", at: ts("2026-03-01T12:00:00Z"), product: "pro.monthly", transaction: "t1", expires: ts("2026-04-01T12:00:00Z")))
  static let second = EventLines.line(
    .revocation(id: "e2", subject: "u1", at: ts("2026-03-10T00:00:00Z"), transaction: "t1").recordedAt("2026-03-20T00:00:00Z"))

  @Test("snapshot --check passes on an unchanged log and exits 1 with a readable diff after a change")
  func check() throws {
    let space = try Workspace(log: Self.first + "\n")
    let golden = space.path("golden.json")
    #expect(runCLI(["snapshot", space.log, "--out", golden]).status == 0)
    let same = runCLI(["snapshot", space.log, "--check", golden])
    #expect(same.status == 0)
    #expect(same.stdout.contains("matches"))
    #expect(runCLI(["append", space.log, "-"], stdin: Self.second).status == 0)
    let changed = runCLI(["snapshot", space.log, "--check", golden])
    #expect(changed.status == 1)
    #expect(changed.stdout.contains("subject \"u1\":"))
    #expect(changed.stdout.contains("1 subject differs"))
  }

  /// `bytes`, a snapshot of this format, laid out as format 5 wrote it: its format tag, its log
  /// digest under format 5's key and SHA-256 width, and a SHA-256-wide trailer (the offsets moved
  /// by what the header grew). Its digests are placeholders: diff and --check do not verify them.
  static func asFormat5(_ bytes: [UInt8]) throws -> [UInt8] {
    let trailerAt = try #require(bytes.dropLast().lastIndex(of: 10))
    let trailer = String(decoding: bytes[(trailerAt + 1)...], as: UTF8.self)
    let numbers = trailer.split(separator: " ").compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }
    try #require(numbers.count == 3, "\(trailer)")
    let (headerBytes, sectionAt, sectionBytes) = (numbers[0], numbers[1], numbers[2])
    var readable = String(decoding: bytes[..<sectionAt], as: UTF8.self)
    readable = readable.replacingOccurrences(of: "storeledger-snapshot/7", with: "storeledger-snapshot/5")
    let tree = try #require(readable.range(of: #""tree_xxh64": "[0-9a-f]{16}""#, options: .regularExpression))
    readable.replaceSubrange(tree, with: "\"tree_sha256\": \"" + String(repeating: "ab", count: 32) + "\"")
    let grown = readable.utf8.count - sectionAt
    func digits(_ value: Int) -> String { String(repeating: "0", count: 20 - String(value).count) + String(value) }
    let oldTrailer = "\nrestore: header=\(digits(headerBytes + grown)) section=\(digits(sectionAt + grown)) bytes=\(digits(sectionBytes)) sha256=\(String(repeating: "cd", count: 32))\n"
    return Array(readable.utf8) + bytes[sectionAt..<trailerAt] + Array(oldTrailer.utf8)
  }

  @Test("snapshot --check and diff read a golden file of the previous format and say the formats differ")
  func previousFormatGolden() throws {
    let space = try Workspace(log: Self.first + "\n")
    let current = space.path("current.json")
    #expect(runCLI(["snapshot", space.log, "--out", current]).status == 0)
    let golden = space.path("golden5.json")
    try Data(Self.asFormat5(Array(try Data(contentsOf: URL(fileURLWithPath: current))))).write(to: URL(fileURLWithPath: golden))
    for arguments in [["snapshot", space.log, "--check", golden], ["diff", golden, current]] {
      let result = runCLI(arguments)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      #expect(result.stdout.contains(#"format: "storeledger-snapshot/5" → "storeledger-snapshot/7""#), "\(result.stdout)")
      #expect(result.stdout.contains("snapshots of two formats"), "\(result.stdout)")
      // The restore sections are the same: no note that the event records differ.
      #expect(!result.stdout.contains("event records differ"), "\(result.stdout)")
      #expect(!result.stdout.contains("subject \"u1\""), "\(result.stdout)")
    }
  }

  @Test("diff exits 0 for identical snapshots and 1 naming the changed subject otherwise")
  func diff() throws {
    let space = try Workspace(log: Self.first + "\n")
    #expect(runCLI(["snapshot", space.log, "--out", space.path("a.json")]).status == 0)
    #expect(runCLI(["diff", space.path("a.json"), space.path("a.json")]).status == 0)
    #expect(runCLI(["append", space.log, "-"], stdin: Self.second).status == 0)
    #expect(runCLI(["snapshot", space.log, "--out", space.path("b.json")]).status == 0)
    let result = runCLI(["diff", space.path("a.json"), space.path("b.json")])
    #expect(result.status == 1)
    #expect(result.stdout.contains("events: 1 → 2 records"))
    #expect(runCLI(["diff", space.path("a.json"), space.path("missing.json")]).status == 66)
  }

  @Test("query --snapshot answers like a full replay, and refuses an edited prefix with 65")
  func restore() throws {
    let space = try Workspace(log: Self.first + "\n")
    #expect(runCLI(["snapshot", space.log, "--out", space.path("s.json")]).status == 0)
    #expect(runCLI(["append", space.log, "-"], stdin: Self.second).status == 0)
    for asOf in ["2026-03-15", "2026-03-25"] {
      let full = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-12", "--as-of", asOf])
      let restored = runCLI(["query", space.log, "--subject", "u1", "--at", "2026-03-12", "--as-of", asOf, "--snapshot", space.path("s.json")])
      #expect(full.status == 0)
      #expect(restored.stdout == full.stdout)
    }
    let text = try String(contentsOfFile: space.log, encoding: .utf8)
    try text.replacingOccurrences(of: "pro.monthly", with: "pro.annual").write(toFile: space.log, atomically: true, encoding: .utf8)
    let refused = runCLI(["replay", space.log, "--snapshot", space.path("s.json")])
    #expect(refused.status == 65)
    #expect(refused.stdout.isEmpty)
    #expect(refused.stderr.contains("does not begin with"))
  }
}
