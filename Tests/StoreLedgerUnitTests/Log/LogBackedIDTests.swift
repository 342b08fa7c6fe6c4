import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

// Event ids held as spans of the loaded log (`LogSource`, `SymbolTable.attach`) against their
// slow twin, ids held as text: the same log read as a stream (no file to read back) interns
// every id as text. Both must give the same ledger, diagnostics, answers with explanations,
// customer timelines and snapshot bytes, on the single and the partitioned path.

/// How a log is loaded for a comparison.
enum IDLoad: CustomStringConvertible, CaseIterable {
  /// From the file: ids are spans of it.
  case file
  /// From the file on two partitions: ids are spans, merged as spans.
  case partitioned
  /// From the file's bytes as a stream: ids are text.
  case stream

  var description: String {
    switch self {
    case .file: "file"
    case .partitioned: "2 partitions"
    case .stream: "stream"
    }
  }

  /// Loads `path` this way; the builder after feeding and the extent, or what was thrown.
  func feed(path: String, catalog: Catalog) -> (builder: LedgerBuilder, extent: LogExtent?, thrown: String?) {
    var builder = LedgerBuilder(catalog: catalog, file: path)
    builder.partitionCount = self == .partitioned ? 2 : 1
    do {
      switch self {
      case .file, .partitioned:
        let extent = try LedgerLoader.feed(&builder, path: path)
        return (builder, extent, nil)
      case .stream:
        let bytes = try LedgerLoader.readFile(path)
        var at = 0
        let extent = try LedgerLoader.feed(&builder, streamNamed: path) { buffer in
          let n = min(buffer.count, bytes.count - at)
          bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[at..<(at + n)])) }
          at += n
          return n
        }
        return (builder, extent, nil)
      }
    } catch {
      return (builder, nil, "thrown \(error)")
    }
  }
}

/// Everything a load of `path` prints: the ledger or its diagnostics, then for a loaded ledger
/// every subject's answers (with explanations) and timeline at `instants`, and its snapshot bytes.
func idLoadOutput(
  path: String, catalogPath: String, catalog: Catalog, load: IDLoad, instants: (Ledger) -> [Timestamp]
) throws -> (text: String, snapshot: [UInt8], ledger: Ledger?) {
  var (builder, extent, thrown) = load.feed(path: path, catalog: catalog)
  if let thrown { return (thrown, [], nil) }
  switch builder.finish() {
  case .failure(let list):
    return (list.diagnostics.map { "\($0) [\($0.severity) \($0.code)]" }.joined(separator: "\n"), [], nil)
  case .success(let ledger):
    var lines = [ledgerText(ledger)]
    for s in 0..<ledger.subjectCount {
      let subject = ledger.symbols.subjects.string(Symbol(rawValue: UInt32(s)))
      for at in instants(ledger) { lines += answers(ledger, subject: subject, at: at, asOf: nil) }
    }
    let header = try SnapshotFiles.header(for: ledger, extent: extent!, logPath: path, catalogPath: catalogPath)
    return (lines.joined(separator: "\n"), SnapshotWriter.write(ledger, header: header), ledger)
  }
}

@Suite("Event ids as spans of the log")
struct LogBackedIDTests {
  /// Loads `path` every way and expects the text-id output from each; returns the file load's ledger.
  @discardableResult
  static func expectSameOutput(
    _ path: String, catalogPath: String, label: String, instants: @escaping (Ledger) -> [Timestamp] = { [$0.latestEffective] }
  ) throws -> Ledger? {
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let reference = try idLoadOutput(path: path, catalogPath: catalogPath, catalog: catalog, load: .stream, instants: instants)
    var fileLedger: Ledger? = nil
    for load in [IDLoad.file, .partitioned] {
      let output = try idLoadOutput(path: path, catalogPath: catalogPath, catalog: catalog, load: load, instants: instants)
      #expect(output.text == reference.text, "\(label): \(load) differs from text ids")
      let sameSnapshot = output.snapshot == reference.snapshot
      #expect(sameSnapshot, "\(label): \(load) snapshot bytes differ from text ids")
      if let ledger = output.ledger {
        // Ids are the log's bytes: none is copied unless it was escaped in the log.
        #expect(ledger.symbols.ids.stringBytes == reference.ledger?.symbols.ids.stringBytes)
        #expect(ledger.symbols.ids.logSource != nil && reference.ledger?.symbols.ids.logSource == nil)
        if load == .file { fileLedger = ledger }
      }
    }
    return fileLedger
  }

