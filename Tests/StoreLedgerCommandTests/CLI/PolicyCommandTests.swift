import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("can, --cached-at and leaks on the command line")
struct PolicyCommandTests {
  /// A workspace with the policy catalog and the free-day story.
  static func workspace(extra: [String] = []) throws -> Workspace {
    let space = try Workspace(log: (PolicyFixtures.freeDay + extra).joined(separator: "\n") + "\n")
    try space.write("catalog.json", policyCatalogText())
    return space
  }

  @Test("can exits 0 when allowed and 1 when not, with one JSON line saying why")
  func can() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let allowed = runCLI(["can", space.log, "--subject", "ana", "--feature", "interaction", "--at", "2026-03-30T09:04:00Z"])
    #expect(allowed.status == 0)
    #expect(allowed.stdout == #"{"allowed":true,"as_of":null,"at":"2026-03-30T09:04:00Z","feature":"interaction","limit":5,"reason":"4 of 5 used in tier 'free' until 2026-03-31T00:00:00Z","subject":"ana","tier":"free","used":4,"window_ends":"2026-03-31T00:00:00Z","would_allow":null}"# + "\n")
    let denied = runCLI(["can", space.log, "--subject", "ana", "--feature", "deep_compare", "--at", "2026-03-30T10:00:00Z"])
    #expect(denied.status == 1)
    #expect(denied.stdout.contains(#""reason":"no tier the subject is in offers 'deep_compare'; tier 'plus' would allow it""#))
    #expect(denied.stderr.isEmpty)
  }

  @Test(
    "bad can and --cached-at flags are usage errors with nothing on stdout",
    arguments: [
      (["can", "LOG", "--subject", "ana", "--feature", "interactoin"], "Did you mean 'interaction'?"),
      (["can", "LOG", "--subject", "ana"], "Missing expected option '--feature <name>'."),
      (["query", "LOG", "--subject", "ana", "--at", "2026-03-01", "--cached-at", "2026-03-02"], "is after '--at'"),
      (["query", "LOG", "--subject", "ana", "--max-staleness", "PT1H"], "'--max-staleness' needs '--cached-at'"),
      (["query", "LOG", "--subject", "ana", "--cached-at", "2026-03-01", "--as-of", "2026-03-01"], "cannot be used together"),
      (["query", "LOG", "--subject", "ana", "--cached-at", "2026-03-01", "--max-staleness", "1 day"], "Invalid value for '--max-staleness'"),
    ])
  func badFlags(arguments: [String], message: String) throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(arguments.map { $0 == "LOG" ? space.log : $0 })
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test("a cached answer on the command line carries the cache key")
  func cachedQuery() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI([
      "query", space.log, "--subject", "ana", "--at", "2026-03-31T09:00:00Z", "--cached-at", "2026-03-30T09:00:00Z",
    ])
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""cache":{"stale":false,"verified_at":"2026-03-30T09:00:00Z"}"#))
    #expect(result.stdout.contains(#""as_of":"2026-03-30T09:00:00Z""#))
  }

  @Test("a bad cached audit line is bad data naming the line")
  func badAuditLine() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try space.write(
      "queries.jsonl",
      #"{"subject":"ana","at":"2026-03-31T00:00:00Z"}"# + "\n"
        + #"{"subject":"ana","at":"2026-03-31T00:00:00Z","cached_at":"2026-04-01T00:00:00Z"}"# + "\n")
    let result = runCLI(["audit", space.log, "--queries", space.path("queries.jsonl")])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("queries.jsonl:2: error: field 'cached_at': expected a time at or before 'at'"), "\(result.stderr)")
  }

  @Test("check names the first leaks as warnings and counts them, never failing")
  func checkLeaks() throws {
    let space = try Self.workspace(extra: [use("u6", "ana", "2026-03-30T09:05:00Z")])
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let before = try space.read()
    let result = runCLI(["check", space.log])
    #expect(result.status == 0)
    #expect(result.stderr.contains("\(space.log):7: warning: field 'feature': leak: usage 'u6' of 'interaction' at 2026-03-30T09:05:00Z was not allowed (tier 'free' had used 5 of 5)"), "\(result.stderr)")
    #expect(result.stderr.contains("1 leak: uses the policy did not allow when they happened"))
    #expect(try space.read() == before)
  }

  @Test("append accepts a use beyond its limit: a ledger records what happened")
  func appendBeyondLimit() throws {
    let space = try Self.workspace(extra: [use("u6", "ana", "2026-03-30T09:05:00Z")])
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let line = use("u7", "ana", "2026-03-30T09:06:00Z") + "\n"
    let result = runCLI(["append", space.log], stdin: line)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(String(decoding: try space.read(), as: UTF8.self).contains(#""id":"u7""#))
    let denied = runCLI(["can", space.log, "--subject", "ana", "--feature", "interaction", "--at", "2026-03-30T09:07:00Z"])
    #expect(denied.status == 1)
    #expect(denied.stdout.contains(#""used":7"#))
  }

  @Test("a bad usage line is bad data naming file, line and field; append leaves the log unchanged")
  func badUsageLine() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let before = try space.read()
    let bad = EventLines.line(.usage(id: "z1", subject: "ana", at: ts("2026-03-31T00:00:00Z"), feature: "interaction", quantity: 0))
    let appended = runCLI(["append", space.log], stdin: bad + "\n")
    #expect(appended.status == 65)
    #expect(appended.stdout.isEmpty)
    #expect(appended.stderr.contains("error: field 'quantity': expected a non-zero integer"), "\(appended.stderr)")
    #expect(try space.read() == before)
    try space.write("bad.jsonl", bad + "\n")
    try space.write("catalog.json", policyCatalogText())
    let checked = runCLI(["check", space.path("bad.jsonl"), "--catalog", space.path("catalog.json")])
    #expect(checked.status == 65)
    #expect(checked.stderr.contains("bad.jsonl:1: error: field 'quantity'"), "\(checked.stderr)")
  }

  @Test("a bad policy makes every command that reads the catalog exit 65 naming it")
  func badPolicyCatalog() throws {
    let space = try Self.workspace()
    defer { try? FileManager.default.removeItem(at: space.directory) }
    try space.write("catalog.json", policyCatalogText().replacingOccurrences(of: #""free": 5}"#, with: #""fre": 5}"#))
    for arguments in [["check", space.log], ["query", space.log, "--subject", "ana", "--at", "2026-03-30"]] {
      let result = runCLI(arguments)
      #expect(result.status == 65)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains("catalog.json: error: bad catalog: policy: feature 'interaction': field 'limits': unknown tier 'fre'"), "\(result.stderr)")
    }
  }
}
