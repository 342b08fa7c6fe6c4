import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerImport

/// The import lock between processes: two `storeledger import googleplay --append` runs into one
/// log at once give the answers one import of every document gives (Docs/import-googleplay.md,
/// "Importing as data arrives"). The same with two open stores is `ImportPropertyTests.concurrentStores`.
@Suite
struct ImportLockProcessTests: EventLineTimes {
  /// The scenario's folder: one file per document, in the order they were produced.
  static let folder = "Events/googleplay/lifecycles"

  /// Every document of `folder`, in the order of the file names.
  static func documents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: repoPath(folder)).filter { $0.hasSuffix(".json") }.sorted()
      .map { try String(contentsOfFile: repoPath(folder + "/" + $0), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) }
  }

  @Test(
    "two processes importing overlapping documents into one log at once leave the answers of one import (the import lock)",
    .timeLimit(.minutes(2)))
  func concurrentProcesses() throws {
    let documents = try Self.documents()
    #expect(documents.count > 14, "the halves overlap only with more than 14 documents")
    let catalogPath = repoPath("Events/googleplay/catalog.json")
    let catalogText = try String(contentsOfFile: catalogPath, encoding: .utf8)
    let one = try GooglePlayImporter.importEvents(
      documents.joined(separator: "\n"), file: "all.jsonl", catalog: fixtureCatalog(catalogText),
      options: GooglePlayImportOptions(), knowledge: LedgerKnowledge(), documentStore: [])
    let reference = try ImportedAnswers(lines: one.eventLines, catalogText: catalogText)
    for round in 1...3 as ClosedRange<UInt64> {
      let space = try Workspace()
      defer { try? FileManager.default.removeItem(at: space.directory) }
      var random = SplitMix64(state: round)
      let shuffled = documents.shuffled(using: &random)
      var imports: [[String]] = []
      for (index, half) in [Array(shuffled[0..<14]), Array(shuffled[6...])].enumerated() {
        let input = space.path("half-\(index).jsonl")
        try (half.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        imports.append(["import", "googleplay", input, "--catalog", catalogPath, "--append", space.log, "--recorded-as-at"])
      }
      #expect(try runCLIConcurrently(imports) == [0, 0])
      let text = try String(contentsOfFile: space.log, encoding: .utf8)
      let imported = try ImportedAnswers(lines: text.split(separator: "\n").map(String.init), catalogText: catalogText)
      Self.compareAnswers(reference, imported, label: Self.folder, seed: round, asOf: true)
    }
  }
}
