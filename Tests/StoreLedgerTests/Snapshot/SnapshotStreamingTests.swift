import Foundation
import Testing

@testable import StoreLedger

@Suite("Snapshot writing in batches and streamed to the file gives the same bytes")
struct SnapshotStreamingTests {
  /// More subjects than one round of batches holds, so batches of several rounds are joined.
  static let subjects = SnapshotWriter.subjectsPerBatch * SnapshotWriter.batchesPerRound + 700

  @Test(
    "the streamed file equals the snapshot made in memory, subjects in sorted order, each once",
    arguments: [SnapshotWriter.chunkBytes, 4096])
  func streamedEqualsInMemory(chunkBytes: Int) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalogPath = repoPath("Events/catalog.json")
    let logPath = directory.appendingPathComponent("log.jsonl").path
    let lines = RandomLog(seed: testSeeds([5])[0], subjects: Self.subjects, eventsPerSubject: 2).lines
    try (lines.map { $0 + "\n" }.joined()).write(toFile: logPath, atomically: true, encoding: .utf8)
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
    #expect(ledger.subjectCount == Self.subjects)
    let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: catalogPath)
    let inMemory = SnapshotWriter.write(ledger, header: header)

    let snapshotPath = directory.appendingPathComponent("snapshot.json").path
    let written = try SnapshotFiles.write(ledger, header: header, to: snapshotPath, chunkBytes: chunkBytes)
    let streamed = try LedgerLoader.readFile(snapshotPath)
    #expect(written == inMemory.count)
    #expect(streamed == inMemory)

    let names = (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let document = try JSONValue.parse(bytes: inMemory)
    #expect(document["state"]?.objectMembers?.map(\.0) == sorted)
    #expect(document["subjects"]?.objectMembers?.map(\.0) == sorted)

    let restored = try SnapshotReader.read(inMemory, file: snapshotPath, catalog: catalog)
    #expect(SnapshotWriter.write(restored.ledger, header: restored.header) == inMemory)
  }
}
