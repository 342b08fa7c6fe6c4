import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Issue 38, "Done when", in one test: a generated v1.3 log with transfers, App Store and Google
/// Play data of some of its subjects imported (the Play documents kept beside it) and an index;
/// a random subject S (seeded: `STORELEDGER_SEED` replays one) is erased, and every promise of
/// CONTRACT §12 is checked.
@Suite("Erasure, done when: a random subject of a generated v1.3 log with store data and an index")
struct ErasurePropertyTests: ErasedStoreTokens {
  /// The instant the store data is imported at (after every generated event).
  static let importedAt = ts("2026-01-10T00:00:00Z")

  /// The log before the erasure, and what the checks compare against.
  struct Prepared {
    let fixture: ErasureFixture
    let subject: String
    /// S's subject, store tokens and the `meta` values only S's lines hold.
    let forbidden: [String]
    /// The store payloads imported, to import again.
    let appStore: String
    let googlePlay: String
  }

  /// Generates the log, imports store data for S and three others, appends one line of S with
  /// personal `meta`, builds the index.
  static func prepare(seed: UInt64) throws -> Prepared {
    var random = SeededGenerator(seed: seed)
    let (bytes, _) = generatedLog(GeneratorOptions(subjects: 40, seed: seed, usage: .none, contract: .v1_3, transfers: true))
    let fixture = try ErasureFixture(log: bytes, catalogText: ErasureStoreData.catalogText)
    let names = subjectNames(try fixture.ledger()).shuffled(using: &random)
    let subject = names[0]
    var appStore = ""
    var googlePlay = ""
    var tokens: [String] = []
    for (n, name) in names.prefix(4).enumerated() {
      let token = ErasureStoreData.token(&random)
      if n == 0 { tokens.append(token) }
      let start = ts("2025-09-01T08:00:00Z").adding(milliseconds: Int64(n) * 3_600_000)
      appStore += ErasureStoreData.appStore(subject: name, n: n, start: start)
      googlePlay += ErasureStoreData.googlePlay(subject: name, token: token, n: n, start: start)
    }
    let store = try LedgerStore(logPath: fixture.log, clock: .fixed(importedAt))
    let options = StoreImportOptions(appStoreVerification: .skip)
    #expect(try store.importAppStore(appStore, options: options).append.appended > 0)
    #expect(try store.importGooglePlay(googlePlay, options: options).append.appended > 0)
    let email = "s.\(seed)@example.com"
    let note = "café/naïve \(seed)"
    _ = try store.append(
      lines: JSONWriter.compact(
        .object([
          ("id", .string("gift-\(seed)")), ("type", .string("purchase")), ("subject", .string(subject)),
          ("at", .string("2025-12-01T00:00:00Z")), ("product", .string("gift.coins")), ("transaction", .string("gift-t-\(seed)")),
          ("meta", .object([("email", .string(email)), ("note", .string(note))])),
        ])) + "\n")
    _ = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    tokens += try Self.tokens(of: subject, log: fixture.log)
    return Prepared(
      fixture: fixture, subject: subject, forbidden: Array(Set([subject, email, note] + tokens)).sorted(),
      appStore: appStore, googlePlay: googlePlay)
  }

  /// The names of files that hold any form of any forbidden value.
  static func holders(_ files: [String: [UInt8]], _ forbidden: [String]) -> [String] {
    files.filter { _, bytes in forbidden.contains { value in ErasureStoreData.forms(value).contains { holds(bytes, $0) } } }
      .keys.sorted()
  }

  @Test("no form of S's subject, meta or tokens in any file; every other answer at edge instants and every report total unchanged; re-imports add nothing under S; crashes and kills leave the old or the new ledger", arguments: [UInt64(11), 12])
  func doneWhen(defaultSeed: UInt64) throws {
    let seed = testSeeds([defaultSeed])[0]
    testLog("erasure property seed: \(seed) (replay: STORELEDGER_SEED=\(seed))")
    let prepared = try Self.prepare(seed: seed)
    let fixture = prepared.fixture
    defer { fixture.remove() }
    let old = try ErasureInterruptions.fileSet(fixture)
    // Not vacuous: before, the log and the kept documents hold every forbidden value.
    #expect(Self.holders(old, prepared.forbidden).contains("log.jsonl"))
    for value in prepared.forbidden {
      #expect(!Self.holders(old, [value]).isEmpty, "seed \(seed): \(value) is in no file before the erasure")
    }
    #expect(old.keys.contains { $0.hasPrefix("log.jsonl.index/") } && old["log.jsonl.googleplay-documents.jsonl"] != nil)

    let before = try fixture.ledger()
    var random = SeededGenerator(seed: seed ^ 0xE5)
    let others = subjectNames(before).filter { $0 != prepared.subject }
    var times = answerTimes(before, count: 10, seed: seed) + edgeInstants(before, subject: prepared.subject, limit: 24, random: &random)
    for other in others.shuffled(using: &random).prefix(4) { times += edgeInstants(before, subject: other, limit: 8, random: &random) }
    let expected = Self.answers(before, others, times)
    let reports = try reportTotals(before, seed: seed)

    let report = try fixture.erase([prepared.subject], seed: seed)
    let new = try ErasureInterruptions.fileSet(fixture)
    #expect(report.documentsRemoved > 0 && report.indexRemoved)
    _ = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog)
    #expect(Self.holders(try fixture.files(), prepared.forbidden).isEmpty, "seed \(seed)")
    let after = try fixture.ledger()
    #expect(Self.answers(after, others, times) == expected, "seed \(seed): another subject's answer changed")
    #expect(try reportTotals(after, seed: seed) == reports, "seed \(seed): a report total changed")
    #expect(after.warnings.count == before.warnings.count && after.events.count == before.events.count)
    let pseudonym = try #require(report.pseudonyms.first)
    let erasedView = erasedView
    #expect(times.map { erasedView(after, pseudonym, $0) } == times.map { erasedView(before, prepared.subject, $0) })

