import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A scenario's snapshot with what a full replay answers, to compare damaged copies against.
private struct SnapshotFixture {
  let catalog: Catalog
  let bytes: [UInt8]
  let header: SnapshotHeader
  let subjects: [String]
  let times: [Timestamp]
  /// The bytes restoring reads and the seal covers: the readable header, then the restore section
  /// and the trailer; the readable timeline between them is not read.
  let covered: [Range<Int>]
  /// Where the trailer's digest digits are.
  let digestDigits: Range<Int>
  var replay: QueryEngine

  init(scenario: String) throws {
    let catalogPath = repoPath("Events/catalog.json")
    let logPath = repoPath("Events/\(scenario).jsonl")
    catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (ledger, extent) = try LedgerLoader.load(logPath: logPath, catalog: catalog)
    let fullHeader = try SnapshotFiles.header(for: ledger, extent: extent, logPath: logPath, catalogPath: catalogPath)
    bytes = SnapshotWriter.write(ledger, header: fullHeader)
    header = fullHeader
    subjects = (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) } + ["nobody"]
    // Every instant an answer can change at, thinned to at most 16 so thousands of damaged copies stay quick.
    let instants = Array(Set(ledger.events.flatMap { [$0.at, $0.recorded, $0.at.adding(milliseconds: -1)] })).sorted()
    let stride = max(1, instants.count / 16)
    times = instants.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
    replay = QueryEngine(ledger: ledger)
    let trailer = try #require(bytes.withUnsafeBytes { SnapshotTrailer.parse($0) })
    covered = [0..<trailer.headerBytes, trailer.sectionAt..<bytes.count]
    let digestAt = trailer.sectionAt + trailer.sectionBytes + SnapshotTrailer.digestOffset
    digestDigits = digestAt..<(digestAt + SnapshotSeal.hexDigits)
  }

  /// Whether restoring reads the byte at `position`.
  func isCovered(_ position: Int) -> Bool { covered.contains { $0.contains(position) } }

  /// Restores `damaged` in memory as `replay`, `query` and `audit` do with an empty tail.
  func restore(_ damaged: [UInt8]) -> Result<(Ledger, SnapshotHeader), Diagnostic> {
    do throws(Diagnostic) {
      let (base, header) = try SnapshotReader.read(damaged, file: "damaged.json", catalog: catalog)
      var builder = LedgerBuilder(restoring: base, file: "log.jsonl")
      switch builder.finish() {
      case .success(let ledger): return .success((ledger, header))
      case .failure(let list): return .failure(list.diagnostics[0])
      }
    } catch {
      return .failure(error)
    }
  }

  /// Whether `ledger` answers every subject at every interesting instant as the full replay does.
  mutating func answersLikeReplay(_ ledger: Ledger, asOf: [Timestamp?]) -> Bool {
    var engine = QueryEngine(ledger: ledger)
    for subject in subjects {
      for at in times {
        for knowledge in asOf
        where engine.answer(subject: subject, at: at, asOf: knowledge, explain: true)
          != replay.answer(subject: subject, at: at, asOf: knowledge, explain: true)
        {
          return false
        }
      }
    }
    return true
  }
}

@Suite("Snapshot integrity: a damaged snapshot is refused or answers exactly like a full replay")
struct SnapshotMutationTests {
  static let scenarios = ["contract-examples", "consumables"]

  /// Replacement values tried at byte `position`: by default six, rotating through every bit flip and the
  /// bytes that move JSON and base64 around, so that neighbouring positions get different ones; with
  /// `STORELEDGER_EXHAUSTIVE=1` all 255 other values (minutes in a debug build).
  static func replacements(for original: UInt8, at position: Int) -> [UInt8] {
    if exhaustive { return (0...255).filter { $0 != original } }
    let flips = (0..<8).map { original ^ (1 << $0) }
    let structural: [UInt8] = [0x00, 0x0A, 0x20, 0x22, 0x2B, 0x2C, 0x2F, 0x30, 0x39, 0x3A, 0x41, 0x61, 0x7B, 0x7D]
    let candidates = Array(Set(flips + structural).subtracting([original])).sorted()
    return (0..<6).map { candidates[(position * 7 + $0 * 5) % candidates.count] }
  }

