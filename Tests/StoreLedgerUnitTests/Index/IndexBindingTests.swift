import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The index belongs to one log file: a file that reuses the log's inode number is not answered through it")
struct IndexBindingTests: IndexBindingFixture {
  @Test("a same-length edit of the first block in place (same file, same last 64 KiB) is found on every open")
  func firstBlockEdited() throws {
    let (old, new) = Self.logs()
    let fixture = try IndexFixture(log: old, catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    let original = PlatformFile.identity(fixture.log)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.log))
    try handle.write(contentsOf: Data(new.prefix(Int(PrefixDigest.blockBytes))))
    try handle.close()
    #expect(PlatformFile.identity(fixture.log) == original)
    try Self.expectBypassed(fixture, issues: [.firstBlockChanged], "edited in place")
    let (summary, warnings) = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    #expect(summary.rebuilt && warnings.map(\.problem) == [.indexBuilt(.firstBlockChanged)])
    #expect(try fixture.indexedLedger(["bb"]).0 != nil)
  }

  @Test("an index extended from less than one block to more records the whole first block, and an edit there is found")
  func firstBlockGrows() throws {
    let lines = Self.logBytes(firstSubject: "aa").split(separator: 10, omittingEmptySubsequences: false).dropLast().map { $0 + [10] }
    var cut = 0
    var bytes = 0
    while bytes <= 16 * 1024 {
      bytes += lines[cut].count
      cut += 1
    }
    let fixture = try IndexFixture(log: Array(lines[..<cut].joined()), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    // Past two blocks in steps, each brought up to date by `index`.
    for step in stride(from: cut, to: lines.count, by: 400) {
      try fixture.appendBehindBack(Array(lines[step..<min(step + 400, lines.count)].joined()))
      #expect(try fixture.index().indexedBytes > 0)
    }
    let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    #expect(manifest.coveredBytes > 2 * PrefixDigest.blockBytes && manifest.segments.count > 1)
    #expect(try fixture.indexedLedger(["aa"]).0 != nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.log))
    try handle.write(contentsOf: Data(Self.logBytes(firstSubject: "bb").prefix(100)))
    try handle.close()
    try Self.expectBypassed(fixture, issues: [.firstBlockChanged], "edited after growing")
  }

  @Test("a manifest recording another birth time or inode generation of the log describes another file")
  func otherOrigin() throws {
    let fixture = try IndexFixture(log: Self.logs().old, catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    let recorded = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    let birth = recorded.origin.birth ?? FileOrigin.Birth(seconds: 1, nanoseconds: 0)
    let others = [
      FileOrigin(birth: FileOrigin.Birth(seconds: birth.seconds, nanoseconds: (birth.nanoseconds + 1) % 1_000_000_000), generation: recorded.origin.generation),
      FileOrigin(birth: recorded.origin.birth, generation: (recorded.origin.generation ?? 0) &+ 1),
      FileOrigin(birth: recorded.origin.birth == nil ? birth : nil, generation: recorded.origin.generation),
    ]
    for origin in others {
      var manifest = recorded
      manifest.origin = origin
      try LogIndex.commit(manifest, directory: fixture.indexDirectory)
      #expect(try fixture.indexedLedger(["aa"]).1?.problem == .indexNotUsed(.otherLog), "\(origin)")
    }
    try LogIndex.commit(recorded, directory: fixture.indexDirectory)
    #expect(try fixture.indexedLedger(["aa"]).0 != nil)
  }

  @Test("a manifest of the first format (device and inode only) is not used: readers warn, index rebuilds it")
  func firstFormat() throws {
    let fixture = try IndexFixture(log: Self.logs().old, catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    let path = fixture.indexDirectory + "/manifest"
    // What version 1 wrote: no birth, no generation, no first block.
    let kept = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().filter {
      !$0.hasPrefix("check=") && !$0.hasPrefix("log-birth=") && !$0.hasPrefix("log-generation=") && !$0.hasPrefix("first-block=")
    }
    let body = (["storeledger-index/1"] + kept.map(String.init)).joined(separator: "\n") + "\n"
    try (body + "check=" + SHA256.hash(Array(body.utf8)).hex + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    let (indexed, warning) = try fixture.indexedLedger(["aa"])
    #expect(indexed == nil && warning?.problem == .indexNotUsed(.otherFormat("storeledger-index/1")))
    #expect(warning?.message.contains("storeledger-index/1") == true)
    let (summary, warnings) = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    #expect(summary.rebuilt && warnings.map(\.problem) == [.indexBuilt(.otherFormat("storeledger-index/1"))])
    #expect(try fixture.indexedLedger(["aa"]).0 != nil)
  }
}
