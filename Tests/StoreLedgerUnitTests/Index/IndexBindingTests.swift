import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The index belongs to one log file: a file that reuses the log's inode number is not answered through it")
struct IndexBindingTests {
  /// A valid log of more than two 64 KiB blocks whose first line is a purchase of `firstSubject`
  /// (two names of one length give two logs that differ only in the first block).
  static func logBytes(firstSubject: String) -> [UInt8] {
    let head = #"{"id":"head","type":"purchase","subject":"\#(firstSubject)","at":"2025-12-01T00:00:00Z","product":"coins.100","transaction":"head-t"}"#
    let lines = [head] + RandomLog(seed: 4, subjects: 40, eventsPerSubject: 40).lines
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  /// The old log `aa…` and its replacement `bb…`: one length, one last 64 KiB, another first block.
  static func logs() -> (old: [UInt8], new: [UInt8]) {
    let old = logBytes(firstSubject: "aa")
    let new = logBytes(firstSubject: "bb")
    let block = Int(PrefixDigest.blockBytes)
    #expect(old.count == new.count && old.count > 2 * block)
    #expect(old.suffix(block) == new.suffix(block) && old.prefix(block) != new.prefix(block))
    return (old, new)
  }

  /// Expects readers of both first subjects not to use the index, with a warning naming `issues`,
  /// and to answer as a full read does.
  static func expectBypassed(
    _ fixture: IndexFixture, issues: [IndexIssue], _ note: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let full = try fixture.fullLedger()
    for subject in ["aa", "bb"] {
      let (indexed, warning) = try fixture.indexedLedger([subject])
      #expect(indexed == nil, "\(note): \(subject) was read through the old index", sourceLocation: sourceLocation)
      if let indexed {
        #expect(
          answers(indexed, subject: subject, at: full.latestEffective, asOf: nil)
            == answers(full, subject: subject, at: full.latestEffective, asOf: nil),
          "\(note): \(subject)'s answer", sourceLocation: sourceLocation)
      }
      let issue = warning.flatMap(Self.issue(of:))
      #expect(issue.map(issues.contains) == true, "\(note): \(String(describing: warning))", sourceLocation: sourceLocation)
    }
  }

  /// The reason of a reader's warning that it did not use the index.
  static func issue(of warning: Diagnostic) -> IndexIssue? {
    if case .indexNotUsed(let issue) = warning.problem { return issue }
    return nil
  }

  @Test("rm LOG; cp NEW LOG until the inode number is reused: readers do not use the old index, and 'index' rebuilds it")
  func replacedReusingInode() throws {
    let (old, new) = Self.logs()
    let fixture = try IndexFixture(log: old, catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    let newPath = fixture.directory.appendingPathComponent("new.jsonl").path
    try Data(new).write(to: URL(fileURLWithPath: newPath))
    let original = try #require(PlatformFile.identity(fixture.log))
    // ext4 gives the copy the freed inode number at once; the loop is bounded for filesystems
    // that do not (the binding is then also tested directly, below).
    var tries = 0
    repeat {
      tries += 1
      try FileManager.default.removeItem(atPath: fixture.log)
      try FileManager.default.copyItem(atPath: newPath, toPath: fixture.log)
    } while PlatformFile.identity(fixture.log) != original && tries < 50
    let reused = PlatformFile.identity(fixture.log) == original
    try Self.expectBypassed(fixture, issues: [.otherLog, .firstBlockChanged], "inode reused: \(reused) after \(tries) copies")
    let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    if reused && (manifest.origin.birth != nil || manifest.origin.generation != nil) {
      let warning = try #require(try fixture.indexedLedger(["bb"]).1)
      #expect(Self.issue(of: warning) == .otherLog)
    }
    // The CLI: the query answers as --no-index and says so, naming the log and the command; index rebuilds.
    let query = ["query", fixture.log, "--subject", "bb", "--at", "2026-01-01"]
    let indexed = runCLI(query)
    let plain = runCLI(query + ["--no-index"])
    #expect(indexed.status == 0 && indexed.stdout == plain.stdout)
    #expect(indexed.stderr.hasPrefix("\(fixture.log): warning: the index beside this log was not used (") && indexed.stderr.contains("'storeledger index'"))
    let rebuilt = runCLI(["index", fixture.log])
    #expect(rebuilt.status == 0 && rebuilt.stdout.contains(" built: ") && !rebuilt.stdout.contains("up to date"))
    #expect(rebuilt.stderr.contains("it was rebuilt"))
    let after = runCLI(query)
    #expect(after.stderr.isEmpty && after.stdout == plain.stdout)
  }

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
