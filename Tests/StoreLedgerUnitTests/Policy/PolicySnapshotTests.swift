import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("Snapshots of a log with usage restore the policy answers exactly")
struct PolicySnapshotTests {
  /// A seeded log of uses, releases, a subscription and a late refund over a few subjects.
  static func usageLog(seed: UInt64) -> [String] {
    var random = SeededGenerator(seed: seed)
    let features = ["interaction", "pattern", "saved_trip", "weekly", "monthly", "deep_compare"]
    var lines: [String] = []
    for subject in ["s1", "s2", "s3"] {
      var minute = Int.random(in: 0..<600, using: &random)
      for index in 0..<40 {
        minute += Int.random(in: 1..<(60 * 20), using: &random)
        let at = Timestamp(millisecondsSinceEpoch: 1_775_000_000_000 + Int64(minute) * 60_000)
        let late = Bool.random(using: &random) && index % 3 == 0
        let recorded = late ? at.adding(milliseconds: 3_600_000 * Int64.random(in: 1..<100, using: &random)) : nil
        let feature = features.randomElement(using: &random)!
        let quantity = feature == "saved_trip" && index % 4 == 0 ? -1 : Int.random(in: 1...3, using: &random)
        lines.append(use("\(subject)-\(index)", subject, at.rfc3339, feature, quantity: quantity, recorded: recorded?.rfc3339))
        if index == 20 && subject != "s3" {
          lines.append(
            EventLines.line(
              .purchase(
                id: "\(subject)-buy", subject: "\(subject)", at: at, product: "plus.monthly", transaction: "\(subject)-t",
                expires: at.adding(milliseconds: 30 * 86_400_000))))
        }
      }
    }
    return lines.shuffled(using: &random)
  }

  @Test("for every cut point, snapshot plus tail answers tier, trial, usage and explain like a full replay")
  func cutPoints() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalogPath = directory.appendingPathComponent("catalog.json").path
    try policyCatalogText(offset: "+02:00").write(toFile: catalogPath, atomically: true, encoding: .utf8)
    let catalog = try LedgerLoader.loadCatalog(path: catalogPath)
    for seed in testSeeds([31, 32]) {
      let lines = Self.usageLog(seed: seed)
      func write(_ lines: ArraySlice<String>, _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try lines.map { $0 + "\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      let fullPath = try write(lines[...], "log.jsonl")
      let full = try LedgerLoader.load(logPath: fullPath, catalog: catalog).ledger
      var fullEngine = QueryEngine(ledger: full)
      let times = full.events.flatMap { [$0.at, $0.recorded, $0.at.adding(milliseconds: 1)] }
      var random = SeededGenerator(seed: seed)
      for cut in [0, lines.count / 3, lines.count / 2, lines.count] {
        let prefixPath = try write(lines.prefix(cut), "prefix.jsonl")
        let (prefix, extent) = try LedgerLoader.load(logPath: prefixPath, catalog: catalog)
        let header = try SnapshotFiles.header(for: prefix, extent: extent, logPath: prefixPath, catalogPath: catalogPath)
        let snapshotPath = directory.appendingPathComponent("snapshot.json").path
        try SnapshotFiles.write(SnapshotWriter.write(prefix, header: header), to: snapshotPath)
        let restored = try SnapshotFiles.restore(
          snapshotPath: snapshotPath, logPath: fullPath, catalogPath: catalogPath, catalog: catalog)
        var engine = QueryEngine(ledger: restored.ledger)
        for _ in 0..<80 {
          let subject = ["s1", "s2", "s3", "nobody"].randomElement(using: &random)!
          let at = times.randomElement(using: &random)!
          let asOf: Timestamp? = Bool.random(using: &random) ? times.randomElement(using: &random) : nil
          let expected = fullEngine.answer(subject: subject, at: at, asOf: asOf, explain: true)
          let actual = engine.answer(subject: subject, at: at, asOf: asOf, explain: true)
          #expect(actual.policy != nil)
          #expect(actual == expected, "seed \(seed) cut \(cut): \(subject) at \(at.rfc3339)")
        }
      }
    }
  }
}
