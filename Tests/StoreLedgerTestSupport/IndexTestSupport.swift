import Foundation
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A log and its catalog in a temporary directory, with the index beside the log.
package struct IndexFixture {
  package let directory: URL
  package let catalog: Catalog
  package var log: String { directory.appendingPathComponent("log.jsonl").path }
  package var indexDirectory: String { LogIndex.directory(forLog: log) }

  package init(log bytes: [UInt8], catalogText: String) throws {
    directory = try temporaryDirectory()
    catalog = try StoreLedgerTestSupport.catalog(catalogText)
    try Data(catalogText.utf8).write(to: directory.appendingPathComponent("catalog.json"))
    try Data(bytes).write(to: URL(fileURLWithPath: log))
  }

  /// Builds the index or brings it up to date; fails the test on any error or warning.
  @discardableResult
  package func index(rebuild: Bool = false) throws -> IndexSummary {
    let (summary, warnings) = try IndexBuild.run(logPath: log, catalog: catalog, rebuild: rebuild)
    #expect(warnings.isEmpty, "\(warnings.map(\.description))")
    return summary
  }

  /// Appends bytes behind the tool's back (`cat >>`).
  package func appendBehindBack(_ bytes: [UInt8]) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
  }

  /// The whole log, read without the index.
  package func fullLedger() throws -> Ledger { try LedgerLoader.load(logPath: log, catalog: catalog).ledger }

  /// The ledger of `subjects` through the index; nil and the warning when it was not used.
  package func indexedLedger(_ subjects: [String]) throws -> (Ledger?, Diagnostic?) {
    switch try IndexedLedger.load(logPath: log, catalog: catalog, subjects: subjects) {
    case .loaded(let ledger, _): return (ledger, nil)
    case .notUsed(let warning): return (nil, warning)
    }
  }

  /// The index's files: name and bytes.
  package func indexFiles() throws -> [(name: String, bytes: [UInt8])] {
    try FileManager.default.contentsOfDirectory(atPath: indexDirectory).sorted().map { name in
      (name, Array(try Data(contentsOf: URL(fileURLWithPath: indexDirectory + "/" + name))))
    }
  }

  package func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Everything a reader prints for one subject at (T, R): the answer, `can` for every feature of
/// the policy, the day view and the timeline; equal strings mean equal answers.
package func answers(_ ledger: Ledger, subject: String, at: Timestamp, asOf: Timestamp?) -> [String] {
  var engine = QueryEngine(ledger: ledger)
  var out = [JSONWriter.compact(engine.answer(subject: subject, at: at, asOf: asOf, explain: true).jsonValue)]
  for feature in ledger.catalog.policy?.features.map(\.name) ?? [] {
    if let permission = engine.permission(subject: subject, feature: feature, at: at, asOf: asOf, cache: nil) {
      out.append("\(permission.usage.allowed) \(permission.usage.used) \(String(describing: permission.usage.limit)) \(String(describing: permission.wouldAllow))")
    }
  }
  if let symbol = ledger.subject(named: subject) {
    // What `query --during` clips to a day: the subject's intervals of every entitlement.
    out.append(String(describing: ledger.timeline(subject: symbol).entitlements))
  }
  out.append((try? CustomerTimeline.build(ledger: ledger, subject: subject, asOf: asOf).text) ?? "no timeline")
  return out
}
