@testable import StoreLedgerCore
import StoreLedgerGenerate

/// Generates a whole log into memory (tests only: the generator itself never holds a log).
package func generatedLog(_ options: GeneratorOptions) -> (bytes: [UInt8], stats: GeneratorStats) {
  var bytes: [UInt8] = []
  let stats = LogGenerator(options: options).generate { chunk in bytes.append(contentsOf: chunk) }
  return (bytes, stats)
}

/// The owners report tests' log, in process and on the command line.
package enum TransferLog {
  /// A generated v1.3 log with transfers (200 subjects, 24 months from 2024), and its ledger.
  package static let generated: (text: String, ledger: Ledger) = {
    let options = GeneratorOptions(subjects: 200, seed: 33, usage: .none, contract: .v1_3, transfers: true)
    let text = String(decoding: generatedLog(options).bytes, as: UTF8.self)
    let built = try! buildLedger(text, catalogText: LogGenerator.catalogJSON(for: .none)).get()
    return (text, built)
  }()
}
