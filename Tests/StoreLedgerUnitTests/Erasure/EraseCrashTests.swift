import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerStorage

@Suite("An erasure interrupted anywhere leaves the old set of files or the new one")
struct EraseCrashTests {
  /// A log that had an erasure already (so `LOG.erased` exists), an index, and a torn line moved aside.
  static func prepared() throws -> (fixture: ErasureFixture, old: [String: [UInt8]]) {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl"))))
    let catalogText = try String(contentsOfFile: repoPath("Events/catalog.json"), encoding: .utf8)
    let fixture = try ErasureFixture(log: bytes, catalogText: catalogText)
    try fixture.erase(["u3"], seed: 99)
    _ = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    try Data(#"{"id":"e9","type":"purchase","subject":"u1","at":"2026-0"#.utf8 + [10]).write(to: URL(fileURLWithPath: fixture.log + ".torn"))
    return (fixture, try ErasureInterruptions.fileSet(fixture))
  }

  @Test("a crash at every byte written, before every rename and removal, and a failed fsync at each: old or new set after repair")
  func everyStep() throws {
    let (fixture, old) = try Self.prepared()
    defer { fixture.remove() }
    try fixture.erase(["u1"], seed: 5)
    let new = try ErasureInterruptions.fileSet(fixture)
    #expect(new != old && new["log.jsonl.index/manifest"] == nil && !holds(new["log.jsonl.torn"] ?? [], Array(#""u1""#.utf8)))
    // Count what a whole erasure writes, changes and fsyncs.
    try ErasureInterruptions.restore(fixture, old)
    let (_, counted) = IOFaults.with(IOFault(pathPrefix: fixture.directory.path + "/", failure: .syncError(5), afterBytes: Int.max)) {
      try? fixture.erase(["u1"], seed: 5)
    }
    var outcomes: Set<Bool> = []
    for byte in 0...counted.bytesWritten {
      outcomes.insert(try ErasureInterruptions.interrupted(fixture, old: old, new: new, .crash, after: byte).isNew)
    }
    for change in 0...counted.changes {
      outcomes.insert(try ErasureInterruptions.interrupted(fixture, old: old, new: new, .crashBeforeChange, after: change).isNew)
    }
    for sync in 0..<counted.syncs {
      let (isNew, failed) = try ErasureInterruptions.interrupted(fixture, old: old, new: new, .syncError(5), after: sync)
      #expect(failed, "a failed fsync \(sync) is reported")
      outcomes.insert(isNew)
    }
    // Both outcomes happen: crashes before the journal's commit undo, those after it finish.
    #expect(outcomes == [false, true])
  }
}