  static let exhaustive = ProcessInfo.processInfo.environment["STORELEDGER_EXHAUSTIVE"] == "1"

  @Test("every single-byte change of a scenario's snapshot is refused or changes no answer", arguments: scenarios)
  func everySingleByteChange(scenario: String) throws {
    var fixture = try SnapshotFixture(scenario: scenario)
    var damaged = fixture.bytes
    var accepted = 0
    var refused = 0
    for position in damaged.indices {
      let original = damaged[position]
      // Many values where restoring reads; a sample of the timeline, which restoring never reads.
      let values: [UInt8] =
        fixture.isCovered(position) ? Self.replacements(for: original, at: position) : position % 97 == 0 ? [original ^ 0x01] : []
      for value in values where value != original {
        damaged[position] = value
        switch fixture.restore(damaged) {
        case .failure(let diagnostic):
          refused += 1
          #expect(diagnostic.exitCode == 65, "byte \(position) = \(value): \(diagnostic)")
        case .success(let (ledger, header)):
          accepted += 1
          #expect(header == fixture.header, "byte \(position) = \(value): header \(header)")
          let same = fixture.answersLikeReplay(ledger, asOf: [nil, fixture.times[fixture.times.count / 2]])
          #expect(
            same,
            "byte \(position) changed from \(original) to \(value) was accepted with different answers")
        }
      }
      damaged[position] = original
    }
    #expect(refused >= fixture.covered.map(\.count).reduce(0, +) * 5, "\(scenario): the restored bytes were not checked")
    #expect(accepted > 0, "\(scenario): the timeline should be ignored by restore")
  }

  @Test(
    "a damaged snapshot whose digest was recomputed never crashes the decoder: it is refused or restores a ledger",
    arguments: scenarios)
  func resealedDamageNeverCrashes(scenario: String) throws {
    let fixture = try SnapshotFixture(scenario: scenario)
    var damaged = fixture.bytes
    var restored = 0
    // The header and the restore section; the trailer's numbers stay, so the copy can be sealed again.
    let sectionEnd = fixture.digestDigits.lowerBound - SnapshotTrailer.digestOffset
    for position in Array(fixture.covered[0]) + Array(fixture.covered[1].lowerBound..<sectionEnd) {
      let original = damaged[position]
      for value in Self.replacements(for: original, at: position) {
        damaged[position] = value
        SnapshotSeal.seal(&damaged)
        if case .success(let (ledger, _)) = fixture.restore(damaged) {
          restored += 1
          // Whatever was restored must answer without trapping.
          var engine = QueryEngine(ledger: ledger)
          for subject in fixture.subjects {
            for at in fixture.times.suffix(3) { _ = engine.answer(subject: subject, at: at, asOf: nil, explain: true) }
          }
        }
      }
      damaged = fixture.bytes
    }
    #expect(restored > 0, "\(scenario): no resealed change restored at all; the test exercises nothing")
  }

  @Test("a snapshot in the previous format is refused with a message asking for a new one")
  func previousFormatIsRefused() throws {
    let fixture = try SnapshotFixture(scenario: "demo")
    var text = String(decoding: fixture.bytes, as: UTF8.self)
    text = text.replacingOccurrences(of: SnapshotHeader.format, with: "storeledger-snapshot/2")
    guard case .failure(let diagnostic) = fixture.restore(Array(text.utf8)) else {
      Issue.record("an old-format snapshot was restored")
      return
    }
    #expect(diagnostic.description.contains("expected '\(SnapshotHeader.format)': make a new snapshot"))
    #expect(diagnostic.exitCode == 65)
  }
}
