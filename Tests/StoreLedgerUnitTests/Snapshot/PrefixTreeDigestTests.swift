import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerStorage

@Suite("Snapshots: the tree checksum of the log prefix")
struct PrefixTreeDigestTests {
  static let catalogPath = repoPath("Events/catalog.json")

  /// A file of `count` bytes that differ from block to block.
  private static func file(_ count: Int, in directory: URL) throws -> (path: String, bytes: [UInt8]) {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
    let path = directory.appendingPathComponent("bytes").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (path, bytes)
  }

  @Test(
    "the checksum is the XXH64 of the blocks' XXH64s, the last block shorter, only the prefix read",
    arguments: [(0, 64), (1, 64), (64, 64), (65, 64), (1000, 64), (1000, 333), (1000, 1000), (1000, 4096)])
  func treeByHand(prefix: Int, blockBytes: Int) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Bytes after the prefix must not count.
    let (path, bytes) = try Self.file(prefix + 17, in: directory)
    var leaves: [UInt8] = []
    for start in stride(from: 0, to: prefix, by: blockBytes) {
      leaves += XXH64.hash(bytes[start..<min(prefix, start + blockBytes)]).canonicalBytes
    }
    let expected = XXH64.hash(leaves[...])
    let digest = try PrefixTreeDigest.digest(of: path, bytes: Int64(prefix), blockBytes: blockBytes)
    #expect(digest == expected)
    #expect(digest == PrefixTreeDigest.combine(Checksum64.leaves(of: Array(bytes[0..<prefix]), blockBytes: blockBytes)))
  }

  @Test("an empty prefix has no blocks: its checksum is the XXH64 of nothing")
  func emptyPrefix() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (path, _) = try Self.file(10, in: directory)
    let digest = try PrefixTreeDigest.digest(of: path, bytes: 0, blockBytes: 64)
    #expect(digest?.hex == "ef46db3751d8e999")
  }

  @Test("a file shorter than the prefix has no digest, in the last block or an earlier one", arguments: [1, 64, 65, 200])
  func shorterFile(missing: Int) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (path, _) = try Self.file(1000 - missing, in: directory)
    #expect(try PrefixTreeDigest.digest(of: path, bytes: 1000, blockBytes: 64) == nil)
  }

  @Test("block sizes outside the limits, or too many blocks, are not a valid tree")
  func limits() {
    #expect(PrefixTreeDigest.isValid(blockBytes: 64, prefixBytes: 0))
    #expect(!PrefixTreeDigest.isValid(blockBytes: 63, prefixBytes: 10))
    #expect(!PrefixTreeDigest.isValid(blockBytes: (1 << 30) + 1, prefixBytes: 10))
    #expect(PrefixTreeDigest.isValid(blockBytes: 64, prefixBytes: 64 * Int64(PrefixTreeDigest.blocksMax)))
    #expect(!PrefixTreeDigest.isValid(blockBytes: 64, prefixBytes: 64 * Int64(PrefixTreeDigest.blocksMax) + 1))
    #expect(!PrefixTreeDigest.isValid(blockBytes: 64, prefixBytes: -1))
  }

  /// Every block's first and last byte of the demo log's first `lines` lines, in blocks of `blockBytes`.
  static let blockSizes = [64, 200, 1 << 20]

  @Test("an edited byte in any block of the prefix, first or last, is refused with the prefix message", arguments: blockSizes)
  func editedByteInEachBlock(blockBytes: Int) throws {
    let catalog = try LedgerLoader.loadCatalog(path: Self.catalogPath)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl"))))
    let logPath = directory.appendingPathComponent("log.jsonl").path
    try Data(original).write(to: URL(fileURLWithPath: logPath))
    let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
    let header = try SnapshotFiles.header(
      for: ledger, extent: extent, logPath: logPath, catalogPath: Self.catalogPath, blockBytes: blockBytes)
    #expect(header.logBlockBytes == blockBytes)
    let snapshotPath = directory.appendingPathComponent("s.snapshot").path
    try SnapshotFiles.write(SnapshotWriter.write(ledger, header: header), to: snapshotPath)
    let prefix = Int(header.bytes)
    var offsets: Set<Int> = []
    for start in stride(from: 0, to: prefix, by: blockBytes) {
      offsets.insert(start)
      offsets.insert(min(prefix, start + blockBytes) - 1)
    }
    #expect(offsets.contains(0) && offsets.contains(prefix - 1))
    // The untouched log restores.
    #expect(try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog).ledger.events.count == ledger.events.count)
    for offset in offsets.sorted() {
      var edited = original
      edited[offset] ^= 0x01
      try Data(edited).write(to: URL(fileURLWithPath: logPath))
      do {
        _ = try SnapshotFiles.restore(snapshotPath: snapshotPath, logPath: logPath, catalogPath: Self.catalogPath, catalog: catalog)
        Issue.record("byte \(offset) edited in blocks of \(blockBytes): restored")
      } catch {
        #expect(error.exitCode == 65)
        let message = error.diagnostics.first?.message ?? ""
        #expect(message.contains("log does not begin with the 1146 bytes (7 lines) that snapshot"), "\(offset): \(message)")
        #expect(message.contains("lines before the cut were edited, removed, inserted or reordered"), "\(message)")
      }
    }
  }
}