    try Self.crashes(fixture, old: old, new: new, subject: prepared.subject, seed: seed, random: &random)
    try Self.kills(fixture, old: old, prepared: prepared, others: others, times: times, expected: expected, random: &random)

    // Last, on the new ledger: the same store data imported again adds nothing under S.
    try ErasureInterruptions.restore(fixture, new)
    let store = try LedgerStore(logPath: fixture.log, clock: .fixed(Self.importedAt))
    let options = StoreImportOptions(appStoreVerification: .skip)
    #expect(try store.importAppStore(prepared.appStore, options: options).append.appended == 0)
    #expect(try store.importGooglePlay(prepared.googlePlay, options: options).append.appended == 0)
    #expect(!store.knows(SubjectID(rawValue: prepared.subject)))
    #expect(Self.holders(try fixture.files(), prepared.forbidden).isEmpty, "seed \(seed): a re-import brought S back")
  }

  /// Every answer of `subjects` at `times`, in words.
  static func answers(_ ledger: Ledger, _ subjects: [String], _ times: [(at: Timestamp, asOf: Timestamp?)]) -> [String] {
    var engine = QueryEngine(ledger: ledger)
    return subjects.flatMap { subject in times.map { answerText(ledger, &engine, subject: subject, at: $0.at, asOf: $0.asOf) } }
  }

  /// Simulated crashes (the fault-injection seam) at random bytes written and before random
  /// renames or removals, each recovered by `repair`: the old set or the new one.
  static func crashes(
    _ fixture: ErasureFixture, old: [String: [UInt8]], new: [String: [UInt8]], subject: String, seed: UInt64,
    random: inout SeededGenerator
  ) throws {
    try ErasureInterruptions.restore(fixture, old)
    let (_, counted) = IOFaults.with(IOFault(pathPrefix: fixture.directory.path + "/", failure: .syncError(5), afterBytes: Int.max)) {
      try? fixture.erase([subject], seed: seed)
    }
    let points: [(IOFault.Failure, Int)] =
      (0..<5).map { _ in (.crash, Int.random(in: 0...counted.bytesWritten, using: &random)) }
      + (0..<4).map { _ in (.crashBeforeChange, Int.random(in: 0...counted.changes, using: &random)) }
    for (failure, count) in points {
      _ = try ErasureInterruptions.interrupted(fixture, old: old, new: new, failure, after: count, subjects: [subject], seed: seed)
    }
  }

  /// Real `storeledger erase` processes killed with SIGKILL at random moments, then `repair`:
  /// the old set, or a new ledger (its pseudonym is random) without S and with every other answer.
  static func kills(
    _ fixture: ErasureFixture, old: [String: [UInt8]], prepared: Prepared, others: [String],
    times: [(at: Timestamp, asOf: Timestamp?)], expected: [String], random: inout SeededGenerator
  ) throws {
    let binary = try storeledgerBinary()
    func run(killAfter microseconds: UInt32?) throws -> TimeInterval {
      try ErasureInterruptions.restore(fixture, old)
      let process = Process()
      process.executableURL = binary
      process.arguments = ["erase", fixture.log, "--subject", prepared.subject]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let started = Date()
      try process.run()
      if let microseconds {
        usleep(microseconds)
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
      return Date().timeIntervalSince(started)
    }
    let whole = try run(killAfter: nil)
    var outcomes: [Bool] = []
    // The switch comes early in a run (the index is rebuilt after it): most moments are before it.
    for _ in 0..<5 {
      _ = try run(killAfter: UInt32.random(in: 0...UInt32(whole * 700_000), using: &random))
      _ = try LogRepair.repair(logPath: fixture.log)
      let left = try ErasureInterruptions.fileSet(fixture).filter { !$0.key.hasSuffix(".writer") }
      if left == old.filter({ !$0.key.hasSuffix(".writer") }) {
        outcomes.append(false)
        continue
      }
      #expect(Self.holders(left, prepared.forbidden).isEmpty, "a killed erasure left S's data in \(left.keys.sorted())")
      let ledger = try fixture.ledger()
      #expect(Self.answers(ledger, others, times) == expected, "a killed erasure left a log with other answers")
      #expect(try ErasureRegistry.read(log: fixture.log)?.erasures.count == 1)
      outcomes.append(true)
    }
    testLog("killed erasures: \(outcomes.filter { !$0 }.count) left the old ledger, \(outcomes.filter { $0 }.count) the new")
  }
}
