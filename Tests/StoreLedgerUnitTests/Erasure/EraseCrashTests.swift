import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerStorage

@Suite("An erasure interrupted anywhere leaves the old set of files or the new one")
struct EraseCrashTests {
  /// The files an erasure may change, by name (locks and the catalog left out).
  static func fileSet(_ fixture: ErasureFixture) throws -> [String: [UInt8]] {
    try fixture.files().filter { !$0.key.hasSuffix(".lock") && $0.key != "catalog.json" }
  }

  /// A log that had an erasure already (so `LOG.erased` exists), an index, and a torn line moved aside.
  static func prepared() throws -> (fixture: ErasureFixture, old: [String: [UInt8]]) {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: repoPath("Events/demo.jsonl"))))
    let catalogText = try String(contentsOfFile: repoPath("Events/catalog.json"), encoding: .utf8)
    let fixture = try ErasureFixture(log: bytes, catalogText: catalogText)
    try fixture.erase(["u3"], seed: 99)
    _ = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    try Data(#"{"id":"e9","type":"purchase","subject":"u1","at":"2026-0"#.utf8 + [10]).write(to: URL(fileURLWithPath: fixture.log + ".torn"))
    return (fixture, try fileSet(fixture))
  }

  /// Puts `files` back as the whole directory (but the catalog and locks).
  static func restore(_ fixture: ErasureFixture, _ files: [String: [UInt8]]) throws {
    for name in try fileSet(fixture).keys { try FileManager.default.removeItem(atPath: fixture.directory.path + "/" + name) }
    for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
      let path = fixture.directory.path + "/" + name
      try FileManager.default.createDirectory(atPath: PlatformFile.directory(of: path), withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
  }

  /// Runs the erasure of `subjects` (u1) under `failure` after `count`; checks the log a lock-free reader
  /// sees, recovers with `repair`, and returns which set is left (true: new), failing the test
  /// on a mix or on a temporary left behind.
  static func interrupted(
    _ fixture: ErasureFixture, old: [String: [UInt8]], new: [String: [UInt8]], _ failure: IOFault.Failure, after count: Int,
    subjects: [String] = ["u1"], seed: UInt64 = 5
  ) throws -> (isNew: Bool, failed: Bool) {
    try restore(fixture, old)
    let fault = IOFault(pathPrefix: fixture.directory.path + "/", failure: failure, afterBytes: count)
    let (error, _) = IOFaults.with(fault) { () -> (any Error)? in
      do {
        try fixture.erase(subjects, seed: seed)
        return nil
      } catch {
        return error
      }
    }
    let log = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.log)))
    #expect(log == old["log.jsonl"] || log == new["log.jsonl"], "\(failure) at \(count): a reader sees a log that is neither")
    _ = try LogRepair.repair(logPath: fixture.log)
    let left = try fileSet(fixture)
    #expect(left == old || left == new, "\(failure) at \(count): \(left.keys.sorted()) is a mix: \(String(describing: error))")
    #expect(!left.keys.contains { $0.hasSuffix(EraseJournal.temporarySuffix) || $0.hasSuffix(".erase") })
    return (left == new, error != nil)
  }

  @Test("a crash at every byte written, before every rename and removal, and a failed fsync at each: old or new set after repair")
  func everyStep() throws {
    let (fixture, old) = try Self.prepared()
    defer { fixture.remove() }
    try fixture.erase(["u1"], seed: 5)
    let new = try Self.fileSet(fixture)
    #expect(new != old && new["log.jsonl.index/manifest"] == nil && !holds(new["log.jsonl.torn"] ?? [], Array(#""u1""#.utf8)))
    // Count what a whole erasure writes, changes and fsyncs.
    try Self.restore(fixture, old)
    let (_, counted) = IOFaults.with(IOFault(pathPrefix: fixture.directory.path + "/", failure: .syncError(5), afterBytes: Int.max)) {
      try? fixture.erase(["u1"], seed: 5)
    }
    var outcomes: Set<Bool> = []
    for byte in 0...counted.bytesWritten {
      outcomes.insert(try Self.interrupted(fixture, old: old, new: new, .crash, after: byte).isNew)
    }
    for change in 0...counted.changes {
      outcomes.insert(try Self.interrupted(fixture, old: old, new: new, .crashBeforeChange, after: change).isNew)
    }
    for sync in 0..<counted.syncs {
      let (isNew, failed) = try Self.interrupted(fixture, old: old, new: new, .syncError(5), after: sync)
      #expect(failed, "a failed fsync \(sync) is reported")
      outcomes.insert(isNew)
    }
    // Both outcomes happen: crashes before the journal's commit undo, those after it finish.
    #expect(outcomes == [false, true])
  }
}
