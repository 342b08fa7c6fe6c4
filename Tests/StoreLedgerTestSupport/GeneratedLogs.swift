import StoreLedgerGenerate

/// Generates a whole log into memory (tests only: the generator itself never holds a log).
package func generatedLog(_ options: GeneratorOptions) -> (bytes: [UInt8], stats: GeneratorStats) {
  var bytes: [UInt8] = []
  let stats = LogGenerator(options: options).generate { chunk in bytes.append(contentsOf: chunk) }
  return (bytes, stats)
}
