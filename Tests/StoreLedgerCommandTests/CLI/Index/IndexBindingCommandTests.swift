import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The index belongs to one log file: a file that reuses the log's inode number is not answered through it")
struct IndexBindingCommandTests: IndexBindingFixture {
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
}
