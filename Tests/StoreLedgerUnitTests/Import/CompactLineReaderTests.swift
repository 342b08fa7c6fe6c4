import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerImport

/// The fast path of the one reader of a typed event (`NewEvent(compactLine:)`) against the reader
/// itself (`NewEvent(json:)`): on every line the importers, the generator and the samples write,
/// and on those lines changed in every way a log may spell them, it is nil or the same event
/// (Docs/decisions.md, "The importers' knowledge is typed (issue 33)").
@Suite("Compact line reader: the fast path is nil or NewEvent(json:)'s event, and taken for the importers' lines")
struct CompactLineReaderTests: SharedStoreFixtures {
  /// What both readers make of `line`.
  static func readings(_ line: [UInt8]) -> (fast: NewEvent?, reference: NewEvent?) {
    let fast = line.withUnsafeBufferPointer { NewEvent(compactLine: $0) }
    let reference = (try? JSONValue.parse(bytes: line)).flatMap { try? NewEvent(json: $0) }
    return (fast, reference)
  }

  /// Whether the fast reading is absent or exactly the reference's: the same event, the same
  /// line written back, and each `meta` value of the same JSON kind (`==` equates 5 and 5.0).
  static func agrees(_ line: [UInt8]) -> Bool {
    let (fast, reference) = readings(line)
    guard let fast else { return true }
    guard let reference else { return false }
    let kinds = { (event: NewEvent) in event.metaValues.sorted { $0.key < $1.key }.map { "\($0.key)=\(String(reflecting: $0.value))" } }
    return fast == reference && fast.logLine == reference.logLine && kinds(fast) == kinds(reference)
  }

  /// The lines the importers write for their samples and the importer tests' stories.
  static let importerLines: [String] = TypedEventSeamTests.mapped.map(\.event.logLine)

