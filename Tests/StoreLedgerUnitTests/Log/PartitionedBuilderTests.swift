import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

// The partitioned load (issue 25) against its slow twin, the single path (`partitionCount = 1`):
// for every log, every partition count and block size must end with the same ledger (events,
// string tables in order, counts, warnings) or the same diagnostics in the same order.
// Randomized parts print their seed; `STORELEDGER_SEED=N swift test --filter PartitionedBuilder`
// replays one.

/// Everything a load of `path` ends with, as text: the extent and counts, then the ledger or the diagnostics.
func partitionedLoadText(path: String, catalog: Catalog, partitions: Int, blockBytes: Int? = nil) -> String {
  var builder = LedgerBuilder(catalog: catalog, file: path)
  builder.partitionCount = partitions
  var text = ""
  do {
    let extent =
      try blockBytes.map { try PipelinedLogReader.feed(&builder, path: path, catalog: catalog, blockBytes: $0) }
      ?? LedgerLoader.feed(&builder, path: path)
    text += "extent \(extent)\n"
  } catch {
    return "thrown \(error)"
  }
  text += "errors \(builder.errorCount), duplicates \(builder.duplicatesSkipped), lines \(builder.linesRead)\n"
  switch builder.finish() {
  case .failure(let list):
    text += list.diagnostics.map { "\($0) [\($0.severity) \($0.code)]" }.joined(separator: "\n")
  case .success(let ledger):
    text += ledgerText(ledger)
  }
  return text
}

/// Writes `lines` (each followed by a newline unless `tornLast`) to a new file; returns its path.
func writeLog(_ lines: [String], name: String, tornLast: Bool = false) throws -> String {
  let directory = try temporaryDirectory()
  var text = lines.joined(separator: "\n")
  if !tornLast { text += "\n" }
  let url = directory.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url.path
}

/// Seeded damage to a generated log: ids reused across subjects, transactions charged twice,
/// redeliveries (some learned later), conflicts, broken and empty lines.
struct LogDamage {
  var random: SeededGenerator
  /// The kinds of damage `damaged` does (all by default).
  var kinds = Array(0..<9)
  /// Redeliveries only: the log stays valid.
  static let redeliveries = [0, 1]
  /// Damage within one subject: the log stays in its partitions and has errors.
  static let withinSubjects = [0, 1, 4, 5, 6, 7, 8]

  mutating func apply(_ lines: [String], count: Int) -> [String] {
    var out = lines
    for n in 0..<count {
      let i = Int.random(in: 0..<out.count, using: &random)
      guard let object = Self.object(out[i]) else { continue }
      let other = Self.object(out[Int.random(in: 0..<out.count, using: &random)]) ?? object
      let kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
      let line = Self.damaged(object, other: other, kind: kind, n: n)
      out.insert(line, at: Int.random(in: 0...out.count, using: &random))
    }
    return out
  }

  static func object(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
  }

  static func damaged(_ object: [String: Any], other: [String: Any], kind: Int, n: Int) -> String {
    var object = object
    switch kind {
    case 0: break  // a redelivery
    case 1: object["recorded"] = other["recorded"] ?? other["at"]  // a redelivery learned at another time
    case 2: object["subject"] = other["subject"]  // the id reused by another subject
    case 3:  // the transaction charged again under a new id, by another subject
      object["id"] = "again-\(n)"
      object["subject"] = other["subject"]
    case 8: object["id"] = "again-\(n)"  // the transaction charged again by this subject
    case 4: object["at"] = other["at"]  // a conflict
    case 5: object["quantity"] = 5  // a conflict or a field not allowed
    case 6: return "{\"id\":\"broken-\(n)\", not json"
    case 7: return n % 3 == 0 ? "" : "   "
    default: preconditionFailure("no damage of kind \(kind)")
    }
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}

@Suite("PartitionedBuilder")
struct PartitionedBuilderTests {
  static let partitionCounts = [2, 3, 4, 7]

