import Foundation
import StoreLedger
import StoreLedgerGenerate

/// `storeledger-bench --production-shape LOG OUT [SEED]`: writes the production-shaped copy of
/// LOG the benchmark measures (`ProductionShape`, the same seed gives the same bytes), so that
/// other tools (`wc -l`, Scripts/floor.c, DuckDB, perf) can be timed on the headline file.
enum ProductionShapeRun {
  /// Writes the copy and prints what the rewriting did; returns the exit code.
  static func run(logPath: String, outPath: String, seed: UInt64) -> Int32 {
    do {
      guard fileSize(logPath) != nil else { throw BenchError("no log at \(logPath)") }
      let log = LogUnderTest(
        logPath: logPath, catalogPath: "", lines: -1, events: -1, duplicates: -1, subjects: -1,
        bytes: fileSize(logPath) ?? 0, seconds: nil, shape: "given")
      let ((written, stats), seconds) = try timed { try log.writeProductionShape(to: outPath, seed: seed) }
      say(
        "wrote \(outPath) in \(Format.seconds(seconds)): \(Format.grouped(stats.linesWritten)) lines "
          + "(\(Format.grouped(stats.redeliveriesAdded)) redeliveries added), \(Format.grouped(written.bytes)) bytes; "
          + "\(Format.grouped(stats.timestampsRewritten)) timestamps with UTC offsets, meta on \(Format.grouped(stats.metaWritten)) lines")
      return 0
    } catch {
      say("storeledger-bench: error: \(error)")
      return 1
    }
  }
}
