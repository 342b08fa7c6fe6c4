import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerGenerate
@testable import StoreLedgerStorage

/// Issue 40, item 4: every fast path (the SIMD reader, the partitioned builder, ids kept as spans
/// of the log, restore from a snapshot) equals its slow twin (the reference reader, the single
/// path, ids as text, a full fold) on v1.3 store logs and on the shapes that stress them.
@Suite("Fast paths equal their slow twins on v1.3 store logs and adversarial shapes")
struct AdversarialShapeTests {
  static let options = GeneratorOptions(subjects: 60, seed: 40, usage: .none, contract: .v1_3, transfers: true)
  /// Events of the one heavy subject: enough to cross the reader's blocks and the builder's
  /// batches many times, small enough for a debug test (the limit is `Limits.eventsPerSubjectMax`).
  static let heavySubjectEvents = 8_000

  /// (name, lines) of every shape checked.
  static func shapes() throws -> [(String, [String])] {
    let generated = generatedLog(options).bytes
    let base = String(decoding: generated, as: UTF8.self).split(separator: "\n").map(String.init)
    let production = try reshaped(generated, seed: 40).bytes
    return [
      ("v1.3 store events with transfers", base),
      ("the same in the production shape", String(decoding: production, as: UTF8.self).split(separator: "\n").map(String.init)),
      ("every line a redelivery", base.flatMap { [$0, $0] }),
      ("ids and transactions of 128 bytes", base.map(Self.longIdentifiers)),
      ("one subject with \(heavySubjectEvents) events", Self.heavySubject(events: heavySubjectEvents)),
    ]
  }

  /// The line with every `id`, `transaction`, `original_transaction` and `grant` value padded to
  /// `Limits.idLengthMax` bytes (a value maps to one padded value, so references still match).
  static func longIdentifiers(_ line: String) -> String {
    var out = line
    for key in ["id", "transaction", "original_transaction", "grant"] {
      let marker = "\"\(key)\":\""
      guard let start = out.range(of: marker)?.upperBound, let end = out[start...].firstIndex(of: "\"") else { continue }
      let value = String(out[start..<end])
      let padded = value + "-" + String(repeating: "p", count: Limits.idLengthMax - value.utf8.count - 1)
      out.replaceSubrange(start..<end, with: padded)
    }
    return out
  }

