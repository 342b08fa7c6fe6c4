import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// Rewrites a whole log in memory with `ProductionShape`.
func reshaped(_ log: [UInt8], seed: UInt64) throws -> (bytes: [UInt8], stats: ProductionShape.Stats) {
  var shape = ProductionShape(seed: seed)
  var out: [UInt8] = []
  try log.withUnsafeBytes { raw in
    var start = 0
    for index in raw.indices where raw[index] == 10 {
      try shape.rewrite(line: UnsafeRawBufferPointer(rebasing: raw[start..<index]), into: &out)
      start = index + 1
    }
  }
  shape.finish(into: &out)
  return (out, shape.stats)
}

/// Folds log bytes line by line; records the diagnostics when the log does not fold.
private func fold(_ log: [UInt8], catalog: Catalog) throws -> Ledger {
  var builder = LedgerBuilder(catalog: catalog, file: "log.jsonl")
  var lines = log.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
  if lines.last?.isEmpty == true { lines.removeLast() }
  for (index, var line) in lines.enumerated() {
    _ = line.withUnsafeMutableBufferPointer { builder.add(line: UnsafeBufferPointer($0), lineNumber: index + 1) }
  }
  switch builder.finish() {
  case .success(let ledger): return ledger
  case .failure(let list):
    Issue.record("the log does not fold: \(list.diagnostics.prefix(3).map(\.description))")
    throw list
  }
}

/// The top-level members of each line, as strings by key.
private func members(_ log: [UInt8]) throws -> [[String: String]] {
  var result: [[String: String]] = []
  for line in log.split(separator: 10) {
    var fields: [String: String] = [:]
    try Array(line).withUnsafeBytes { raw in
      try TopLevelMembers.scan(raw, line: result.count + 1) { key, value in
        fields[String(decoding: raw[key], as: UTF8.self)] = String(decoding: raw[value], as: UTF8.self)
      }
    }
    result.append(fields)
  }
  return result
}

