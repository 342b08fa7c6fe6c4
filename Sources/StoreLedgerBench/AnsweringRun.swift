import Foundation
import StoreLedger

/// `storeledger-bench --answering LOG CATALOG QUERIES [RUNS]`: the in-process answering of the
/// usage comparison alone (`QueryEngine.writeAnswers`, usage index included), on files kept by
/// an earlier `--keep` run, for profiling it (`perf record`) and for comparing two builds.
///
/// Per run it prints the wall and CPU seconds, and the first run's answer bytes and their
/// FNV-1a digest, so two builds can be checked to write the same answers.
enum AnsweringRun {
  /// Runs the measurement and prints it; returns the exit code.
  static func run(logPath: String, catalogPath: String, queriesPath: String, runs: Int) -> Int32 {
    do {
      let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
      let ledger = try LedgerLoader.load(logPath: logPath, catalog: catalog).ledger
      let input = try LedgerLoader.readFile(queriesPath)
      let batch = try QueryBatch.parse(input, file: queriesPath)
      say("log: \(logPath), \(ledger.events.count) events, \(ledger.subjectCount) subjects; \(batch.count) queries")
      var cpuSeconds: [Double] = []
      for run in 1...runs {
        var engine = QueryEngine(ledger: ledger)
        var bytes = 0
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        let cpuBefore = ownCPUSeconds()
        // The index `writeAnswers` builds first (for a batch this size), timed on its own.
        let (_, indexSeconds) = timed { if batch.count >= QueryEngine.usageIndexMinimumQueries { engine.prepareUsageIndex() } }
        let indexCPU = ownCPUSeconds() - cpuBefore
        let (_, answerSeconds) = timed {
          engine.writeAnswers(batch) { out in
            bytes += out.count
            if run == 1 {
              for byte in out { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            }
          }
        }
        let cpu = ownCPUSeconds() - cpuBefore
        cpuSeconds.append(cpu)
        let check = run == 1 ? "; \(bytes) bytes, digest \(String(digest, radix: 16)) (digest time included)" : ""
        say(
          "run \(run): \(Format.seconds(indexSeconds + answerSeconds)) wall, \(Format.seconds(cpu)) CPU, of which the "
            + "usage index \(Format.seconds(indexSeconds)) wall, \(Format.seconds(indexCPU)) CPU\(check)")
      }
      say("best CPU: \(Format.seconds(cpuSeconds.min() ?? 0)) (of runs 2…: the first also digests)")
      return 0
    } catch {
      say("storeledger-bench: error: \(error)")
      return 1
    }
  }
}
