import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerStorage

/// The documents `import googleplay --append LOG` keeps beside the log, run after run, in a
/// workspace: the lifecycle files of `Events/googleplay/lifecycles/`, imported through the
/// command line as a webhook would, and the answers of one import of all of them.
struct KeptDocumentsFixture: EventLineTimes {
  static let catalogPath = repoPath("Events/googleplay/catalog.json")
  static let catalogText = (try? String(contentsOfFile: catalogPath, encoding: .utf8)) ?? ""
  /// The lifecycle documents, one per file, in the order they were produced.
  static let documents: [String] = {
    let folder = repoPath("Events/googleplay/lifecycles")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
    return names.sorted().map {
      ((try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }()

  let space: Workspace
  private let counter = Counter()

  init() throws { space = try Workspace() }

  var log: String { space.log }
  /// The kept documents and their record, beside a log.
  static func documentsPath(_ log: String) -> String { log + ".googleplay-documents.jsonl" }
  static func recordPath(_ log: String) -> String { log + ".googleplay-documents.record" }
  var documentsPath: String { Self.documentsPath(log) }
  var recordPath: String { Self.recordPath(log) }

  /// `import googleplay --append log` of `documents` (one per line), as known from each event's `at`.
  @discardableResult
  func importing(_ documents: [String], into log: String? = nil, wait: String? = nil) throws -> RunResult {
    counter.value += 1
    let input = space.path("delivery-\(counter.value).jsonl")
    try (documents.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
    return runCLI(
      ["import", "googleplay", input, "--catalog", Self.catalogPath, "--append", log ?? self.log, "--recorded-as-at"]
        + (wait.map { ["--wait", $0] } ?? []))
  }

  /// The bytes of a file, nil when there is none.
  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// One import of every lifecycle document, as the reference every other way must answer like.
  static func reference() throws -> (engine: QueryEngine, lines: [String]) {
    let result = try GooglePlayImporter.importEvents(
      documents.joined(separator: "\n"), file: "all", catalog: fixtureCatalog(catalogText),
      options: GooglePlayImportOptions())
    return (QueryEngine(ledger: try ledger(result.eventLines.joined(separator: "\n"), catalogText: catalogText)), result.eventLines)
  }

  /// Where the answers of the log differ from the reference's, at every instant an event names
  /// (and the millisecond before), as known now and, with `asOf`, at every `recorded` (at most 3 named).
  func differences(from reference: (engine: QueryEngine, lines: [String]), asOf: Bool = true) throws -> [String] {
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").map(String.init)
    var engine = QueryEngine(ledger: try ledger(text, catalogText: Self.catalogText))
    var expected = reference.engine
    let (subjects, instants, recorded) = Self.times(reference.lines + lines)
    var found: [String] = []
    for subject in subjects {
      for at in instants {
        for asOf in [nil] + (asOf ? recorded : [])
        where expected.answer(subject: subject, at: at, asOf: asOf) != engine.answer(subject: subject, at: at, asOf: asOf)
          && found.count < 3
        {
          found.append("\(subject) at \(at.rfc3339) as of \(asOf?.rfc3339 ?? "now")")
        }
      }
    }
    return found
  }

  /// A mutable count shared by copies of the fixture.
  final class Counter: @unchecked Sendable { var value = 0 }
}

@Suite("Google Play: the documents kept beside the log are part of the ledger's state")
struct GooglePlayKeptDocumentsTests {
  /// What happened to the documents kept beside a log between two imports.
  enum Damage: String, CaseIterable, CustomTestStringConvertible {
    case deleted = "deleted"
    case truncated = "truncated"
    case swapped = "swapped for another log's"
    case swappedWithRecord = "swapped, with its record, for another log's"
    case garbageLine = "given a line that is not a kept document"
    case recordDamaged = "left with a damaged record"
    case unreadable = "replaced by something that cannot be read (a directory)"
    var testDescription: String { rawValue }
  }

  /// The first documents of a shuffled delivery imported into the fixture's log, then `damage`
  /// done; returns the documents still to import and the line a garbage line was put on.
  static func damaged(_ fixture: KeptDocumentsFixture, _ damage: Damage) throws -> (rest: [String], line: Int?) {
    var random = SplitMix64(state: 11)
    let shuffled = KeptDocumentsFixture.documents.shuffled(using: &random)
    let (first, rest) = (Array(shuffled[..<12]), Array(shuffled[12...]))
    for part in [first[..<6], first[6...]] {
      let run = try fixture.importing(Array(part))
      #expect(run.status == 0, "\(run.stderr)")
    }
    let other = fixture.space.path("other.jsonl")
    if damage == .swapped || damage == .swappedWithRecord {
      #expect(try fixture.importing(Array(rest.prefix(5)), into: other).status == 0)
    }
    let manager = FileManager.default
    let documents = fixture.documentsPath
    var line: Int?
    switch damage {
    case .deleted:
      try manager.removeItem(atPath: documents)
    case .truncated:
      let handle = try #require(FileHandle(forWritingAtPath: documents))
      try handle.truncate(atOffset: UInt64(try #require(fixture.bytes(documents)).count / 2))
      try handle.close()
    case .swapped, .swappedWithRecord:
      try manager.removeItem(atPath: documents)
      try manager.copyItem(atPath: KeptDocumentsFixture.documentsPath(other), toPath: documents)
      if damage == .swappedWithRecord {
        try? manager.removeItem(atPath: fixture.recordPath)
        try? manager.copyItem(atPath: KeptDocumentsFixture.recordPath(other), toPath: fixture.recordPath)
      }
    case .garbageLine:
      let text = try String(contentsOfFile: documents, encoding: .utf8)
      line = text.split(separator: "\n").count + 1
      try (text + #"{"token":"not-a-document"# + "\n").write(toFile: documents, atomically: false, encoding: .utf8)
    case .recordDamaged:
      try "storeledger-googleplay-documents/1 damaged\n".write(toFile: fixture.recordPath, atomically: false, encoding: .utf8)
    case .unreadable:
      try manager.removeItem(atPath: documents)
      try manager.createDirectory(atPath: documents, withIntermediateDirectories: false)
    }
    return (rest, line)
  }

  @Test(
    "an import after the kept documents were damaged refuses with exit 65, naming the file and how to rebuild it, and writes nothing; check refuses too",
    arguments: Damage.allCases)
  func damagedDocumentsRefused(damage: Damage) throws {
    let fixture = try KeptDocumentsFixture()
    let (rest, line) = try Self.damaged(fixture, damage)
    let log = fixture.bytes(fixture.log)
    let documents = fixture.bytes(fixture.documentsPath)
    let run = try fixture.importing(rest)
    #expect(run.status == 65, "\(damage): \(run.stdout) \(run.stderr)")
    let place = fixture.documentsPath + (line.map { ":\($0):" } ?? ":")
    #expect(run.stderr.contains(place + " error: "), "\(run.stderr)")
    #expect(run.stderr.contains("import googleplay --append \(fixture.log)"), "\(run.stderr)")
    #expect(fixture.bytes(fixture.log) == log && fixture.bytes(fixture.documentsPath) == documents)
    let check = runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath])
    #expect(check.status == 65 && check.stderr.contains(place + " error: "), "\(check.stdout) \(check.stderr)")
    let json = runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath, "--format", "json"])
    #expect(json.status == 65 && json.stdout.contains(#""code":"googleplay_documents_damaged""#), "\(json.stdout)")
  }

  @Test("an open store's Google Play import refuses damaged kept documents with googleplay_documents_damaged", arguments: Damage.allCases)
  func damagedDocumentsRefusedByTheLibrary(damage: Damage) throws {
    let fixture = try KeptDocumentsFixture()
    let (rest, _) = try Self.damaged(fixture, damage)
    let store = try LedgerStore(
      logPath: fixture.log, catalog: try LedgerCatalog(contentsOfFile: KeptDocumentsFixture.catalogPath))
    let log = fixture.bytes(fixture.log)
    do {
      _ = try store.importGooglePlay(rest.joined(separator: "\n"))
      Issue.record("\(damage): the import was not refused")
    } catch {
      #expect(error.diagnostics.first?.code.rawValue == "googleplay_documents_damaged", "\(error.diagnostics)")
      #expect(error.diagnostics.first?.exitCode == 65)
    }
    #expect(fixture.bytes(fixture.log) == log)
  }

  @Test(
    "every document on its own, shuffled and split into runs of import --append, gives the answers of one import; check passes",
    arguments: 1...4 as ClosedRange<UInt64>)
  func outOfOrderImportsThroughTheFiles(seed: UInt64) throws {
    let reference = try KeptDocumentsFixture.reference()
    let fixture = try KeptDocumentsFixture()
    var random = SplitMix64(state: seed &* 15_485_863)
    let documents = KeptDocumentsFixture.documents
    var runs: [[String]] = [[]]
    for document in (documents + documents.filter { _ in Bool.random(using: &random) }).shuffled(using: &random) {
      if !runs[runs.count - 1].isEmpty && Int.random(in: 0..<3, using: &random) == 0 { runs.append([]) }
      runs[runs.count - 1].append(document)
    }
    for run in runs {
      let result = try fixture.importing(run)
      #expect(result.status == 0, "seed \(seed): \(result.stderr)")
    }
    #expect(try fixture.differences(from: reference).isEmpty, "seed \(seed)")
    let check = runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath])
    #expect(check.status == 0 && check.stdout.contains(", 0 warnings"), "\(check.stdout) \(check.stderr)")
  }

  /// Byte step of the crash walk between the files' boundaries (`STORELEDGER_CRASH_STEP`; 1
  /// walks every byte).
  static let crashStep = ProcessInfo.processInfo.environment["STORELEDGER_CRASH_STEP"].flatMap { Int($0) } ?? 23

  /// A new workspace holding copies of the files of `pristine`.
  static func copy(_ pristine: KeptDocumentsFixture) throws -> KeptDocumentsFixture {
    let fixture = try KeptDocumentsFixture()
    let manager = FileManager.default
    for name in try manager.contentsOfDirectory(atPath: pristine.space.directory.path) where name != "catalog.json" {
      try manager.copyItem(atPath: pristine.space.path(name), toPath: fixture.space.path(name))
    }
    return fixture
  }

  /// Runs `body` with a plan armed for the fixture's files that fails nothing (a sync error
  /// that never comes): real fsyncs are skipped, and the plan counts the bytes written.
  static func counted<R>(_ fixture: KeptDocumentsFixture, _ body: () throws -> R) rethrows -> (R, written: Int) {
    let plan = IOFault(pathPrefix: fixture.space.directory.path + "/", failure: .syncError(EIO), afterBytes: .max)
    let (value, ended) = try IOFaults.with(plan, body)
    return (value, ended.bytesWritten)
  }

  @Test(
    "a crash at any byte of an import's writes (kept documents, intent, log, record) leaves what the next import recovers from, with the answers of one import",
    .timeLimit(.minutes(10)))
  func crashAnywhereRecovers() throws {
    let reference = try KeptDocumentsFixture.reference()
    let documents = KeptDocumentsFixture.documents
    let (first, crashing, last) = (Array(documents[..<8]), Array(documents[8..<11]), Array(documents[11...]))
    let pristine = try KeptDocumentsFixture()
    #expect(try pristine.importing(first).status == 0)
    // Where each write ends (the documents, the append's intent record, the log's batch, the
    // record), from a run that does not crash: each boundary is walked byte by byte.
    let whole = try Self.copy(pristine)
    let (run, total) = try Self.counted(whole) { try whole.importing(crashing) }
    #expect(run.status == 0, "\(run.stderr)")
    func grown(_ path: (String) -> String) -> Int {
      (whole.bytes(path(whole.log))?.count ?? 0) - (pristine.bytes(path(pristine.log))?.count ?? 0)
    }
    let (documentsAdded, logAdded) = (grown(KeptDocumentsFixture.documentsPath), grown { $0 })
    let recordBytes = whole.bytes(whole.recordPath)?.count ?? 0
    let intentBytes = total - documentsAdded - logAdded - recordBytes
    let ends = [documentsAdded, documentsAdded + intentBytes, documentsAdded + intentBytes + logAdded, total]
    var points = Set(stride(from: 0, to: total, by: max(1, Self.crashStep)))
    for end in ends { points.formUnion(max(0, end - 2)..<min(total, end + 3)) }
    for after in points.sorted() {
      let fixture = try Self.copy(pristine)
      defer { try? FileManager.default.removeItem(at: fixture.space.directory) }
      let fault = IOFault(pathPrefix: fixture.space.directory.path + "/", failure: .crash, afterBytes: after)
      let (crashed, ended) = try IOFaults.with(fault) { try fixture.importing(crashing) }
      #expect(ended.crashed, "after \(after) of \(total) bytes")
      // A crash once the events are committed (writing the record) is a warning, not a failed import.
      #expect(
        crashed.status == 74 || (crashed.status == 0 && crashed.stderr.contains("warning: ")),
        "crash after \(after) bytes: \(crashed.stderr)")
      let recovered = try Self.counted(fixture) { try fixture.importing(crashing + last) }.0
      #expect(recovered.status == 0, "crash after \(after) bytes: \(recovered.stderr)")
      #expect(try fixture.differences(from: reference, asOf: false).isEmpty, "crash after \(after) bytes")
      let check = runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath])
      #expect(check.status == 0, "crash after \(after) bytes: \(check.stderr)")
    }
    #expect(intentBytes > 0 && recordBytes > 0 && documentsAdded > 0 && logAdded > 0, "\(ends)")
  }

  @Test("the import lock follows the log's name: a documents file moved during an import lets no second import run beside it")
  func lockFollowsTheName() throws {
    let fixture = try KeptDocumentsFixture()
    let documents = KeptDocumentsFixture.documents
    #expect(try fixture.importing(Array(documents[..<4])).status == 0)
    let second = try GooglePlayDocumentFile.whileLocked(log: fixture.log, wait: .standard, notice: nil) {
      try FileManager.default.moveItem(atPath: fixture.documentsPath, toPath: fixture.space.path("moved.jsonl"))
      return try fixture.importing(Array(documents[4...]), wait: "0")
    }
    #expect(second.status == 75, "\(second.stdout) \(second.stderr)")
  }

  @Test("a log that never had a Google Play import works with no kept documents and no record; the first import keeps both")
  func logWithoutGooglePlayImports() throws {
    let fixture = try KeptDocumentsFixture()
    let unrelated = EventLines.line(
      .purchase(id: "own-1", subject: "someone", at: ts("2026-01-01T00:00:00Z"), product: "pro:monthly", transaction: "own-1", expires: ts("2026-02-01T00:00:00Z")))
    try fixture.space.write("own.jsonl", unrelated + "\n")
    let append = runCLI(["append", fixture.log, fixture.space.path("own.jsonl"), "--catalog", KeptDocumentsFixture.catalogPath])
    #expect(append.status == 0, "\(append.stderr)")
    #expect(runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath]).status == 0)
    #expect(fixture.bytes(fixture.documentsPath) == nil && fixture.bytes(fixture.recordPath) == nil)
    let documents = KeptDocumentsFixture.documents
    #expect(try fixture.importing(Array(documents[..<10])).status == 0)
    #expect(fixture.bytes(fixture.documentsPath) != nil && fixture.bytes(fixture.recordPath) != nil)
    // An append between imports is the log growing, not another log.
    try fixture.space.write("own.jsonl", unrelated.replacingOccurrences(of: "own-1", with: "own-2") + "\n")
    #expect(runCLI(["append", fixture.log, fixture.space.path("own.jsonl"), "--catalog", KeptDocumentsFixture.catalogPath]).status == 0)
    let last = try fixture.importing(Array(documents[10...]))
    #expect(last.status == 0, "\(last.stderr)")
  }

  @Test("kept documents without a record (kept by an earlier version) are read, recorded by the next import, and named by check meanwhile")
  func documentsWithoutRecordAreAdopted() throws {
    let fixture = try KeptDocumentsFixture()
    let documents = KeptDocumentsFixture.documents
    #expect(try fixture.importing(Array(documents[..<10])).status == 0)
    try FileManager.default.removeItem(atPath: fixture.recordPath)
    let check = runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath])
    #expect(check.status == 0 && check.stderr.contains(fixture.documentsPath + ": warning: "), "\(check.stderr)")
    #expect(try fixture.importing(Array(documents[10...])).status == 0)
    #expect(fixture.bytes(fixture.recordPath) != nil)
    #expect(try fixture.differences(from: try KeptDocumentsFixture.reference()).isEmpty)
  }

  @Test("the rebuild the refusal describes (both files aside, every document imported again in one run) gives the answers of one import")
  func rebuildAsTheMessageSays() throws {
    let fixture = try KeptDocumentsFixture()
    let (rest, _) = try Self.damaged(fixture, .truncated)
    #expect(try fixture.importing(rest).status == 65)
    let manager = FileManager.default
    try manager.moveItem(atPath: fixture.documentsPath, toPath: fixture.space.path("damaged.jsonl"))
    try manager.moveItem(atPath: fixture.recordPath, toPath: fixture.space.path("damaged.record"))
    // With both files gone the log looks like one whose events came without --append: said, not refused.
    let rebuilt = try fixture.importing(KeptDocumentsFixture.documents)
    #expect(rebuilt.status == 0 && rebuilt.stderr.contains("but no documents are kept beside it"), "\(rebuilt.stderr)")
    #expect(try fixture.importing(rest).status == 0)
    #expect(try fixture.differences(from: try KeptDocumentsFixture.reference()).isEmpty)
    #expect(runCLI(["check", fixture.log, "--catalog", KeptDocumentsFixture.catalogPath]).status == 0)
  }

  @Test("imports through a symbolic link and through the log's own name keep one set of documents beside the log")
  func oneStoreForEveryName() throws {
    let fixture = try KeptDocumentsFixture()
    let link = fixture.space.path("link.jsonl")
    try fixture.space.write("log.jsonl", "")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.log)
    var random = SplitMix64(state: 5)
    let shuffled = KeptDocumentsFixture.documents.shuffled(using: &random)
    #expect(try fixture.importing(Array(shuffled[..<10]), into: link).status == 0)
    #expect(try fixture.importing(Array(shuffled[10...])).status == 0)
    #expect(fixture.bytes(KeptDocumentsFixture.documentsPath(link)) == nil)
    #expect(try fixture.differences(from: try KeptDocumentsFixture.reference()).isEmpty)
  }
}
