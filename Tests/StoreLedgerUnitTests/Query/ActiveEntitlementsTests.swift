import StoreLedgerGenerate
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore

/// `replay`'s summary folds subjects in chunks on every core; its counts must be what folding every
/// subject in turn on one engine gives, at any instant, with chunks cut anywhere.
@Suite("Replay's count of subjects per entitlement equals one engine's subject by subject")
struct ActiveEntitlementsTests {
  /// More subjects than one chunk holds, so the count crosses chunk boundaries; v1.3 with
  /// transfers, so receivers without lines of their own count too.
  static let ledger: Ledger = {
    let options = GeneratorOptions(subjects: 2 * ActiveEntitlements.subjectsPerChunk + 300, seed: 7, usage: .none, contract: .v1_3, transfers: true)
    var builder = LedgerBuilder(catalog: LogGenerator.catalog, file: "log.jsonl")
    var lines = generatedLog(options).bytes.split(separator: 10).map(Array.init)
    for index in lines.indices {
      _ = lines[index].withUnsafeMutableBufferPointer { builder.add(line: UnsafeBufferPointer($0), lineNumber: index + 1) }
    }
    guard case .success(let ledger) = builder.finish() else { preconditionFailure("the generated log does not fold") }
    return ledger
  }()

  /// The slow twin: one engine, every subject in order, then the receivers.
  static func countedOneByOne(_ ledger: Ledger, at time: Timestamp) -> [String] {
    var engine = QueryEngine(ledger: ledger)
    var counts = [Int](repeating: 0, count: ledger.catalog.entitlementNames.count)
    for s in 0..<ledger.subjectCount {
      engine.forEachActiveEntitlement(subject: Symbol(rawValue: UInt32(s)), at: time) { counts[$0] += 1 }
    }
    for name in ledger.receiversWithoutLines {
      engine.forEachActiveEntitlement(receiver: name, at: time) { counts[$0] += 1 }
    }
    return zip(ledger.catalog.entitlementNames, counts).filter { $0.1 > 0 }.map { "\($0.0)=\($0.1)" }
  }

  @Test("at the log's first instant, its middle and its last, the chunked count equals the one-by-one count", arguments: [0, 1, 2])
  func equalsOneByOne(point: Int) throws {
    let ledger = Self.ledger
    #expect(ledger.subjectCount > 2 * ActiveEntitlements.subjectsPerChunk)
    let first = ledger.events.map(\.at).min()!
    let last = ledger.latestEffective
    let time = [first, Timestamp(millisecondsSinceEpoch: (first.millisecondsSinceEpoch + last.millisecondsSinceEpoch) / 2), last][point]
    let chunked = ActiveEntitlements.count(in: ledger, at: time).map { "\($0.entitlement)=\($0.subjects)" }
    #expect(chunked == Self.countedOneByOne(ledger, at: time))
    if point > 0 { #expect(!chunked.isEmpty, "nothing held: the comparison would be empty") }
  }
}
