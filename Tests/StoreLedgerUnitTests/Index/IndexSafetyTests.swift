import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The index never gives a wrong answer")
struct IndexSafetyTests {
  /// A small log over the Events catalog, indexed, with a few subjects to ask about.
  static func fixture(seed: UInt64 = 9) throws -> (IndexFixture, [String]) {
    let log = RandomLog(seed: seed, subjects: 5, eventsPerSubject: 12)
    let fixture = try IndexFixture(log: Array((log.lines.joined(separator: "\n") + "\n").utf8), catalogText: exampleCatalogText)
    try fixture.index()
    return (fixture, log.subjects)
  }

  /// Every subject's answers at a few instants, through `ledger` (or the full read when nil).
  static func allAnswers(_ fixture: IndexFixture, subjects: [String], indexed: Bool) throws -> [[String]] {
    let full = try fixture.fullLedger()
    let times = [full.latestEffective, full.events.map(\.at).min()!.adding(milliseconds: 20 * 86_400_000)]
    return try subjects.flatMap { subject -> [[String]] in
      let ledger = indexed ? try fixture.indexedLedger([subject]).0 ?? full : full
      return times.flatMap { at in [answers(ledger, subject: subject, at: at, asOf: nil), answers(ledger, subject: subject, at: at, asOf: at)] }
    }
  }

  @Test("damaging any byte of the index never changes an answer (seeded)", arguments: testSeeds([1, 2, 3]))
  func damage(seed: UInt64) throws {
    let (fixture, subjects) = try Self.fixture()
    defer { fixture.remove() }
    let expected = try Self.allAnswers(fixture, subjects: subjects, indexed: false)
    let files = try fixture.indexFiles()
    var random = SeededGenerator(seed: seed)
    var bypassed = 0
    for _ in 0..<40 {
      let file = files.randomElement(using: &random)!
      var bytes = file.bytes
      let at = Int.random(in: 0..<bytes.count, using: &random)
      bytes[at] ^= UInt8.random(in: 1...255, using: &random)
      let path = fixture.indexDirectory + "/" + file.name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      defer { try? Data(file.bytes).write(to: URL(fileURLWithPath: path)) }
      #expect(try Self.allAnswers(fixture, subjects: subjects, indexed: true) == expected, "\(file.name) byte \(at)")
      if try fixture.indexedLedger([subjects[0]]).0 == nil { bypassed += 1 }
    }
    // Damage is found, not used: most flips land in bytes a read checks.
    #expect(bypassed > 0)
  }

  @Test("every byte of the manifest is checked: any change makes the index bypassed")
  func manifestBytes() throws {
    let (fixture, subjects) = try Self.fixture()
    defer { fixture.remove() }
    let path = fixture.indexDirectory + "/manifest"
    let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    for at in original.indices {
      var bytes = original
      bytes[at] ^= 0x01
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let (ledger, warning) = try fixture.indexedLedger([subjects[0]])
      #expect(ledger == nil && warning != nil, "manifest byte \(at)")
    }
    try Data(original).write(to: URL(fileURLWithPath: path))
    #expect(try fixture.indexedLedger([subjects[0]]).0 != nil)
  }

