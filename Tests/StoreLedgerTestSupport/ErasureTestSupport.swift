import Foundation
import Synchronization
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Erasure names drawn from a seed, so a run (and a crash walk's expected new set) repeats exactly.
package func seededNames(_ seed: UInt64) -> ErasureNames {
  let generator = Mutex(SeededGenerator(seed: seed))
  let box = NamesBox(generator)
  return ErasureNames { box.next() }
}

/// The shared state of `seededNames`.
package final class NamesBox: Sendable {
  package let generator: Mutex<SeededGenerator>
  package init(_ generator: consuming Mutex<SeededGenerator>) { self.generator = generator }
  package func next() -> UInt64 { generator.withLock { $0.next() } }
}

/// The instant the tests' erasures are dated.
package let erasedAt = ts("2026-11-27T12:00:00Z")

/// A log and its catalog in a temporary directory, and everything kept beside the log.
package struct ErasureFixture {
  package let directory: URL
  package let catalog: Catalog
  package var log: String { directory.appendingPathComponent("log.jsonl").path }

  package init(log bytes: [UInt8], catalogText: String) throws {
    directory = try temporaryDirectory()
    catalog = try StoreLedgerTestSupport.catalog(catalogText)
    try Data(catalogText.utf8).write(to: directory.appendingPathComponent("catalog.json"))
    try Data(bytes).write(to: URL(fileURLWithPath: log))
  }

  /// The whole log, loaded.
  package func ledger() throws -> Ledger { try LedgerLoader.load(logPath: log, catalog: catalog).ledger }

  /// Erases `subjects` with seeded names.
  @discardableResult
  package func erase(_ subjects: [String], seed: UInt64 = 1) throws -> ErasureReport {
    try LedgerErasure.run(logPath: log, subjects: subjects, now: erasedAt, names: seededNames(seed))
  }

  /// Every file under the directory (the index's too), by path relative to it, with its bytes.
  package func files() throws -> [String: [UInt8]] {
    var found: [String: [UInt8]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    while let name = enumerator?.nextObject() as? String {
      let path = directory.appendingPathComponent(name).path
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        found[name] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      }
    }
    return found
  }

  package func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The names of a ledger's subjects.
package func subjectNames(_ ledger: Ledger) -> [String] {
  (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
}

/// Whether `bytes` hold `needle` anywhere.
package func holds(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
  guard !needle.isEmpty, bytes.count >= needle.count else { return false }
  return (0...(bytes.count - needle.count)).contains { start in
    bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle)
  }
}

/// The forms a JSON file can spell `text` in: as the writer quotes it, and with its first
/// character escaped as `\uXXXX` (what a hand-written or foreign line may hold).
package func jsonForms(_ text: String) -> [[UInt8]] {
  var quoted: [UInt8] = []
  JSONWriter.writeString(text, into: &quoted)
  guard let first = text.unicodeScalars.first, first.value < 0x10000 else { return [quoted] }
  let hex = String(first.value, radix: 16)
  let escaped = "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + String(text.unicodeScalars.dropFirst()) + "\""
  return [quoted, Array(escaped.utf8)]
}

/// Answer times for a ledger: random (T, R) pairs over its span, and the instants of some events.
package func answerTimes(_ ledger: Ledger, count: Int, seed: UInt64) -> [(at: Timestamp, asOf: Timestamp?)] {
  var random = SeededGenerator(seed: seed)
  let start = (ledger.events.map(\.at).min() ?? ts("2026-01-01T00:00:00Z")).millisecondsSinceEpoch - 86_400_000
  let span = max(1, ledger.latestEffective.millisecondsSinceEpoch + 86_400_000 * 40 - start)
  return (0..<count).map { index in
    let at = Timestamp(millisecondsSinceEpoch: start + Int64.random(in: 0...span, using: &random))
    let asOf = index % 3 == 0 ? nil : Timestamp(millisecondsSinceEpoch: start + Int64.random(in: 0...span, using: &random))
    return (at, asOf)
  }
}

/// Monthly reports over the ledger's span, as known now and as of a few instants.
package func reportTotals(_ ledger: Ledger, seed: UInt64) throws -> [Report] {
  let first = ledger.events.map(\.at).min() ?? ts("2026-01-01T00:00:00Z")
  let end = Timestamp(millisecondsSinceEpoch: ledger.latestEffective.millisecondsSinceEpoch + 86_400_000 * 62)
  let buckets = try ReportBuckets(from: first, to: end, every: .month)
  let asOfs: [Timestamp?] = [nil] + answerTimes(ledger, count: 3, seed: seed).map(\.at)
  return try asOfs.map { try ReportBuilder.report(ledger: ledger, buckets: buckets, asOf: $0) }
}

/// The answer to one query as JSON text, explained (every source), with `can` for each feature.
package func answerText(_ ledger: Ledger, _ engine: inout QueryEngine, subject: String, at: Timestamp, asOf: Timestamp?) -> String {
  var out = JSONWriter.compact(engine.answer(subject: subject, at: at, asOf: asOf, explain: true).jsonValue)
  for feature in ledger.catalog.policy?.features.map(\.name) ?? [] {
    if let permission = engine.permission(subject: subject, feature: feature, at: at, asOf: asOf, cache: nil) {
      out += " \(permission.usage.allowed) \(permission.usage.used) \(String(describing: permission.usage.limit))"
    }
  }
  return out
}

/// What an erased subject's answer holds that no renaming changes: entitlements and balances.
package func erasedView(_ ledger: Ledger, _ subject: String, _ time: (at: Timestamp, asOf: Timestamp?)) -> String {
  var engine = QueryEngine(ledger: ledger)
  let answer = engine.answer(subject: subject, at: time.at, asOf: time.asOf).jsonValue
  return JSONWriter.compact(answer["entitlements"] ?? .null) + JSONWriter.compact(answer["balances"] ?? .null)
}

/// The edge instants of a subject's events, as (T, R) pairs: each event's `at` and 1 ms before,
/// as known now, just before its `recorded` and at it; for a grant, its `expires` too.
///
/// At most `limit` pairs, drawn with `random` when there are more, the v1.3 events' first.
package func edgeInstants(
  _ ledger: Ledger, subject: String, limit: Int, random: inout SeededGenerator
) -> [(at: Timestamp, asOf: Timestamp?)] {
  guard let symbol = ledger.subject(named: subject) else { return [] }
  let contract13: Set<EventKind> = [.grant, .grantRevoked, .block, .unblock, .refundRequested, .refundDeclined]
  let events = ledger.events(of: symbol).sorted { contract13.contains($0.kind) && !contract13.contains($1.kind) }
  var pairs: [(at: Timestamp, asOf: Timestamp?)] = []
  for event in events {
    var instants = [event.at, event.at.adding(milliseconds: -1)]
    if event.kind == .grant, event.hasExpires { instants += [event.expires, event.expires.adding(milliseconds: -1)] }
    for at in instants {
      pairs += [(at, nil), (at, event.recorded.adding(milliseconds: -1)), (at, event.recorded)]
    }
  }
  guard pairs.count > limit else { return pairs }
  // Keep the first event's edges (a v1.3 one when the subject has any), draw the rest.
  let rest = pairs.dropFirst(6).shuffled(using: &random)
  return Array(pairs.prefix(6)) + rest.prefix(limit - 6)
}
