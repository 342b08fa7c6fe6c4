import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

@Suite("The erasure's search for many subjects at once finds what one search per subject finds")
struct ErasureScanTests {
  @Test("one pass over a bitmap of the needles' first bytes and one SIMD scan per needle find the same lines", arguments: testSeeds([3, 41]))
  func sameLines(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 60, seed: seed))
    let text = String(decoding: bytes, as: UTF8.self)
    var subjects = Array(Set(text.split(separator: "\"").filter { $0.hasPrefix("u_") }.map(String.init)))
    subjects.sort()
    // Subjects of the log, values that hold none, short needles and one at the very end.
    var needles = subjects.shuffled(using: &random).prefix(12).map { Array($0.utf8) }
    needles += [Array("u_zzzzzzzz".utf8), Array("ai".utf8), Array("e".utf8), Array(bytes.suffix(5))]
    for count in [5, needles.count] {
      let chosen = Array(needles.prefix(count))
      let together = ErasureRewrite.candidateLines(in: bytes, needles: chosen)
      let oneByOne = ErasureRewrite.candidateLines(in: bytes, needles: chosen, oneByOne: true)
      #expect(together == oneByOne, "seed \(seed), \(count) needles")
      #expect(!together.isEmpty)
    }
  }
}
