import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// `storeledger evidence` and `LedgerStore.refundEvidence`: the command line, its exit codes,
/// and the library call giving the same bodies.
@Suite("evidence: the refund request bodies on the command line and through the library")
struct EvidenceCommandTests {
  static let purchase = NewEvent.purchase(
    id: "p1", subject: "u1", at: ts("2026-03-01T00:00:00Z"), product: "coins.100", transaction: "t1", quantity: 4, price: 3960, currency: "USD")
  static let lines = [
    EventLines.line(purchase),
    EventLines.line(.consumption(id: "c1", subject: "u1", at: ts("2026-03-02T00:00:00Z"), currency: "coins", quantity: 100)),
    EventLines.line(
      .refundRequested(id: "rq", subject: "u1", at: ts("2026-03-03T00:00:00Z"), transaction: "t1").withMeta(["pendingRefundToken": "prt-9"])),
  ]

  @Test("JSON by default with both bodies and the token read from the line; text in words; exit 0")
  func output() throws {
    let space = try Workspace(log: Self.lines.joined(separator: "\n") + "\n")
    let json = runCLI(["evidence", space.log, "--request", "rq", "--customer-consented"])
    #expect(json.status == 0 && json.stderr.isEmpty)
    let value = try JSONValue.parse(json.stdout)
    // 100 of 400 coins: 25%.
    #expect(value["appstore"]?["consumptionPercentage"] == .integer(25_000))
    #expect(value["appstore"]?["customerConsented"] == .bool(true))
    #expect(value["googleplay"]?["pendingRefundToken"] == .string("prt-9"))
    #expect(value["sent"] == .bool(false))
    let text = runCLI(["evidence", space.log, "--transaction", "t1", "--at", "2026-03-03T00:00:00Z", "--format", "text"])
    #expect(text.status == 0)
    #expect(text.stdout.contains("Consumed: 100 of the 400 coins this purchase credited were spent (spends take the oldest credits first) = 25%."))
    #expect(text.stdout.contains("Apple requires it to be true"))
  }

  @Test(
    "a request the log does not have or a wrong command line is a usage error (64); a request before its purchase is 65",
    arguments: [
      (["--request", "rx"], 64, "did you mean 'rq'?"),
      (["--transaction", "t1"], 64, "'--transaction' needs '--at <time>'"),
      (["--request", "rq", "--transaction", "t1", "--at", "2026-03-03"], 64, "not both"),
      (["--request", "rq", "--format", "html"], 64, "format"),
      ([], 64, "--request"),
    ] as [([String], Int32, String)])
  func errors(arguments: [String], status: Int32, words: String) throws {
    let space = try Workspace(log: Self.lines.joined(separator: "\n") + "\n")
    let result = runCLI(["evidence", space.log] + arguments)
    #expect(result.status == status)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(words), "\(result.stderr)")
  }

  @Test("a request whose purchase the ledger learned only later is 65, naming its line")
  func purchaseLearnedLater() throws {
    let late = EventLines.line(Self.purchase.recordedAt("2026-03-04T00:00:00Z"))
    let space = try Workspace(log: ([late] + Self.lines.dropFirst()).joined(separator: "\n") + "\n")
    let result = runCLI(["evidence", space.log, "--request", "rq"])
    #expect(result.status == 65 && result.stdout.isEmpty)
    #expect(result.stderr.contains("log.jsonl:3: error: refund request 'rq': the ledger knew no purchase or renewal of transaction 't1'"))
  }

  @Test("the library call gives the command's bodies byte for byte")
  func library() throws {
    let space = try Workspace(log: Self.lines.joined(separator: "\n") + "\n")
    let store = try LedgerStore(logPath: space.log)
    let evidence = try store.refundEvidence(request: "rq", customerConsented: true)
    let printed = runCLI(["evidence", space.log, "--request", "rq", "--customer-consented"]).stdout
    #expect(evidence.json + "\n" == printed)
    #expect(evidence.consumedMilliunits == 25_000)
    #expect(evidence.appStoreBody.contains(#""consumptionPercentage": 25000"#))
    let byTransaction = try store.refundEvidence(transaction: "t1", at: ts("2026-03-03T00:00:00Z"))
    #expect(byTransaction.request == "rq" && !byTransaction.appStoreBody.contains("customerConsented"))
    #expect(throws: DiagnosticList.self) { try store.refundEvidence(request: "nope") }
  }
}