  /// Every instant an event of the ledger happens at, and the latest plus one millisecond.
  static func everyInstant(_ ledger: Ledger) -> [Timestamp] {
    Set(ledger.events.map(\.at) + [ledger.latestEffective.adding(milliseconds: 1)]).sorted()
  }

  @Test("every scenario log answers, explains and snapshots alike with ids in the log and ids as text")
  func scenarioLogs() throws {
    var loaded = 0
    for scenario in scenarios {
      let ledger = try Self.expectSameOutput(
        repoPath("\(scenario.folder)/\(scenario.name).jsonl"), catalogPath: repoPath("\(scenario.folder)/catalog.json"),
        label: scenario.testDescription, instants: Self.everyInstant)
      if let ledger {
        loaded += 1
        // The scenario logs write ids without escapes: the arena holds no id text.
        #expect(ledger.symbols.ids.arenaBytes == 0, "\(scenario.testDescription)")
        #expect(ledger.symbols.ids.stringBytes > 0)
      }
    }
    #expect(loaded >= 15)
  }

  /// Lines of a generated log with their ids rewritten by `rewrite` (applied to the id's text as written).
  static func rewritingIDs(_ lines: [String], _ rewrite: (Int, String) -> String) -> [String] {
    lines.enumerated().map { n, line in
      guard let range = line.range(of: #""id":"[^"\\]*""#, options: .regularExpression) else { return line }
      let id = String(line[range].dropFirst(6).dropLast())
      return line.replacingCharacters(in: range, with: "\"id\":\"" + rewrite(n, id) + "\"")
    }
  }

  /// `id` with its first character written as a `\u` escape.
  static func escapedFirst(_ id: String) -> String {
    guard let first = id.unicodeScalars.first else { return id }
    return String(format: "\\u%04x", first.value) + String(id.unicodeScalars.dropFirst())
  }

  @Test("generated logs (redeliveries, escaped ids, ids at the length limit, damage) load alike with ids in the log and as text")
  func generatedLogs() throws {
    for seed in testSeeds([11, 20_261_124]) {
      testLog("log-backed ids seed: \(seed) (replay: STORELEDGER_SEED=\(seed))")
      let clean = PartitionedBuilderTests.generatedLines(subjects: 60, seed: seed)
      var redelivered = LogDamage(random: SeededGenerator(seed: seed), kinds: LogDamage.redeliveries)
      var damaged = LogDamage(random: SeededGenerator(seed: seed ^ 0xD))
      let withRedeliveries = redelivered.apply(clean, count: 150)
      let cases: [(String, [String])] = [
        ("clean", clean),
        ("redeliveries", withRedeliveries),
        // Every third id escaped: its redeliveries (written plainly) must still be the same id.
        ("escaped ids", Self.rewritingIDs(withRedeliveries) { n, id in n % 3 == 0 ? Self.escapedFirst(id) : id }),
        ("ids at the length limit", Self.rewritingIDs(withRedeliveries) { _, id in
          id + "-" + String(repeating: "x", count: Limits.idLengthMax - id.count - 1)
        }),
        ("damaged", damaged.apply(clean, count: 60)),
      ]
      for (name, lines) in cases {
        let path = try writeLog(lines, name: "ids-\(seed)-\(name.replacingOccurrences(of: " ", with: "-")).jsonl")
        let catalogPath = (path as NSString).deletingLastPathComponent + "/catalog.json"
        try Data(LogGenerator.catalogJSON.utf8).write(to: URL(fileURLWithPath: catalogPath))
        let ledger = try Self.expectSameOutput(path, catalogPath: catalogPath, label: "\(name), seed \(seed)")
        #expect((ledger == nil) == (name == "damaged"), "\(name)")
        if name == "escaped ids", let ledger {
          // Only ids whose first line wrote them escaped are text.
          #expect(ledger.symbols.ids.arenaBytes > 0 && ledger.symbols.ids.arenaBytes < ledger.symbols.ids.stringBytes)
        }
      }
    }
  }

  @Test("an id written escaped equals its plain spelling, and a conflict names it unescaped", arguments: [IDLoad.file, .partitioned, .stream])
  func escapedRedelivery(load: IDLoad) throws {
    let purchase = #"{"id":"ID","type":"purchase","subject":"SUBJECT","at":"2026-01-01T00:00:00Z","product":"coins.100","transaction":"T1","price":990,"currency":"USD"}"#
    let lines = [
      purchase.replacingOccurrences(of: "ID", with: "abc").replacingOccurrences(of: "SUBJECT", with: "u1"),
      purchase.replacingOccurrences(of: "ID", with: #"a\u0062c"#).replacingOccurrences(of: "SUBJECT", with: "u1"),
      purchase.replacingOccurrences(of: "ID", with: #"a\u0062c"#).replacingOccurrences(of: "SUBJECT", with: "u2")
        .replacingOccurrences(of: "T1", with: "T2"),
    ]
    let path = try writeLog(lines, name: "escaped.jsonl")
    let catalog = try LedgerLoader.loadCatalog(path: repoPath("Events/catalog.json"))
    var (builder, _, thrown) = load.feed(path: path, catalog: catalog)
    #expect(thrown == nil)
    #expect(builder.duplicatesSkipped == 1)
    guard case .failure(let list) = builder.finish() else {
      Issue.record("the id reused by another subject is a conflict")
      return
    }
    #expect(list.diagnostics.count == 1)
    #expect(list.diagnostics.first?.line == 3)
    #expect("\(list.diagnostics.first!)".contains("'abc'"), "\(list.diagnostics.first!)")
  }

  /// The `"subject":"…"` member of a generated line, as it is written.
  static func subject(of line: String) -> String {
    let start = line.range(of: #""subject":""#)!.upperBound
    return #""subject":""# + line[start...].prefix { $0 != "\"" } + "\""
  }

  /// A clean generated log on disk with its catalog; the path.
  static func generatedLog(name: String, subjects: Int = 30) throws -> String {
    let path = try writeLog(PartitionedBuilderTests.generatedLines(subjects: subjects, seed: 7), name: name)
    let catalogPath = (path as NSString).deletingLastPathComponent + "/catalog.json"
    try Data(LogGenerator.catalogJSON.utf8).write(to: URL(fileURLWithPath: catalogPath))
    return path
  }

  @Test("a log cut or rewritten under a loaded ledger prints a placeholder and refuses a snapshot, never crashes", arguments: ["truncated", "shifted"])
  func changedLog(change: String) throws {
    let path = try Self.generatedLog(name: "changed-\(change).jsonl")
    let catalogPath = (path as NSString).deletingLastPathComponent + "/catalog.json"
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let (ledger, extent) = try LedgerLoader.load(logPath: path, catalog: catalog)
    let header = try SnapshotFiles.header(for: ledger, extent: extent, logPath: path, catalogPath: catalogPath)
    let last = Symbol(rawValue: UInt32(ledger.symbols.ids.count - 1))
    let lastID = ledger.symbols.ids.string(last)
    #expect(ledger.symbols.readFailure == nil)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    if change == "truncated" {
      try handle.truncate(atOffset: 100)
    } else {
      // One byte more at the start: every id moves off its quotes.
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      try handle.seek(toOffset: 0)
      try handle.write(contentsOf: Data(" ".utf8) + bytes)
    }
    try handle.close()
    #expect(ledger.symbols.ids.string(last) == unreadableSpanPlaceholder, "was \(lastID)")
    #expect(ledger.symbols.readFailure?.code == .cannotRead)
    #expect("\(ledger.symbols.readFailure!)".contains("the log changed after it was loaded"))
    let snapshotPath = path + ".snapshot"
    #expect(throws: Diagnostic.self) { try SnapshotFiles.write(ledger, header: header, to: snapshotPath) }
    #expect(!FileManager.default.fileExists(atPath: snapshotPath))
  }

  @Test("a restored snapshot's text ids and its tail's log spans make one table that answers like a full load")
  func mixedTable() throws {
    let path = try Self.generatedLog(name: "mixed.jsonl", subjects: 40)
    let catalogPath = (path as NSString).deletingLastPathComponent + "/catalog.json"
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    let bytes = try LedgerLoader.readFile(path)
    // The prefix: the first half of the lines, as its own log.
    let cut = bytes[..<(bytes.count / 2)].lastIndex(of: 10)! + 1
    let prefixPath = path + ".prefix.jsonl"
    try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: prefixPath))
    let (prefix, prefixExtent) = try LedgerLoader.load(logPath: prefixPath, catalog: catalog)
    let snapshotPath = path + ".snapshot"
    let header = try SnapshotFiles.header(for: prefix, extent: prefixExtent, logPath: prefixPath, catalogPath: catalogPath)
    _ = try SnapshotFiles.write(prefix, header: header, to: snapshotPath)
    let restored = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: path, catalogPath: catalogPath, catalog: catalog)
    let full = try LedgerLoader.load(logPath: path, catalog: catalog).ledger
    let ids = restored.ledger.symbols.ids
    #expect(ids.arenaBytes > 0 && ids.arenaBytes < ids.stringBytes, "restored ids are text, the tail's are spans")
    // With nothing after the prefix, the restored table stays text, without the log held open.
    let whole = try SnapshotFiles.restore(
      snapshotPath: snapshotPath, logPath: prefixPath, catalogPath: catalogPath, catalog: catalog)
    #expect(whole.ledger.symbols.ids.logSource == nil && whole.ledger.symbols.ids.arenaBytes == whole.ledger.symbols.ids.stringBytes)
    // A restore numbers subjects in name order: the same strings, not the same symbols.
    func idStrings(_ ledger: Ledger) -> [String] {
      (0..<ledger.symbols.ids.count).map { ledger.symbols.ids.string(Symbol(rawValue: UInt32($0))) }.sorted()
    }
    #expect(idStrings(restored.ledger) == idStrings(full))
    #expect(restored.ledger.events.count == full.events.count)
    for s in 0..<full.subjectCount {
      let subject = full.symbols.subjects.string(Symbol(rawValue: UInt32(s)))
      #expect(
        answers(restored.ledger, subject: subject, at: full.latestEffective, asOf: nil)
          == answers(full, subject: subject, at: full.latestEffective, asOf: nil))
    }
  }
}

