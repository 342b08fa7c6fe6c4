import Foundation
import Testing

@testable import StoreLedgerCore

/// An erasure's files as a set, put back and interrupted by a fault: what the crash tests of the
/// unit target and the killed processes of the command tests check erasures with.
package enum ErasureInterruptions {
  /// The files an erasure may change, by name (locks and the catalog left out).
  package static func fileSet(_ fixture: ErasureFixture) throws -> [String: [UInt8]] {
    try fixture.files().filter { !$0.key.hasSuffix(".lock") && $0.key != "catalog.json" }
  }

  /// Puts `files` back as the whole directory (but the catalog and locks).
  package static func restore(_ fixture: ErasureFixture, _ files: [String: [UInt8]]) throws {
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
  package static func interrupted(
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
}