  /// One subject's store history: a monthly plan renewed every 30 days, coins bought and spent
  /// every few hours, a support grant and a fraud block now and then, in effective order.
  static func heavySubject(events: Int) -> [String] {
    let dayMs: Int64 = 86_400_000
    let start = ts("2024-01-01T00:00:00Z")
    func time(_ ms: Int64) -> String { start.adding(milliseconds: ms).rfc3339 }
    var lines = [
      #"{"id":"h-p0","type":"purchase","subject":"whale","at":"\#(time(0))","product":"pro.monthly","transaction":"hm-0","expires":"\#(time(30 * dayMs))","price":4990,"currency":"USD"}"#
    ]
    var renewal = 1
    var step: Int64 = 0
    while lines.count < events {
      step += 1
      let at = step * 3 * 3_600_000
      if at >= Int64(renewal) * 30 * dayMs {
        lines.append(
          #"{"id":"h-r\#(renewal)","type":"renewal","subject":"whale","at":"\#(time(Int64(renewal) * 30 * dayMs))","product":"pro.monthly","transaction":"hm-\#(renewal)","original_transaction":"hm-0","expires":"\#(time(Int64(renewal + 1) * 30 * dayMs))","price":4990,"currency":"USD"}"#
        )
        renewal += 1
      }
      switch step % 50 {
      case 7:
        lines.append(#"{"id":"h-g\#(step)","type":"grant","subject":"whale","at":"\#(time(at))","entitlements":["cloud"],"expires":"\#(time(at + dayMs))","reason":"outage credit"}"#)
      case 19:
        lines.append(#"{"id":"h-b\#(step)","type":"block","subject":"whale","at":"\#(time(at))","service":"fraud","reason":"review"}"#)
      case 20:
        lines.append(#"{"id":"h-u\#(step)","type":"unblock","subject":"whale","at":"\#(time(at))","service":"fraud"}"#)
      default:
        lines.append(
          step % 2 == 1
            ? #"{"id":"h-c\#(step)","type":"purchase","subject":"whale","at":"\#(time(at))","product":"coins.100","transaction":"hc-\#(step)","price":99,"currency":"USD"}"#
            : #"{"id":"h-s\#(step)","type":"consumption","subject":"whale","at":"\#(time(at))","currency":"coins","quantity":40}"#)
      }
    }
    return lines
  }

  @Test("every shape loads alike through the partitioned builder and the single path, and with ids in the log and as text")
  func loadPathsAgree() throws {
    let catalogText = LogGenerator.catalogJSON(for: .none)
    let catalog = try Catalog.parse(catalogText, file: "catalog.json")
    var generatedDuplicates = 0
    for (name, lines) in try Self.shapes() {
      let path = try writeLog(lines, name: "adversarial-\(name.filter(\.isLetter)).jsonl")
      let catalogPath = (path as NSString).deletingLastPathComponent + "/catalog.json"
      try Data(catalogText.utf8).write(to: URL(fileURLWithPath: catalogPath))
      let text = PartitionedBuilderTests.expectSameAsSinglePath(path, catalog: catalog, label: name)
      #expect(text.contains("\nstarts "), "\(name) loads: \(text.prefix(400))")
      let ledger = try LogBackedIDTests.expectSameOutput(path, catalogPath: catalogPath, label: name)
      #expect(ledger != nil, "\(name) loads with ids in the log")
      if name.hasPrefix("v1.3 store events") { generatedDuplicates = ledger?.duplicatesSkipped ?? 0 }
      // The generator's own redeliveries, and now every line once more.
      if name.hasPrefix("every line") { #expect(ledger?.duplicatesSkipped == lines.count / 2 + generatedDuplicates) }
      if name.hasPrefix("one subject") { #expect(ledger?.events.count == lines.count && ledger?.subjectCount == 1) }
    }
  }

  @Test("every line of every shape is read alike by the fast reader and the reference reader")
  func readersAgree() throws {
    let catalog = try Catalog.parse(LogGenerator.catalogJSON(for: .none), file: "catalog.json")
    for (name, lines) in try Self.shapes() where !name.hasPrefix("every line") {
      var differential = Differential(catalog: catalog)
      for line in lines { differential.check(MutationCase(label: name, line: Array(line.utf8))) }
      #expect(differential.accepted == lines.count, "\(name): \(differential.summary)")
      DifferentialReaderTests.report(name, differential.disagreements, catalog: catalog)
    }
  }

  @Test("mutated v1.3 lines (transfers, grants, blocks, refund notices) are accepted and rejected alike, naming the same field")
  func mutatedV13LinesAgree() throws {
    let catalog = try Catalog.parse(LogGenerator.catalogJSON(for: .none), file: "catalog.json")
    let lines = try Self.shapes().filter { !$0.0.hasPrefix("every line") }.flatMap(\.1)
    // Mutate the v1.3 kinds' lines mostly: they are a few percent of a store log.
    let v13Types = ["transfer", "grant", "grant_revoked", "block", "unblock", "refund_requested", "refund_declined"]
    let v13 = lines.filter { line in v13Types.contains { line.contains("\"type\":\"\($0)\"") } }
    #expect(v13.count > 100, "\(v13.count) v1.3 lines")
    var differential = Differential(catalog: catalog)
    var mutator = Mutator(random: SeededGenerator(seed: 4040), catalog: catalog)
    for round in 0..<6_000 {
      let base = round % 4 == 0 ? mutator.pick(lines) : mutator.pick(v13)
      differential.check(mutator.mutate(base), original: differential.reference.read(Array(base.utf8)))
    }
    testLog("v1.3 mutations: \(differential.summary)")
    DifferentialReaderTests.report("decision or value differs (v1.3 lines)", differential.disagreements, catalog: catalog)
    // A transfer without its unit's field is refused as "exactly one of original_transaction or
    // transaction": naming either of the two is naming the mutated field.
    let unitFields = ["transaction", "original_transaction"]
    let misses = differential.targetMisses.filter { miss in
      !(String(decoding: miss.line, as: UTF8.self).contains(#""type":"transfer""#)
        && [miss.fast.rejectedField, miss.reference.rejectedField].allSatisfy { unitFields.contains($0 ?? "") })
    }
    DifferentialReaderTests.report("field named is not the mutated one (v1.3 lines)", misses, catalog: catalog, shrinking: false)
  }

  @Test("a snapshot of each shape's first half, restored with the rest as its tail, answers as a full fold at every subject's edge instants")
  func restoreAgrees() throws {
    let catalogText = LogGenerator.catalogJSON(for: .none)
    let catalog = try Catalog.parse(catalogText, file: "catalog.json")
    var random = SeededGenerator(seed: 40)
    for (name, lines) in try Self.shapes() {
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let catalogPath = directory.appendingPathComponent("catalog.json").path
      try Data(catalogText.utf8).write(to: URL(fileURLWithPath: catalogPath))
      let fullPath = try logFile(lines, in: directory)
      let prefixPath = try logFile(Array(lines.prefix(lines.count / 2)), in: directory, name: "prefix.jsonl")
      let full = try LedgerLoader.load(logPath: fullPath, catalog: catalog).ledger
      let snapshotPath = directory.appendingPathComponent("prefix.snapshot").path
      try SnapshotFiles.write(writtenSnapshot(of: prefixPath, catalogPath: catalogPath, catalog: catalog).bytes, to: snapshotPath)
      let restored = try SnapshotFiles.restore(
        snapshotPath: snapshotPath, logPath: fullPath, catalogPath: catalogPath, catalog: catalog
      ).ledger
      #expect(restored.events.count == full.events.count && restored.duplicatesSkipped == full.duplicatesSkipped, "\(name)")
      for subject in askedSubjects(full, count: 12, random: &random) {
        for (at, asOf) in edgeInstants(full, subject: subject, limit: 24, random: &random) {
          #expect(
            answers(restored, subject: subject, at: at, asOf: asOf) == answers(full, subject: subject, at: at, asOf: asOf),
            "\(name): \(subject) at \(at) as of \(String(describing: asOf))")
        }
      }
    }
  }
}
