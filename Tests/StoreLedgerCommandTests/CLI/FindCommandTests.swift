import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// `storeledger find`: every kind of id a customer sends, through the index and without, bounded and escaped.
@Suite("find: subjects from what a customer sends")
struct FindCommandTests {
  static let lines = [
    EventLines.line(.purchase(id: "e-ali-1", subject: "alice@example.com", at: ts("2026-01-01T00:00:00Z"), product: "pro.monthly", transaction: "t-100", expires: ts("2026-02-01T00:00:00Z")).withMeta(["appAccountToken": "3f2a6c1e-9d4b-4c1a-8e5f-2b7d9c0a1e44"])),
    EventLines.line(.renewal(id: "e-ali-2", subject: "alice@example.com", at: ts("2026-02-01T00:00:00Z"), product: "pro.monthly", transaction: "t-101", originalTransaction: "t-100", expires: ts("2026-03-01T00:00:00Z"))),
    EventLines.line(.purchase(id: "e-bob-1", subject: "bob", at: ts("2026-01-02T00:00:00Z"), product: "pro.monthly", transaction: "GPA.3391-4471", originalTransaction: "tok-bob", expires: ts("2026-02-02T00:00:00Z")).withMeta(["purchaseToken": "tok-bob", "orderId": "GPA.3391-4471"])),
    EventLines.line(.purchase(id: "e-cat-1", subject: "cat", at: ts("2026-01-03T00:00:00Z"), product: "pro.monthly", transaction: "t-300", originalTransaction: "tok-cat", expires: ts("2026-02-03T00:00:00Z"))),
    #"{"id":"e-esc-1","type":"purchase","subject":"evil\u001b[2Jname","at":"2026-01-04T00:00:00Z","product":"pass.week","transaction":"t-400"}"#,
  ]
  /// A kept Google Play document of cat's token, holding an order id the log never names.
  static let documents = #"{"token":"tok-cat","document":{"purchaseToken":"tok-cat","latestOrderId":"GPA.7777-0001..2"}}"#

  static func workspace(indexed: Bool) throws -> Workspace {
    let space = try Workspace(log: lines.joined(separator: "\n") + "\n")
    try space.write("log.jsonl.googleplay-documents.jsonl", documents + "\n")
    if indexed { #expect(runCLI(["index", space.log]).status == 0) }
    return space
  }

  @Test(
    "every id kind finds its subject, with and without an index",
    arguments: [
      ("t-101", "alice@example.com: transaction (line 2)"),
      ("t-100", "alice@example.com: transaction (line 1), original transaction (line 2)"),
      ("e-bob-1", "bob: event id (line 3)"),
      ("GPA.3391-4471", "bob: transaction (line 3)"),
      ("tok-bob", "bob: original transaction (line 3)"),
      ("3f2a6c1e-9d4b-4c1a-8e5f-2b7d9c0a1e44", "alice@example.com: meta.appAccountToken (line 1)"),
      ("GPA.7777-0001..2", "cat: kept Google Play document of its purchase token (line 4)"),
      ("@example", "alice@example.com: subject id"),
    ], [false, true])
  func idKinds(idCase: (term: String, expected: String), indexed: Bool) throws {
    let (term, expected) = idCase
    let space = try Self.workspace(indexed: indexed)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["find", space.log, term])
    #expect(result.status == 0, "\(result.stderr)")
    let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix(expected), "\(term): \(result.stdout)")
  }

  @Test("the order id in meta is found by a scan even when an index is beside the log")
  func metaThroughScan() throws {
    let space = try Self.workspace(indexed: true)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["find", space.log, "3f2a6c1e-9d4b-4c1a-8e5f-2b7d9c0a1e44"])
    #expect(result.stdout.hasSuffix("(searched the log)\n"), "\(result.stdout)")
    let indexed = runCLI(["find", space.log, "t-101"])
    #expect(indexed.stdout.contains("(searched the index"), "\(indexed.stdout)")
  }

  @Test("at the limit, find says more match and stops; nothing found exits 1", arguments: [false, true])
  func bounded(indexed: Bool) throws {
    let space = try Self.workspace(indexed: indexed)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["find", space.log, "a", "--limit", "2"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 4, "\(result.stdout)")
    #expect(lines[2].hasPrefix("more subjects match: stopped after 2 (raise --limit"), "\(result.stdout)")
    let none = runCLI(["find", space.log, "nobody-here"])
    #expect(none.status == 1)
    #expect(none.stdout.hasPrefix("no subject matches 'nobody-here'"))
    #expect(runCLI(["find", space.log, "e", "--limit", "0"]).status == 64)
  }

  @Test("a subject id with terminal control bytes is printed escaped")
  func escaped() throws {
    let space = try Self.workspace(indexed: false)
    defer { try? FileManager.default.removeItem(at: space.directory) }
    let result = runCLI(["find", space.log, "t-400"])
    #expect(!result.stdout.contains("\u{1b}"), "\(result.stdout)")
    #expect(result.stdout.hasPrefix(#"evil\u001b[2Jname: transaction (line 5)"#), "\(result.stdout)")
  }

  @Test("a missing log exits 66 naming it")
  func missingLog() {
    let result = runCLI(["find", "/nonexistent/log.jsonl", "x"])
    #expect(result.status == 66)
    #expect(result.stderr.contains("/nonexistent/log.jsonl"))
  }
}
