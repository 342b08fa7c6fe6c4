import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// One customer stays one subject (issue 35, item 1): a unit keeps the subject it was first
/// imported under, and a changed `appAccountToken` moves it with a `transfer`.
@Suite("App Store import: identity and transfers")
struct AppStoreIdentityTests: AppStoreIdentityFixture {
  static func objects(_ lines: [String]) -> [JSONValue] { lines.compactMap { try? JSONValue.parse($0) } }

  static func transfers(_ lines: [String]) -> [JSONValue] {
    objects(lines).filter { $0["type"]?.stringValue == "transfer" }
  }

  /// Imports `input` into a log that holds `log` (an earlier import), as `--append` does.
  static func importInto(_ log: [String], _ input: [AppleTransaction]) throws -> ImportResult {
    try AppStoreImporter.importEvents(
      input.map(\.json).joined(separator: "\n"), file: "input.jsonl", catalog: ImportFixtures.catalog,
      options: AppStoreImportOptions(verification: .skip),
      knowledge: LedgerKnowledge.read(log: Array(log.joined(separator: "\n").utf8)))
  }

  /// Who holds `pro` at the first of each month, from January to June.
  static func holders(_ lines: [String]) throws -> [String] {
    var engine = QueryEngine(ledger: try ledger(lines.joined(separator: "\n"), catalogText: ImportFixtures.catalogText))
    return (1...6).map { month in
      let at = String(format: "2026-%02d-01T12:00:00Z", month)
      return [a, b].filter { subject in
        engine.checkedAnswer(subject, at: at).entitlements["pro"] != nil
      }.joined(separator: "+")
    }
  }

  @Test("a renewal under another appAccountToken moves the subscription there from its purchaseDate, learned at its signedDate")
  func tokenChangeOnRenewal() throws {
    var third = Self.period(3, token: Self.b)
    third.signedDate = "2026-03-01T00:00:07Z"
    let input = [Self.period(1, token: Self.a), Self.period(2, token: Self.a), third, Self.period(4, token: Self.b)]
    let result = try #require(ImportFixtures.importEvents(input.map(\.json).joined(separator: "\n")))
    let charges = Self.objects(result.eventLines).filter { $0["type"]?.stringValue != "transfer" }
    #expect(Set(charges.compactMap { $0["subject"]?.stringValue }) == [Self.a])
    let transfers = Self.transfers(result.eventLines)
    #expect(transfers.count == 1)
    #expect(transfers.first?["subject"]?.stringValue == Self.a)
    #expect(transfers.first?["to"]?.stringValue == Self.b)
    #expect(transfers.first?["original_transaction"]?.stringValue == "8001")
    #expect(transfers.first?["at"]?.stringValue == "2026-03-01T00:00:00Z")
    #expect(transfers.first?["recorded"]?.stringValue == "2026-03-01T00:00:07Z")
    #expect(result.transfers == ["original_transaction '8001' from '\(Self.a)' to '\(Self.b)' at 2026-03-01T00:00:00Z"])
    #expect(try Self.holders(result.eventLines) == [Self.a, Self.a, Self.b, Self.b, "", ""])
  }

  @Test("a copy of an old transaction re-signed with a new token moves the unit from that copy's signedDate")
  func resignedCopy() throws {
    let resigned = Self.period(1, token: Self.b).signed(at: "2026-02-10T00:00:00Z")
    let input = [Self.period(1, token: Self.a), Self.period(2, token: Self.a), resigned]
    let result = try #require(ImportFixtures.importEvents(input.map(\.json).joined(separator: "\n")))
    let transfers = Self.transfers(result.eventLines)
    #expect(transfers.map { $0["at"]?.stringValue } == ["2026-02-10T00:00:00Z"])
    #expect(transfers.first?["to"]?.stringValue == Self.b)
  }

  @Test("a transaction without a token names no account: the subscription stays with the token that named one")
  func tokenlessRenewal() throws {
    let input = [Self.period(1, token: nil), Self.period(2, token: Self.a), Self.period(3, token: nil)]
    let result = try #require(ImportFixtures.importEvents(input.map(\.json).joined(separator: "\n")))
    #expect(Self.transfers(result.eventLines).isEmpty)
    #expect(Set(Self.objects(result.eventLines).compactMap { $0["subject"]?.stringValue }) == [Self.a])
  }