extension Checksum64 {
  /// The leaves of `bytes` in blocks of `blockBytes`, hashed one after another (the slow twin).
  static func leaves(of bytes: [UInt8], blockBytes: Int) -> [Checksum64] {
    stride(from: 0, to: bytes.count, by: blockBytes).map { XXH64.hash(bytes[$0..<min(bytes.count, $0 + blockBytes)]) }
  }
}

@Suite("Snapshots: the seal over the restore section's blocks")
struct SnapshotSealTests {
  @Test(
    "the seal is the XXH64 of the header, each 8 MiB section block's XXH64 and the trailer's first bytes",
    arguments: [0, 1, SnapshotSeal.blockBytes, SnapshotSeal.blockBytes + 1, 2 * SnapshotSeal.blockBytes + 77])
  func sealByHand(sectionBytes: Int) throws {
    let header = Array("{\"format\": \"x\",\n  ".utf8)
    let timeline = Array("\"subjects\": {}\n}\n".utf8)
    let section = (0..<sectionBytes).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
    let trailer = SnapshotTrailer(
      headerBytes: header.count, sectionAt: header.count + timeline.count, sectionBytes: section.count,
      digest: Checksum64(value: 0))
    var file = header + timeline + section + trailer.bytes()
    let parsed = try #require(file.withUnsafeBytes { SnapshotTrailer.parse($0) })
    #expect(parsed == trailer)
    // The slow twin: every block hashed one after another, then the whole.
    var expected = header
    for start in stride(from: 0, to: section.count, by: SnapshotSeal.blockBytes) {
      expected += XXH64.hash(section[start..<min(section.count, start + SnapshotSeal.blockBytes)]).canonicalBytes
    }
    expected += Array(trailer.bytes()[0..<SnapshotTrailer.digestOffset])
    let reader = file.withUnsafeBytes { SnapshotSeal.digest($0, trailer: trailer) }
    #expect(reader == XXH64.hash(expected[...]))
    // The writer's path (leaves on every core, then combine) gives the same digest.
    let leaves = section.withUnsafeBytes { SnapshotSeal.leaves(of: $0) }
    #expect(leaves.count == (section.count + SnapshotSeal.blockBytes - 1) / SnapshotSeal.blockBytes)
    let writer = header.withUnsafeBytes { h in
      trailer.bytes().withUnsafeBytes { t in
        SnapshotSeal.combine(header: h, leaves: leaves, trailerPrefix: UnsafeRawBufferPointer(rebasing: t[0..<SnapshotTrailer.digestOffset]))
      }
    }
    #expect(writer == reader)
    // Sealing writes that digest into the trailer; the timeline is not covered.
    SnapshotSeal.seal(&file)
    #expect(file.withUnsafeBytes { SnapshotTrailer.parse($0) }?.digest == reader)
    file[header.count + 2] ^= 0x01
    #expect(file.withUnsafeBytes { SnapshotSeal.digest($0, trailer: trailer) } == reader)
  }
}