  /// What happened to the log, and the reason the index must give.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case replaced, truncated, editedAtEnd, otherCatalog
    var testDescription: String { rawValue }
  }

  @Test("an index that does not describe the log is bypassed with a warning naming why", arguments: Change.allCases)
  func bypassed(_ change: Change) throws {
    let (fixture, subjects) = try Self.fixture()
    defer { fixture.remove() }
    var text = try String(contentsOfFile: fixture.log, encoding: .utf8)
    var catalog = fixture.catalog
    let expectedIssue: IndexIssue
    switch change {
    case .replaced:
      // A new file under the same name (`generate --force`, `mv`): same bytes, other inode.
      // The old file stays open, so the new one cannot reuse its inode.
      let old = try FileHandle(forReadingFrom: URL(fileURLWithPath: fixture.log))
      defer { try? old.close() }
      try FileManager.default.removeItem(atPath: fixture.log)
      try text.write(toFile: fixture.log, atomically: false, encoding: .utf8)
      expectedIssue = .otherLog
    case .truncated:
      let lines = text.split(separator: "\n")
      text = lines.dropLast().joined(separator: "\n") + "\n"
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.log))
      try handle.truncate(atOffset: UInt64(text.utf8.count))
      try handle.close()
      expectedIssue = .logShorter(covered: Int64(lines.map { $0.utf8.count + 1 }.reduce(0, +)), size: Int64(text.utf8.count))
    case .editedAtEnd:
      // Same length, last line: a different subject now.
      let last = text.split(separator: "\n").last!
      let edited = last.replacingOccurrences(of: #""subject":"s"#, with: #""subject":"t"#)
      text = String(text.dropLast(last.utf8.count + 1)) + edited + "\n"
      try text.write(toFile: fixture.log, atomically: false, encoding: .utf8)
      expectedIssue = .prefixChanged
    case .otherCatalog:
      catalog = try StoreLedgerTestSupport.catalog(exampleCatalogText.replacingOccurrences(of: "\"pro.monthly\"", with: "\"pro.monthly2\""))
      expectedIssue = .catalogChanged
    }
    let outcome = try IndexedLedger.load(logPath: fixture.log, catalog: catalog, subjects: [subjects[0]])
    guard case .notUsed(let warning?) = outcome else {
      Issue.record("the index was used")
      return
    }
    #expect(warning.problem == .indexNotUsed(expectedIssue) && warning.severity == .warning)
    // `index` rebuilds it, saying why.
    if change != .otherCatalog {
      let (summary, warnings) = try IndexBuild.run(logPath: fixture.log, catalog: catalog)
      #expect(summary.rebuilt && warnings.map(\.problem) == [.indexBuilt(expectedIssue)])
      #expect(try fixture.indexedLedger([subjects[0]]).0 != nil)
    }
  }

  @Test("an edit of the same length between the first and the last block passes the open checks and is caught by check's verify")
  func editInTheMiddle() throws {
    let seedLog = RandomLog(seed: 4, subjects: 40, eventsPerSubject: 40)
    let fixture = try IndexFixture(log: Array((seedLog.lines.joined(separator: "\n") + "\n").utf8), catalogText: exampleCatalogText)
    defer { fixture.remove() }
    try fixture.index()
    #expect(LogIndex.verify(logPath: fixture.log, catalog: fixture.catalog).isEmpty)
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.log)))
    #expect(bytes.count > 2 * Int(PrefixDigest.blockBytes))
    // An id past the first block renamed, same length: still a valid log.
    let key = Array(#""id":"e"#.utf8)
    let block = Int(PrefixDigest.blockBytes)
    let at = try #require((block..<(bytes.count - block)).first { bytes[$0..<($0 + key.count)].elementsEqual(key) }) + key.count - 1
    bytes[at] = UInt8(ascii: "x")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.log))
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
    #expect(LogIndex.verify(logPath: fixture.log, catalog: fixture.catalog).map(\.problem) == [.indexMismatch(.prefixDigestMismatch)])
    // A rebuild clears it.
    let (summary, _) = try IndexBuild.run(logPath: fixture.log, catalog: fixture.catalog, rebuild: true)
    #expect(summary.rebuilt && LogIndex.verify(logPath: fixture.log, catalog: fixture.catalog).isEmpty)
  }
}

@Suite("Readers racing appends that rewrite the index")
struct IndexRaceTests {
  @Test("readers during appends that replace segments always use the index and answer the same (a stress test: the window between a manifest read and a segment removal is rarely hit)")
  func readersDuringAppends() throws {
    let (fixture, subjects) = try IndexSafetyTests.fixture(seed: 12)
    defer { fixture.remove() }
    let subject = subjects[0]
    let at = try fixture.fullLedger().latestEffective
    let expected = answers(try fixture.fullLedger(), subject: subject, at: at, asOf: nil)
    final class Outcome: @unchecked Sendable {
      var done = false
      var appendError: String? = nil
      let lock = NSLock()
    }
    let outcome = Outcome()
    let log = fixture.log
    let catalog = fixture.catalog
    let writer = Thread {
      for k in 0..<30 {
        let line =
          EventLines.line(
            .purchase(id: "race-\(k)", subject: "racer-\(k % 3)", at: ts("2026-03-04T00:00:00Z"), product: "coins.100", transaction: "race-\(k)"))
          + "\n"
        do {
          _ = try LogAppender.append(input: Array(line.utf8), inputName: "b", logPath: log, catalog: catalog, now: ts("2026-03-10T00:00:00Z"))
        } catch {
          outcome.lock.withLock { outcome.appendError = "\(error)" }
        }
      }
      outcome.lock.withLock { outcome.done = true }
    }
    writer.start()
    var reads = 0
    while !outcome.lock.withLock({ outcome.done }) || reads == 0 {
      let (ledger, warning) = try fixture.indexedLedger([subject])
      let indexed = try #require(ledger, "read \(reads): \(String(describing: warning))")
      #expect(answers(indexed, subject: subject, at: at, asOf: nil) == expected)
      reads += 1
    }
    #expect(outcome.appendError == nil)
    let manifest = try #require(LogIndex.readManifest(fixture.indexDirectory).flatMap { try? $0.get() })
    #expect(manifest.coveredLines == Int64(60 + 30))
  }
}