  @Test("importing the same data again into the log adds nothing, the transfer included")
  func reimport() throws {
    let input = [Self.period(1, token: Self.a), Self.period(2, token: Self.a), Self.period(3, token: Self.b)]
    let first = try Self.importInto([], input)
    #expect(Self.transfers(first.eventLines).count == 1)
    let again = try Self.importInto(first.eventLines, input)
    #expect(again.eventLines.isEmpty)
    #expect(again.transfers.isEmpty)
  }

  @Test(
    "split into two imports, in either order, the log gives the owners one import gives",
    arguments: [[0, 1], [1, 0]])
  func splitImports(order: [Int]) throws {
    let parts = [
      [Self.period(1, token: Self.a), Self.period(2, token: Self.a)],
      [Self.period(3, token: Self.b), Self.period(4, token: Self.b)],
    ]
    let whole = try Self.importInto([], parts[0] + parts[1])
    let first = try Self.importInto([], parts[order[0]])
    let second = try Self.importInto(first.eventLines, parts[order[1]])
    let log = first.eventLines + second.eventLines
    #expect(try Self.holders(log) == Self.holders(whole.eventLines))
    let again = try Self.importInto(log, parts[0] + parts[1])
    #expect(again.eventLines.isEmpty)
  }

  @Test("a unit the log holds keeps its subject: new data goes there, and another token moves it with a transfer")
  func keepsLoggedSubject() throws {
    // An earlier import, before appTransactionId was the fallback, gave the unit appstore:8001.
    var old = Self.period(1, token: nil)
    old.appTransactionId = nil
    let before = try Self.importInto([], [old])
    #expect(Self.objects(before.eventLines).first?["subject"]?.stringValue == "appstore:8001")
    let result = try Self.importInto(before.eventLines, [Self.period(2, token: nil), Self.period(3, token: Self.b)])
    let renewal = Self.objects(result.eventLines).first { $0["transaction"]?.stringValue == "8002" }
    #expect(renewal?["subject"]?.stringValue == "appstore:8001")
    let transfers = Self.transfers(result.eventLines)
    #expect(transfers.first?["subject"]?.stringValue == "appstore:8001")
    #expect(transfers.first?["to"]?.stringValue == Self.b)
  }

  @Test(
    "without a token, a --subjects mapping of the originalTransactionId, then of the appTransactionId, names the subject",
    arguments: [(["8001": "by-original", "704": "by-app"], "by-original"), (["704": "by-app"], "by-app")])
  func mappedSubjects(subjects: [String: String], expected: String) throws {
    let input = [Self.period(1, token: nil), Self.period(2, token: nil)].map(\.json).joined(separator: "\n")
    let result = try #require(ImportFixtures.importEvents(input, subjects: subjects))
    #expect(Set(Self.objects(result.eventLines).compactMap { $0["subject"]?.stringValue }) == [expected])
  }

  @Test("a consumable is never transferred: each purchase stays with the account its own transaction names")
  func consumableStays() throws {
    func coins(_ id: String, _ token: String, _ day: String) -> AppleTransaction {
      AppleTransaction(
        transactionId: id, originalTransactionId: id, productId: "coins.100", purchaseDate: day,
        signedDate: day, type: "Consumable", transactionReason: "PURCHASE", appAccountToken: token)
    }
    let input = [coins("9001", Self.a, "2026-03-01T00:00:00Z"), coins("9002", Self.b, "2026-03-02T00:00:00Z")]
    let result = try #require(ImportFixtures.importEvents(input.map(\.json).joined(separator: "\n")))
    #expect(Self.transfers(result.eventLines).isEmpty)
    #expect(Self.objects(result.eventLines).compactMap { $0["subject"]?.stringValue } == [Self.a, Self.b])
  }

  @Test("a non-consumable whose copy names another account is transferred by its transaction")
  func nonConsumable() throws {
    let bought = AppleTransaction(
      transactionId: "9101", originalTransactionId: "9101", productId: "pro.lifetime",
      purchaseDate: "2026-03-01T00:00:00Z", signedDate: "2026-03-01T00:00:00Z", type: "Non-Consumable",
      transactionReason: "PURCHASE", appAccountToken: Self.a)
    var moved = bought.signed(at: "2026-04-01T00:00:00Z")
    moved.appAccountToken = Self.b
    let result = try #require(ImportFixtures.importEvents([bought.json, moved.json].joined(separator: "\n")))
    let transfers = Self.transfers(result.eventLines)
    #expect(transfers.first?["transaction"]?.stringValue == "9101")
    #expect(transfers.first?["original_transaction"] == nil)
    #expect(transfers.first?["at"]?.stringValue == "2026-04-01T00:00:00Z")
  }
}