@Suite("Symbol tables of log spans")
struct LogSpanTableTests {
  @Test("reading spans in order through a small window gives every string, whatever the window's size", arguments: [64, 300, 4096, 1 << 20])
  func window(bytes: Int) throws {
    let path = try LogBackedIDTests.generatedLog(name: "window-\(bytes).jsonl", subjects: 20)
    let catalog = try LedgerLoader.loadCatalog(path: (path as NSString).deletingLastPathComponent + "/catalog.json")
    let ids = try LedgerLoader.load(logPath: path, catalog: catalog).ledger.symbols.ids
    #expect(ids.count > 100 && ids.arenaBytes == 0)
    var walked: [String] = []
    let failure = ids.forEachString(windowBytes: bytes) { index, text in
      #expect(index == walked.count)
      walked.append(String(decoding: text, as: UTF8.self))
    }
    #expect(failure == nil)
    #expect(walked == (0..<ids.count).map { ids.string(Symbol(rawValue: UInt32($0))) })
  }

  @Test("a text table attached to a log keeps its strings, takes spans and text after them, and finds all of them")
  func mixed() throws {
    let path = try writeLog([#"{"id":"log-one"}"#, #"{"id":"log-two"}"#], name: "mixed-spans.jsonl")
    let source = try LogSource(path: path)
    var table = SymbolTable()
    let restored = table.intern("restored")
    table.attach(source)
    func intern(_ text: String, at offset: Int64) -> Symbol {
      var text = text
      return text.withUTF8 { table.intern($0, hash: SymbolTable.hash($0), logOffset: offset) }
    }
    let one = intern("log-one", at: 7)
    let two = intern("log-two", at: 24)
    let escaped = intern("esc", at: -1)
    #expect(table.arenaBytes == "restored".utf8.count + "esc".utf8.count)
    #expect(table.stringBytes == table.arenaBytes + 14)
    #expect(intern("log-two", at: 24) == two && table.intern("restored") == restored && table.intern("esc") == escaped)
    #expect(table.string(one) == "log-one" && table.string(two) == "log-two" && table.string(restored) == "restored")
    table.dropIndex()
    table.rebuildIndex()
    #expect(table.lookup("log-one") == one && table.lookup("log-two") == two && table.lookup("log-thr") == nil)
    #expect(source.failure == nil)
  }
}

@Suite("An open store over log-backed ids")
struct LogBackedStoreTests {
  @Test("an open store keeps the loaded ids as spans, appends new ids as text, and finds redeliveries of both")
  func appendsOverSpans() throws {
    let path = try LogBackedIDTests.generatedLog(name: "store.jsonl", subjects: 12)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    let store = try LedgerStore(logPath: path)
    #expect(store.state.ledger.symbols.ids.logSource != nil && store.state.ledger.symbols.ids.arenaBytes == 0)
    // A redelivery of a loaded line (its id is only in the log), then a new event, then its redelivery.
    let redelivery = lines[lines.count / 2]
    let purchase = try #require(lines.first { $0.contains("\"type\":\"purchase\"") })
    var fresh = try #require(LogDamage.object(purchase))
    #expect(try store.append(lines: Array((redelivery + "\n").utf8), named: "again", now: nil).duplicates == 1)
    fresh["id"] = "appended-after-loading"
    fresh["subject"] = "new-subject"
    fresh["transaction"] = "new-transaction"
    let newLine = String(decoding: try JSONSerialization.data(withJSONObject: fresh, options: [.sortedKeys]), as: UTF8.self)
    let added = try store.append(lines: Array((newLine + "\n").utf8), named: "new", now: nil)
    #expect(added.appended == 1, "\(added)")
    #expect(try store.append(lines: Array((newLine + "\n").utf8), named: "new again", now: nil).appended == 0)
    let ids = store.state.ledger.symbols.ids
    let loaded = try LedgerLoader.load(logPath: path, catalog: store.catalog).ledger.symbols.ids
    func strings(_ table: SymbolTable) -> Set<String> {
      Set((0..<table.count).map { table.string(Symbol(rawValue: UInt32($0))) })
    }
    #expect(strings(ids).isSuperset(of: strings(loaded)))
    #expect(ids.arenaBytes == "appended-after-loading".utf8.count, "only the appended id is text")
    #expect(strings(ids) == strings(loaded))
    #expect(ids.logSource?.failure == nil)
  }

  @Test("an open store whose log was edited under it refuses the append that reads the edit, and every one after, leaving the log as it was")
  func editedUnderTheStore() throws {
    let path = try LogBackedIDTests.generatedLog(name: "store-edited.jsonl", subjects: 12)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    let store = try LedgerStore(logPath: path)
    // The id of a loaded line loses its opening quote in place: the file keeps its size.
    let victim = lines.count / 2
    var bytes = try LedgerLoader.readFile(path)
    let lineStart = lines[..<victim].reduce(0) { $0 + $1.utf8.count + 1 }
    let quote = lineStart + Array(lines[victim].utf8).firstRange(of: Array(#""id":""#.utf8))!.upperBound - 1
    #expect(bytes[quote] == UInt8(ascii: "\""))
    bytes[quote] = UInt8(ascii: "x")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let unrelated = lines.first { !$0.contains(LogBackedIDTests.subject(of: lines[victim])) }!
    for (name, line) in [("the edited line's redelivery", lines[victim]), ("an unrelated redelivery", unrelated)] {
      do {
        _ = try store.append(lines: Array((line + "\n").utf8), named: name, now: nil)
        Issue.record("\(name) was appended over a changed log")
      } catch {
        #expect(error.code == .cannotRead, "\(name): \(error.diagnostics)")
        #expect("\(error.diagnostics[0])".contains("the log changed after it was loaded"))
      }
      #expect(try LedgerLoader.readFile(path) == bytes, "\(name) left the log as it was")
    }
  }
}
