import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerStorage

/// Subjects of `ledger` to ask about: those with v1.3 events first (up to half), then others, drawn.
func askedSubjects(_ ledger: Ledger, count: Int, random: inout SeededGenerator) -> [String] {
  let contract13: Set<EventKind> = [.grant, .grantRevoked, .block, .unblock, .refundRequested, .refundDeclined]
  let all = (0..<ledger.subjectCount).map { Symbol(rawValue: UInt32($0)) }.shuffled(using: &random)
  let special = all.filter { symbol in
    ledger.events(of: symbol).contains { contract13.contains($0.kind) || $0.hasRefunded || ($0.kind == .revocation && $0.quantity > 0) }
  }
  let chosen = Array(special.prefix(count / 2)) + all.filter { !special.prefix(count / 2).contains($0) }.prefix(count - min(count / 2, special.count))
  return chosen.map { ledger.symbols.subjects.string($0) }
}

@Suite("Generated v1.3 logs: index, shard and snapshot + tail answer as the full read at edge instants")
struct Contract13ReadPathTests {
  /// The log generated for `options`, indexed up to two thirds (the rest appended behind the
  /// index's back), a snapshot of its first half beside it.
  struct Paths {
    let fixture: IndexFixture
    let full: Ledger
    let restored: Ledger
    let shards: [Ledger]
  }

  static let shardCount = 4

