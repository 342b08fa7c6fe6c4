import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Snapshots written in batches and streamed, restored and extended in place")
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
    let document = try JSONValue.parse(bytes: Array(SnapshotReader.readablePart(inMemory)))
    #expect(document["subjects"]?.objectMembers?.map(\.0) == sorted)

    let restored = try SnapshotReader.read(inMemory, file: snapshotPath, catalog: catalog)
    #expect(SnapshotWriter.write(restored.ledger, header: restored.header) == inMemory)
  }

  /// `event` with its id and transactions replaced by their strings (`-` for none).
  static func named(_ event: Event, in ledger: Ledger) -> (Event, [String]) {
    var bare = event
    let transactions = [event.transaction, event.originalTransaction].map { $0.isSome ? ledger.symbols.transactions.string($0) : "-" }
    (bare.id, bare.transaction, bare.originalTransaction) = (.none, .none, .none)
    return (bare, [ledger.symbols.ids.string(event.id)] + transactions)
  }

  @Test("a restored prefix extended in place with the tail holds exactly the events of a full load", arguments: [0.3, 0.7, 0.97])
  func extendedInPlace(fraction: Double) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalogPath = directory.appendingPathComponent("catalog.json").path
    try FileManager.default.copyItem(atPath: repoPath("Events/catalog.json"), toPath: catalogPath)
    var random = SeededGenerator(seed: testSeeds([17])[0])
    // Each subject's first `fraction` of events (in effective order, so no prefix overdraws) goes
    // to the prefix; every tenth subject appears only in the tail; the tail is shuffled.
    let log = RandomLog(seed: testSeeds([17])[0], subjects: 300, eventsPerSubject: 12)
    var seen: [String: Int] = [:]
    var prefixLines: [String] = []
    var tailLines: [String] = []
    for line in log.lines {
      let subject = log.subjects.first { line.contains(#""subject":"\#($0)""#) }!
      let index = seen[subject, default: 0]
      seen[subject] = index + 1
      let onlyInTail = Int(subject.dropFirst())! % 10 == 0
      if !onlyInTail && Double(index) < fraction * 12 { prefixLines.append(line) } else { tailLines.append(line) }
    }
    let lines = prefixLines + tailLines.shuffled(using: &random)
    let logPath = directory.appendingPathComponent("log.jsonl").path
    let prefixPath = directory.appendingPathComponent("prefix.jsonl").path
    try (lines.map { $0 + "\n" }.joined()).write(toFile: logPath, atomically: true, encoding: .utf8)
    try (prefixLines.map { $0 + "\n" }.joined()).write(toFile: prefixPath, atomically: true, encoding: .utf8)
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (prefix, prefixExtent) = try LedgerLoader.load(logPath: prefixPath, catalog: catalog)
    #expect(prefix.subjectCount == 270)
    let header = try SnapshotFiles.header(for: prefix, extent: prefixExtent, logPath: prefixPath, catalogPath: catalogPath)
    let snapshotPath = directory.appendingPathComponent("snapshot.json").path
    _ = try SnapshotFiles.write(prefix, header: header, to: snapshotPath)

    let full = try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: logPath, catalogPath: catalogPath, catalog: catalog
    ).ledger
    // A restored ledger numbers subjects in name order, ids and transactions in the snapshot's
    // order (`TableOrder`): compare subject by subject, with those named by their strings.
    #expect(restored.subjectCount == full.subjectCount)
    for name in log.subjects {
      let a = try #require(restored.subject(named: name))
      let b = try #require(full.subject(named: name))
      #expect(restored.extent(of: a).subscriptions == full.extent(of: b).subscriptions)
      let (mine, theirs) = (restored.events(of: a).map { Self.named($0, in: restored) }, full.events(of: b).map { Self.named($0, in: full) })
      #expect(mine.map(\.0) == theirs.map(\.0) && mine.map(\.1) == theirs.map(\.1))
      for event in full.events(of: b) {
        let (mine, theirs) = (restored.details.details(line: event.line), full.details.details(line: event.line))
        #expect(mine.price == theirs.price && mine.metaHash == theirs.metaHash)
        #expect(mine.priceCurrency.isSome == theirs.priceCurrency.isSome)
        if mine.priceCurrency.isSome {
          #expect(restored.symbols.currencies.string(mine.priceCurrency) == full.symbols.currencies.string(theirs.priceCurrency))
        }
      }
    }
    #expect(restored.latestEffective == full.latestEffective)
  }
}