  static func generatedLines(subjects: Int, seed: UInt64) -> [String] {
    var bytes: [UInt8] = []
    LogGenerator(options: GeneratorOptions(subjects: subjects, seed: seed, usage: .none)).generate { bytes += $0 }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Checks that every partition count (and small blocks) gives the single path's text; returns it.
  @discardableResult
  static func expectSameAsSinglePath(_ path: String, catalog: Catalog, label: String) -> String {
    let reference = partitionedLoadText(path: path, catalog: catalog, partitions: 1)
    for count in partitionCounts {
      let text = partitionedLoadText(path: path, catalog: catalog, partitions: count)
      #expect(text == reference, "\(label): \(count) partitions differ from the single path")
      let blocks = partitionedLoadText(path: path, catalog: catalog, partitions: count, blockBytes: 4096)
      let referenceBlocks = partitionedLoadText(path: path, catalog: catalog, partitions: 1, blockBytes: 4096)
      #expect(blocks == referenceBlocks, "\(label): \(count) partitions with 4 KiB blocks differ")
    }
    return reference
  }

  @Test("every scenario log in Events/ loads to the same ledger or the same diagnostics on every partition count")
  func scenarios() throws {
    let root = repoPath("Events")
    var directories = [root]
    directories += try FileManager.default.contentsOfDirectory(atPath: root).map { root + "/" + $0 }
      .filter { FileManager.default.fileExists(atPath: $0 + "/catalog.json") && $0 != root }
    var logs = 0
    for directory in directories {
      let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
      let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted().filter {
        $0.hasSuffix(".jsonl") && !$0.hasSuffix(".answers.jsonl") && !$0.hasSuffix(".queries.jsonl")
      }
      for name in names {
        Self.expectSameAsSinglePath(directory + "/" + name, catalog: catalog, label: name)
        logs += 1
      }
    }
    #expect(logs >= 15)
  }

  @Test("generated logs, clean, with redeliveries, and with every kind of damage, load alike on every partition count")
  func generatedLogs() throws {
    for seed in testSeeds([3, 20_261_124]) {
      testLog("partitioned builder seed: \(seed) (replay: STORELEDGER_SEED=\(seed))")
      let clean = Self.generatedLines(subjects: 120, seed: seed)
      var redelivered = LogDamage(random: SeededGenerator(seed: seed), kinds: LogDamage.redeliveries)
      var withinSubjects = LogDamage(random: SeededGenerator(seed: seed ^ 0x5), kinds: LogDamage.withinSubjects)
      var damaged = LogDamage(random: SeededGenerator(seed: seed ^ 0xD))
      // (name, lines, whether the partitions' answers stand: no id or charge across subjects)
      let cases = [
        ("clean", clean, true), ("redeliveries", redelivered.apply(clean, count: 200), true),
        ("damaged within subjects", withinSubjects.apply(clean, count: 80), true),
        ("damaged", damaged.apply(clean, count: 80), false),
      ]
      for (name, lines, staysPartitioned) in cases {
        let path = try writeLog(lines, name: "\(name)-\(seed).jsonl".replacingOccurrences(of: " ", with: "-"))
        let text = Self.expectSameAsSinglePath(path, catalog: LogGenerator.catalog, label: "\(name), seed \(seed)")
        #expect(try Self.loadOnTwo(path).partitioned == staysPartitioned, "\(name)")
        // Some redeliveries were recorded earlier than their event (its knowledge time moves back).
        if name == "redeliveries" { #expect(text.contains("learned earlier: ")) }
        // The clean and redelivered logs load; the damaged ones fail with errors of every kind.
        #expect(text.contains("\nstarts ") == !name.hasPrefix("damaged"), "\(name): \(text.prefix(300))")
        if name.hasPrefix("damaged") {
          for code in [DiagnosticCode.idConflict, .transactionReused, .invalidJSON] {
            #expect(text.contains(" \(code)]"), "\(code) missing")
          }
        }
      }
    }
  }

  @Test("hostile logs (random bytes, a long line, a torn last line, no events) give the same diagnostics")
  func hostileLogs() throws {
    var random = SeededGenerator(seed: 99)
    let base = Self.generatedLines(subjects: 20, seed: 5)
    var noise: [String] = []
    for _ in 0..<40 {
      let bytes = (0..<Int.random(in: 0..<80, using: &random)).map { _ in UInt8.random(in: 32...126, using: &random) }
      noise.append(String(decoding: bytes, as: UTF8.self))
    }
    let long = "{\"id\":\"" + String(repeating: "x", count: Limits.lineBytesMax + 10) + "\"}"
    let logs: [(String, [String], Bool)] = [
      ("noise", noise + base.prefix(50), false),
      ("long line", Array(base.prefix(30)) + [long] + base.dropFirst(30).prefix(30), false),
      ("torn", Array(base.prefix(40)) + [String(base[40].prefix(25))], true),
      ("empty", ["", "  ", ""], false),
      ("one line", [base[0]], false),
    ]
    for (name, lines, torn) in logs {
      let path = try writeLog(lines, name: name.replacingOccurrences(of: " ", with: "-") + ".jsonl", tornLast: torn)
      Self.expectSameAsSinglePath(path, catalog: LogGenerator.catalog, label: name)
    }
  }

  @Test("the partitioned load repeated, on 2, 3 and 5 partitions, is byte-identical every time", arguments: [2, 3, 5])
  func determinism(partitions: Int) throws {
    var damage = LogDamage(random: SeededGenerator(seed: 11), kinds: LogDamage.redeliveries)
    let path = try writeLog(damage.apply(Self.generatedLines(subjects: 80, seed: 8), count: 100), name: "repeat.jsonl")
    let first = partitionedLoadText(path: path, catalog: LogGenerator.catalog, partitions: partitions, blockBytes: 8192)
    #expect(first.contains("\nstarts "))
    for _ in 0..<6 {
      #expect(partitionedLoadText(path: path, catalog: LogGenerator.catalog, partitions: partitions, blockBytes: 8192) == first)
    }
  }

  /// The partition (of `count`) a subject's lines go to.
  static func partition(of subject: String, count: Int) -> Int {
    var subject = subject
    return subject.withUTF8 { LedgerBuilder.partition(ofSubjectHash: SymbolTable.hash($0), count: count) }
  }

  /// The clean generated log, plus copies of `matching` lines under new ids (when `newIDs`) for a
  /// subject of the other partition (of 2).
  static func crossPartitionLog(_ matching: (String) -> Bool, newIDs: Bool, seed: UInt64) -> [String] {
    var lines = generatedLines(subjects: 60, seed: seed)
    let subjects = Set(lines.compactMap { LogDamage.object($0)?["subject"] as? String }).sorted()
    var copies = 0
    for line in lines where matching(line) && copies < 5 {
      guard var object = LogDamage.object(line), let subject = object["subject"] as? String,
        let other = subjects.first(where: { partition(of: $0, count: 2) != partition(of: subject, count: 2) })
      else { continue }
      object["subject"] = other
      if newIDs { object["id"] = "copy-\(copies)" }
      let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      lines.append(String(decoding: data, as: UTF8.self))
      copies += 1
    }
    #expect(copies == 5)
    return lines
  }

  /// Feeds `path` on 2 partitions; returns whether the partitions' answers stood (no single-path reload) and the text.
  static func loadOnTwo(_ path: String) throws -> (partitioned: Bool, text: String) {
    var builder = LedgerBuilder(catalog: LogGenerator.catalog, file: path)
    builder.partitionCount = 2
    _ = try LedgerLoader.feed(&builder, path: path)
    return (builder.isPartitioned, partitionedLoadText(path: path, catalog: LogGenerator.catalog, partitions: 2))
  }

  @Test("an id reused by a subject of another partition sends the log to the single path, with its diagnostics")
  func idAcrossPartitions() throws {
    let lines = Self.crossPartitionLog({ $0.contains("\"type\":\"expiration\"") }, newIDs: false, seed: 4)
    let path = try writeLog(lines, name: "id-across.jsonl")
    let (partitioned, text) = try Self.loadOnTwo(path)
    #expect(!partitioned)
    #expect(text == partitionedLoadText(path: path, catalog: LogGenerator.catalog, partitions: 1))
    #expect(text.contains(" \(DiagnosticCode.idConflict)]"), "\(text.suffix(400))")
  }

  @Test("a transaction charged by subjects of two partitions sends the log to the single path")
  func chargeAcrossPartitions() throws {
    let lines = Self.crossPartitionLog({ $0.contains("\"type\":\"purchase\"") }, newIDs: true, seed: 4)
    let path = try writeLog(lines, name: "charge-across.jsonl")
    let (partitioned, text) = try Self.loadOnTwo(path)
    #expect(!partitioned)
    #expect(text == partitionedLoadText(path: path, catalog: LogGenerator.catalog, partitions: 1))
  }

  @Test("a transaction only referenced by subjects of two partitions stays partitioned and is stored once")
  func referenceAcrossPartitions() throws {
    let lines = Self.crossPartitionLog({ $0.contains("\"type\":\"expiration\"") }, newIDs: true, seed: 4)
    let path = try writeLog(lines, name: "reference-across.jsonl")
    let (partitioned, text) = try Self.loadOnTwo(path)
    #expect(partitioned)
    #expect(text == partitionedLoadText(path: path, catalog: LogGenerator.catalog, partitions: 1))
    let table = try #require(text.split(separator: "\n").first { $0.hasPrefix("transactions: ") })
    let names = table.dropFirst("transactions: ".count).split(separator: " ")
    #expect(Set(names).count == names.count)
    #expect(text.contains("[warning"), "\(text.suffix(300))")
  }

  /// The head of a generated log loaded on `partitions`, then `tail` added line by line (an append).
  static func extended(head path: String, tail: [String], partitions: Int) throws -> String {
    var builder = LedgerBuilder(catalog: LogGenerator.catalog, file: path)
    builder.partitionCount = partitions
    let extent = try LedgerLoader.feed(&builder, path: path)
    #expect(builder.isPartitioned == (partitions > 1))
    for (offset, line) in tail.enumerated() {
      Array(line.utf8).withUnsafeBufferPointer { _ = builder.add(line: $0, lineNumber: extent.lineCount + 1 + offset) }
    }
    switch builder.finish() {
    case .success(let ledger): return ledgerText(ledger)
    case .failure(let list): return list.diagnostics.map { "\($0) [\($0.code)]" }.joined(separator: "\n")
    }
  }

  @Test("lines added after a partitioned load (an append) are admitted as after the single path's, redeliveries and reused charges included")
  func linesAfterPartitionedLoad() throws {
    let lines = Self.generatedLines(subjects: 60, seed: 6)
    let head = Array(lines.dropLast(40))
    let path = try writeLog(head, name: "head.jsonl")
    let purchase = try #require(head.first { $0.contains("\"type\":\"purchase\"") && $0.contains("\"transaction\"") })
    var recharged = try #require(LogDamage.object(purchase))
    recharged["id"] = "recharged"
    let data = try JSONSerialization.data(withJSONObject: recharged, options: [.sortedKeys])
    let tails = [Array(lines.suffix(40)) + [head[5]], Array(lines.suffix(40)) + [String(decoding: data, as: UTF8.self)]]
    for tail in tails {
      let reference = try Self.extended(head: path, tail: tail, partitions: 1)
      for count in [2, 3] { #expect(try Self.extended(head: path, tail: tail, partitions: count) == reference) }
    }
    #expect(try Self.extended(head: path, tail: tails[1], partitions: 2).contains("[\(DiagnosticCode.transactionReused)]"))
  }
}