  static func paths(_ options: GeneratorOptions) throws -> Paths {
    let (bytes, _) = generatedLog(options)
    let catalogText = LogGenerator.catalogJSON(for: options.usage)
    let indexCut = bytes[..<(bytes.count * 2 / 3)].lastIndex(of: 10)! + 1
    let fixture = try IndexFixture(log: Array(bytes[..<indexCut]), catalogText: catalogText)
    try fixture.index()
    try fixture.appendBehindBack(Array(bytes[indexCut...]))
    let full = try fixture.fullLedger()
    // The snapshot covers the first half of the lines; the restore folds the rest as its tail.
    let snapshotCut = bytes[..<(bytes.count / 2)].lastIndex(of: 10)! + 1
    let prefixPath = fixture.directory.appendingPathComponent("prefix.jsonl").path
    try Data(bytes[..<snapshotCut]).write(to: URL(fileURLWithPath: prefixPath))
    let catalogPath = fixture.directory.appendingPathComponent("catalog.json").path
    let (prefix, extent) = try LedgerLoader.load(logPath: prefixPath, catalog: fixture.catalog)
    let header = try SnapshotFiles.header(for: prefix, extent: extent, logPath: prefixPath, catalogPath: catalogPath)
    let snapshotPath = fixture.directory.appendingPathComponent("prefix.snapshot").path
    try SnapshotFiles.write(SnapshotWriter.write(prefix, header: header), to: snapshotPath)
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: fixture.log, catalogPath: catalogPath, catalog: fixture.catalog
    ).ledger
    // Subjects joined by transfers are placed by their group (found by a first pass over the file).
    let groups = try ShardGroups.scan(path: fixture.log)
    let shards = try (0..<shardCount).map { index in
      var shard = Shard(index: index, of: shardCount)
      shard.groups = groups
      return try LedgerLoader.load(logPath: fixture.log, catalog: fixture.catalog, shard: shard).ledger
    }
    return Paths(fixture: fixture, full: full, restored: restored, shards: shards)
  }

  @Test(
    "for random subjects at each event's at, 1 ms before, and as of just before and at its recorded, every read path equals the full read",
    arguments: [(UInt64(31), 150, UsageLevel.none), (UInt64(32), 60, .typical)])
  func readPathsAgree(seed: UInt64, subjects: Int, usage: UsageLevel) throws {
    let seed = ProcessInfo.processInfo.environment["STORELEDGER_PROPERTY_SEED"].flatMap(UInt64.init) ?? seed
    let paths = try Self.paths(GeneratorOptions(subjects: subjects, seed: seed, usage: usage, contract: .v1_3))
    defer { paths.fixture.remove() }
    #expect(paths.restored.events.count == paths.full.events.count, "seed \(seed)")
    var random = SeededGenerator(seed: seed)
    let asked = askedSubjects(paths.full, count: 8, random: &random)
    var compared = 0
    for subject in asked {
      let (indexed, warning) = try paths.fixture.indexedLedger([subject])
      let viaIndex = try #require(indexed, "seed \(seed): index not used: \(String(describing: warning))")
      let viaShard = paths.shards[Shard.index(ofSubject: subject, count: Self.shardCount)]
      for (at, asOf) in edgeInstants(paths.full, subject: subject, limit: 18, random: &random) {
        let want = answers(paths.full, subject: subject, at: at, asOf: asOf)
        let place = "seed \(seed): \(subject) at \(at) as of \(asOf.map(\.description) ?? "now")"
        #expect(answers(viaIndex, subject: subject, at: at, asOf: asOf) == want, "index: \(place)")
        #expect(answers(viaShard, subject: subject, at: at, asOf: asOf) == want, "shard: \(place)")
        #expect(answers(paths.restored, subject: subject, at: at, asOf: asOf) == want, "snapshot + tail: \(place)")
        compared += 1
      }
    }
    #expect(compared > 60, "seed \(seed): only \(compared) instants compared")
  }

  /// The transfers of a generated log, from its lines (the engine has no kind for them yet):
  /// both subjects, and the transfer's `at` and `recorded`.
  static func transfers(in bytes: [UInt8]) throws -> [(subjects: [String], at: Timestamp, recorded: Timestamp)] {
    try bytes.split(separator: 10).filter { $0.count > 40 && String(decoding: $0.prefix(60), as: UTF8.self).contains(#""type":"transfer""#) }
      .map { line in
        let value = try JSONValue.parse(bytes: Array(line))
        let at = try #require(value["at"]?.stringValue.flatMap { Timestamp.parseRFC3339($0) })
        let recorded = value["recorded"]?.stringValue.flatMap { Timestamp.parseRFC3339($0) } ?? at
        return ([value["subject"]?.stringValue ?? "", value["to"]?.stringValue ?? ""], at, recorded)
      }
  }

  // Issue 34's property at a transfer's edges.
  @Test("with transfers: at each transfer's at, 1 ms before, and as of just before and at its recorded, both subjects' answers through every read path equal the full read")
  func readPathsAgreeAtTransfers() throws {
    let options = GeneratorOptions(subjects: 200, seed: 33, usage: .none, contract: .v1_3, transfers: true)
    let transfers = try Self.transfers(in: generatedLog(options).bytes)
    #expect(transfers.count > 2)
    let paths = try Self.paths(options)
    defer { paths.fixture.remove() }
    let groups = try ShardGroups.scan(path: paths.fixture.log)
    for transfer in transfers.prefix(12) {
      for subject in transfer.subjects {
        let (indexed, _) = try paths.fixture.indexedLedger([subject])
        let viaIndex = try #require(indexed)
        var name = subject
        let shardIndex = name.withUTF8 { groups.placing($0) { Shard.index(ofSubject: $0, count: Self.shardCount) } }
        let viaShard = paths.shards[shardIndex]
        for at in [transfer.at, transfer.at.adding(milliseconds: -1)] {
          for asOf in [nil, transfer.recorded.adding(milliseconds: -1), transfer.recorded] as [Timestamp?] {
            let want = answers(paths.full, subject: subject, at: at, asOf: asOf)
            #expect(answers(viaIndex, subject: subject, at: at, asOf: asOf) == want, "index: \(subject) at \(at)")
            #expect(answers(viaShard, subject: subject, at: at, asOf: asOf) == want, "shard: \(subject) at \(at)")
            #expect(answers(paths.restored, subject: subject, at: at, asOf: asOf) == want, "snapshot: \(subject) at \(at)")
          }
        }
      }
    }
  }
}