  /// Every line of the event logs and samples under Events/ (goldens' inputs, query and answer
  /// files too: lines that are not events must be nil for both).
  static let sampleLines: [String] = {
    let root = repoPath("Events")
    let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jsonl") }
    return files.sorted().flatMap { name in
      ((try? String(contentsOfFile: root + "/" + name, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
  }()

  /// The lines the importers write for the documents of ../shared/fixtures, each file imported
  /// on its own by both importers with everything allowed and the fixtures' catalog (files an importer refuses give none).
  static let fixtureLines: [String] = {
    guard isPresent else { return [] }
    let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    let catalog = fixtureCatalog(catalogText)
    let apple = AppStoreImportOptions(allowsSandbox: true, allowsXcode: true, verification: .skip)
    let google = GooglePlayImportOptions(allowsTestPurchases: true)
    return files.flatMap { name -> [String] in
      guard let text = try? String(contentsOfFile: folder.path + "/" + name, encoding: .utf8) else { return [] }
      let fromApple = try? AppStoreImporter.importEvents(text, file: name, catalog: catalog, options: apple)
      let fromGoogle = try? GooglePlayImporter.importEvents(text, file: name, catalog: catalog, options: google)
      return (fromApple?.eventLines ?? []) + (fromGoogle?.eventLines ?? [])
    }
  }()

  /// Generator options of both contracts, with usage and transfers.
  static let generated: [GeneratorOptions] = [
    GeneratorOptions(subjects: 150, seed: 7),
    GeneratorOptions(subjects: 150, seed: 20_240_101, usage: .none, contract: .v1_3, transfers: true),
    GeneratorOptions(subjects: 150, seed: 3, contract: .v1_3),
  ]

  /// The generated logs' lines, as `generate` writes them (members unsorted, UTC offsets).
  static let generatedLines: [String] = generated.flatMap { options in
    generatedLog(options).bytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The same logs' typed events written by the one encoder: every kind and field of both
  /// contracts in the encoder's layout.
  static let encodedGeneratedLines: [String] = generated.flatMap { options in
    var lines: [String] = []
    LogGenerator(options: options).forEachEvent { lines.append($0.logLine) }
    return lines
  }

  /// Text changes of a line (the first occurrence of each left side, replaced): escapes, unicode,
  /// times, names, numbers and nulls in `meta`, keys out of order or repeated, unknown members.
  static let replacements: [(String, String)] = [
    ("\"id\":\"", "\"id\":\"\\u00e9"), ("\"subject\":\"", "\"subject\":\"\\\"q\\\\ \\n"),
    ("\"subject\":\"", "\"subject\":\"é☃😀"), ("\"subject\":\"", "\"subject\":\"\\ud83d\\ude00"),
    ("\"subject\":\"", "\"subject\":\"\\ud83d"), ("\"subject\":\"", "\"subject\":\"\u{01}"),
    ("\"at\":\"2", "\"at\":\"\\u0032"), ("Z\"", "+02:00\""), ("Z\"", ".5z\""), ("\"type\":\"", "\"type\":\"x"),
    ("\"meta\":{", "\"meta\":{\"a\":1.5,"), ("\"meta\":{", "\"meta\":{\"a\":1e3,"), ("\"meta\":{", "\"meta\":{\"a\":-0,"),
    ("\"meta\":{", "\"meta\":{\"a\":007,"), ("\"meta\":{", "\"meta\":{\"a\":123456789012345678,"),
    ("\"meta\":{", "\"meta\":{\"a\":1234567890123456789,"), ("\"meta\":{", "\"meta\":{\"a\":99999999999999999999,"),
    ("\"meta\":{", "\"meta\":{\"a\":-9223372036854775808,"), ("\"meta\":{", "\"meta\":{\"a\":true,\"b\":false,\"c\":null,"),
    ("\"meta\":{", "\"meta\":{\"a\":[1],\"b\":{},"), ("\"meta\":{", "\"meta\":{\"zz\":\"1\",\"a\":\"2\","),
    ("\"meta\":{", "\"meta\":{\"a\":\"1\",\"a\":\"2\","), ("\"meta\":{", "\"meta\":{\"\\u0061\":\"1\","),
    ("\"meta\":{", "\"meta\":{\"é\":\"1\","), ("\"meta\":{", "\"meta\":null,\"x\":{"), ("{\"at\":", "{\"aa\":1,\"at\":"),
    ("\"id\":", "\"ID\":"), ("\"subject\":\"", "\"subject\":null,\"x\":\""), ("\"price\":", "\"price\":1.0,\"p\":"),
    ("\"price\":", "\"price\":\"1\",\"p\":"), ("\"quantity\":", "\"quantity\":-"), ("\"auto_renew\":", "\"auto_renew\":tru,\"x\":"),
    (",", ", "), ("\":", "\" :"),
  ]

  /// Changes of one line in every way the log allows and the encoder never writes, and some it
  /// does not allow.
  static func mutations(of line: String) -> [String] {
    let body = String(line.dropFirst().dropLast())
    var changed: [String] = Self.replacements.map { old, new in
      guard let range = line.range(of: old) else { return line }
      return line.replacingCharacters(in: range, with: new)
    }
    let framed: [String] = ["{ \(body)}", "{\(body) }", "\(line) ", "\(line)\r", "{\"zzz\":1,\(body)}"]
    let extra: [String] = ["{\(body),\"id\":\"again\"}", "[\(line)]", line + line, String(line.dropLast()), "{}", ""]
    changed += framed + extra
    // Each member left out in turn, and the members in reverse order.
    let members = (try? JSONValue.parse(line))?.objectMembers ?? []
    for index in members.indices {
      var rest = members
      rest.remove(at: index)
      changed.append(JSONWriter.compact(.object(rest)))
    }
    let reversed = members.reversed().map { String(JSONWriter.compact(.object([$0])).dropFirst().dropLast()) }
    changed.append("{" + reversed.joined(separator: ",") + "}")
    return changed
  }

  @Test("the fast path's field names are NewEvent's, in byte order")
  func fieldOrder() {
    let sorted = NewEvent.fieldNames.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    #expect(CompactField.allCases.map(\.rawValue) == sorted)
  }

  @Test("every line the importers, the generator, the samples and ../shared/fixtures write: the fast path reads the reader's event")
  func writtenLines() {
    let groups = [
      ("importers", Self.importerLines), ("samples", Self.sampleLines), ("fixtures", Self.fixtureLines),
      ("generator", Self.generatedLines), ("encoded", Self.encodedGeneratedLines),
    ]
    var counts: [String] = []
    for (name, lines) in groups {
      let bytes = lines.map { Array($0.utf8) }
      let disagreeing = bytes.filter { !Self.agrees($0) }
      #expect(disagreeing.isEmpty, "\(name): \(disagreeing.prefix(3).map { String(decoding: $0, as: UTF8.self) })")
      let fast = bytes.filter { Self.readings($0).fast != nil }.count
      let events = bytes.filter { Self.readings($0).reference != nil }.count
      counts.append("\(name): \(fast) fast of \(events) events, \(lines.count) lines")
      // The importers' lines are all in the encoder's layout; the samples hold hand-written lines
      // too, and the generator writes members unsorted with UTC offsets, as production logs come.
      if ["importers", "fixtures", "encoded"].contains(name) { #expect(fast == events && events == lines.count, "\(counts.last!)") }
    }
    #expect(Self.importerLines.count > 50 && Self.generatedLines.count > 1_000, "\(counts)")
    // ../shared/fixtures is read at test time when it sits beside the repository (never copied in).
    #expect(!Self.isPresent || Self.fixtureLines.count > 0, "\(counts)")
    #expect(Self.sampleLines.contains { Self.readings(Array($0.utf8)).fast != nil }, "\(counts)")
  }

  @Test("lines changed in spacing, order, escapes, unicode, numbers, nulls and members: nil or the reader's event")
  func mutatedLines() {
    let bases = Self.importerLines + Self.generatedLines.prefix(100) + Self.encodedGeneratedLines.prefix(300) + Self.sampleLines.filter { $0.contains("\"meta\"") }.prefix(50)
    var tried = 0, taken = 0
    var disagreeing: [String] = []
    for line in bases {
      for changed in Self.mutations(of: line) {
        let bytes = Array(changed.utf8)
        tried += 1
        if Self.readings(bytes).fast != nil { taken += 1 }
        if !Self.agrees(bytes) { disagreeing.append(changed) }
      }
    }
    #expect(disagreeing.isEmpty, "\(disagreeing.count) of \(tried) disagree, first: \(disagreeing.prefix(3))")
    // Escapes, unicode and plain integers in meta stay on the fast path; the rest fall back.
    #expect(taken > tried / 10 && taken < tried, "\(taken) of \(tried) on the fast path")
  }

  @Test("the knowledge reads every line the importers write by the fast path, and counts it")
  func knowledgeTakesTheFastPath() {
    let knowledge = LedgerKnowledge.learning(lines: Self.importerLines.map { Array($0.utf8) })
    #expect(knowledge.linesRead == Self.importerLines.count)
    #expect(knowledge.compactLinesRead == knowledge.linesRead)
    // A line in another spelling is read by NewEvent(json:) and not counted as fast.
    let spaced = Self.importerLines.prefix(5).map { Array(("{ " + $0.dropFirst()).utf8) }
    let other = LedgerKnowledge.learning(lines: spaced)
    #expect(other.linesRead == 5 && other.compactLinesRead == 0 && other.events.count > 0)
  }
}
