import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerStorage

@Suite("Nothing comes back: a later import of an erased customer's store data adds nothing under them")
struct ErasureImportTests: ErasedStoreTokens {
  /// The store samples: payloads signed by the repository's test CA, and Google Play documents.
  static let sources = ["appstore", "googleplay"]

  @Test("the library and the CLI import the same payloads again after an erasure: no line, document or token of the erased subject", arguments: sources)
  func reimport(source: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("log.jsonl").path
    let catalogPath = repoPath("Events/\(source)/catalog.json")
    try FileManager.default.copyItem(atPath: catalogPath, toPath: directory.appendingPathComponent("catalog.json").path)
    let input = repoPath(source == "appstore" ? "Events/appstore/notifications.jsonl" : "Events/googleplay/export.jsonl")
    let payloads = try String(contentsOfFile: input, encoding: .utf8)
    let root = Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Tests/TestCA/root.pem"))))
    let options = StoreImportOptions(appStoreVerification: .verify(rootCertificates: [root]))
    let clock = LedgerClock.fixed(ts("2026-01-06T00:00:00Z"))
    func importAll() throws -> ImportReport {
      let store = try LedgerStore(logPath: log, catalog: try LedgerCatalog(contentsOfFile: catalogPath), createIfMissing: true, clock: clock)
      return source == "appstore" ? try store.importAppStore(payloads, options: options) : try store.importGooglePlay(payloads, options: options)
    }
    let first = try importAll()
    // The subject with the most tokens: the one whose erasure has the most to find.
    let subject = try first.subjects.map(\.rawValue).max { try Self.tokens(of: $0, log: log).count < Self.tokens(of: $1, log: log).count }!
    let tokens = try Self.tokens(of: subject, log: log)
    // App Store subjects are the app account token itself; Google Play lines carry purchase tokens.
    #expect(source == "appstore" || !tokens.isEmpty, "the sample's \(subject) carries store tokens")
    let others = first.subjects.filter { $0.rawValue != subject }
    let before = try LedgerStore(logPath: log, catalog: try LedgerCatalog(contentsOfFile: catalogPath), clock: clock)
    let expected = others.map { before.answer(for: $0, at: ts("2026-03-01T00:00:00Z")) }

    let report = try LedgerStore.erase([SubjectID(rawValue: subject)], logPath: log, clock: clock)
    #expect(report.erasedLines > 0 && report.tokens >= tokens.count)
    let again = try importAll()
    #expect(again.append.appended == 0, "\(source): the library imported \(again.append.appended) events again")
    let cli = runCLI(
      ["import", source, input, "--append", log]
        + (source == "appstore" ? ["--root", repoPath("Tests/TestCA/root.pem")] : ["--recorded-at", "2026-01-06T00:00:00Z"]))
    #expect(cli.status == 0 && cli.stdout.contains("appended 0 events"), "\(cli.stdout) \(cli.stderr)")
    let after = try LedgerStore(logPath: log, catalog: try LedgerCatalog(contentsOfFile: catalogPath), clock: clock)
    #expect(!after.knows(SubjectID(rawValue: subject)))
    #expect(others.map { after.answer(for: $0, at: ts("2026-03-01T00:00:00Z")) } == expected)
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name != "catalog.json" {
      let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
      for value in [subject] + tokens.sorted() {
        #expect(!holds(bytes, Array(value.utf8)), "\(source): \(name) still holds \(value)")
      }
    }
  }
}