@Suite("Production shape")
struct ProductionShapeTests {
  @Test(
    "the rewritten log folds to the same events, subjects and answers, with exactly the added duplicates",
    arguments: [(UsageLevel.none, GeneratedContract.v1_2, 600), (.typical, .v1_2, 150), (.none, .v1_3, 600)])
  func sameAnswers(usage: UsageLevel, contract: GeneratedContract, subjects: Int) throws {
    let catalog = usage == .none ? LogGenerator.catalog : LogGenerator.policyCatalog
    // v1.3 with transfers: issue 40's headline log is this shape of such a log.
    let options = GeneratorOptions(
      subjects: subjects, seed: 11, usage: usage, contract: contract, transfers: contract == .v1_3)
    let original = generatedLog(options).bytes
    let (rewritten, stats) = try reshaped(original, seed: 5)
    #expect(stats.redeliveriesAdded > 0)
    #expect(stats.linesWritten == stats.linesRead + stats.redeliveriesAdded)
    #expect(stats.bytesWritten == rewritten.count)
    let a = try fold(original, catalog: catalog)
    let b = try fold(rewritten, catalog: catalog)
    #expect(b.events.count == a.events.count)
    #expect(b.duplicatesSkipped == a.duplicatesSkipped + stats.redeliveriesAdded)
    #expect(b.subjectCount == a.subjectCount)
    #expect(b.latestEffective == a.latestEffective)
    #expect(ActiveEntitlements.count(in: b, at: b.latestEffective).map { "\($0)" }
      == ActiveEntitlements.count(in: a, at: a.latestEffective).map { "\($0)" })
    var engineA = QueryEngine(ledger: a)
    var engineB = QueryEngine(ledger: b)
    let first = GeneratorOptions.defaultStart.millisecondsSinceEpoch
    let span = a.latestEffective.millisecondsSinceEpoch - first
    for index in 0..<a.symbols.subjects.count {
      let subject = a.symbols.subjects.string(Symbol(rawValue: UInt32(index)))
      for step in 1...4 {
        let at = Timestamp(millisecondsSinceEpoch: first + span * Int64(step) / 4)
        let asOf = Timestamp(millisecondsSinceEpoch: first + span * Int64(step) / 5)
        #expect(engineB.answer(subject: subject, at: at, asOf: nil) == engineA.answer(subject: subject, at: at, asOf: nil))
        #expect(engineB.answer(subject: subject, at: at, asOf: asOf) == engineA.answer(subject: subject, at: at, asOf: asOf))
      }
    }
  }

  @Test("lines get shuffled keys, offsets on every timestamp, meta on about a fifth and 2% redeliveries")
  func shape() throws {
    // v1.3, so that `respond_by` (a refund request's deadline) is among the timestamps.
    let original = generatedLog(
      GeneratorOptions(subjects: 1000, seed: 3, usage: .none, contract: .v1_3, transfers: true)).bytes
    let (rewritten, stats) = try reshaped(original, seed: 9)
    let before = try members(original)
    let after = try members(rewritten)
    #expect(after.count == before.count + stats.redeliveriesAdded)
    let share = Double(stats.redeliveriesAdded) / Double(before.count)
    #expect(share > 0.015 && share < 0.025)
    let metaShare = Double(after.filter { $0["\"meta\""] != nil }.count) / Double(after.count)
    #expect(metaShare > 0.17 && metaShare < 0.23)
    #expect(stats.metaDropped > 0)
    var firstKeys = Set<String>()
    for line in rewritten.split(separator: 10) {
      firstKeys.insert(String(decoding: line.prefix(12), as: UTF8.self))
    }
    #expect(firstKeys.count > 10)
    var timestamps = 0
    let timestampKeys = ["\"at\"", "\"recorded\"", "\"expires\"", "\"grace_expires\"", "\"respond_by\""]
    #expect(before.contains { $0["\"respond_by\""] != nil })
    for fields in after {
      for key in timestampKeys where fields[key] != nil {
        #expect(!fields[key]!.hasSuffix("Z\""), "\(key) \(fields[key]!) has no offset")
      }
    }
    for fields in before {
      for key in timestampKeys {
        guard let value = fields[key] else { continue }
        #expect(value.hasSuffix("Z\""))
        timestamps += 1
      }
    }
    #expect(timestamps == stats.timestampsRewritten)
  }

  @Test("a timestamp keeps its instant with an offset", arguments: [
    ("\"2026-03-01T12:00:00Z\"", Int64(330), "\"2026-03-01T17:30:00+05:30\""),
    ("\"2026-03-01T02:00:00.250Z\"", -300, "\"2026-02-28T21:00:00.250-05:00\""),
    ("\"2026-03-01T14:00:00+02:00\"", 120, "\"2026-03-01T14:00:00+02:00\""),
  ])
  func offset(input: String, minutes: Int64, expected: String) {
    let bytes = Array(input.utf8)
    let out = bytes.withUnsafeBytes { ProductionShape.withOffset($0[...], minutes: minutes) }
    #expect(out.map { String(decoding: $0, as: UTF8.self) } == expected)
  }

  @Test("the same seed gives the same bytes, another seed other bytes")
  func deterministic() throws {
    let original = generatedLog(GeneratorOptions(subjects: 100, seed: 1, usage: .none)).bytes
    #expect(try reshaped(original, seed: 2).bytes == reshaped(original, seed: 2).bytes)
    #expect(try reshaped(original, seed: 2).bytes != reshaped(original, seed: 3).bytes)
  }

  @Test("a line that is not a JSON object is reported with its line and byte", arguments: [
    ("[1,2]", "'{' at the start of the line", 0),
    ("{\"id\" \"x\"}", "':' after a key", 6),
    ("{\"id\":\"x\"", "',' or '}'", 9),
    ("{\"id\":\"x\"} x", "the end of the line after '}'", 11),
    ("{\"meta\":{\"a\":[1}", "the end of a nested value", 16),
  ])
  func malformed(line: String, expected: String, column: Int) {
    var shape = ProductionShape(seed: 1)
    var out: [UInt8] = []
    let valid = Array("{\"id\":\"e1\"}".utf8)
    let bytes = Array(line.utf8)
    #expect(throws: TopLevelMembers.Malformed(line: 2, expected: expected, column: column)) {
      try valid.withUnsafeBytes { try shape.rewrite(line: $0, into: &out) }
      try bytes.withUnsafeBytes { try shape.rewrite(line: $0, into: &out) }
    }
  }
}
