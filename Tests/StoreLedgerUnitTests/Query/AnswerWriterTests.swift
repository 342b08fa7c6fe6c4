import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// Questions at every event's instant and one millisecond either side (the edges where
/// answers change), at full knowledge and as known at a spread of knowledge times; for
/// every subject, one that is not in the log, and one whose name needs JSON escapes.
private func edgeQueries(_ ledger: Ledger) -> [UInt8] {
  var instants = Set<Int64>()
  for event in ledger.events {
    for time in [event.at, event.recorded, event.hasExpires ? event.expires : event.at] {
      for delta: Int64 in [-1, 0, 1] { instants.insert(time.millisecondsSinceEpoch + delta) }
    }
  }
  let times = instants.sorted().map { Timestamp(millisecondsSinceEpoch: $0) }
  let knowledge: [Timestamp?] = [nil] + stride(from: 0, to: times.count, by: max(1, times.count / 3)).map { times[$0] }
  let subjects = (0..<ledger.subjectCount).map { ledger.symbols.subjects.string(Symbol(rawValue: UInt32($0))) }
    + ["ghost", "gh\"o\\st\u{e9}\u{1}"]
  var out: [UInt8] = []
  for subject in subjects {
    for at in times {
      for asOf in knowledge {
        var members: [(String, JSONValue)] = [("subject", .string(subject)), ("at", .string(at.rfc3339))]
        if let asOf { members.append(("as_of", .string(asOf.rfc3339))) }
        JSONWriter.write(.object(members), into: &out, indent: nil, level: 0)
        out.append(10)
      }
    }
  }
  return out
}

/// Checks that the audit's writer and the structured answer's JSON agree byte for byte.
private func expectWritersAgree(_ ledger: Ledger, queries: [UInt8], name: String) throws {
  let batch = try QueryBatch.parse(queries, file: name)
  var engine = QueryEngine(ledger: ledger)
  var fast: [UInt8] = []
  // A small flush size so the batch writer's buffer hand-over is crossed many times.
  engine.writeAnswers(batch, flushBytes: 4096) { fast.append(contentsOf: $0) }
  var slow: [UInt8] = []
  var single: [UInt8] = []
  batch.forEach { subject, at, asOf in
    let answer = engine.answer(subject: String(decoding: subject, as: UTF8.self), at: at, asOf: asOf)
    slow.append(contentsOf: JSONWriter.compact(answer.jsonValue).utf8)
    slow.append(10)
    engine.writeAnswer(subject: subject, at: at, asOf: asOf, into: &single)
    single.append(10)
  }
  #expect(batch.count > 0)
  #expect(fast == slow, "\(name): writeAnswers and Answer.jsonValue differ")
  #expect(single == slow, "\(name): writeAnswer and Answer.jsonValue differ")
}

@Suite("The two answer writers")
struct AnswerWriterTests {
  @Test("the audit writers and the structured answer write the same bytes for every scenario", arguments: scenarioNames)
  func scenarios(name: String) throws {
    let directory = repoPath("Events")
    let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
    let ledger = try LedgerLoader.load(logPath: "\(directory)/\(name).jsonl", catalog: catalog).ledger
    var queries = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).queries.jsonl")))
    queries += edgeQueries(ledger)
    try expectWritersAgree(ledger, queries: queries, name: name)
  }

  @Test("the audit writers and the structured answer write the same bytes for random logs", arguments: [UInt64(5), 6, 7])
  func randomLogs(seed: UInt64) throws {
    let random = RandomLog(seed: seed, subjects: 6, eventsPerSubject: 25)
    let ledger = try ledger(random.lines.joined(separator: "\n"))
    var queries: [UInt8] = []
    for (subject, at, asOf) in random.queries(count: 400, seed: seed) {
      var members: [(String, JSONValue)] = [("subject", .string(subject)), ("at", .string(at.rfc3339))]
      if let asOf { members.append(("as_of", .string(asOf.rfc3339))) }
      JSONWriter.write(.object(members), into: &queries, indent: nil, level: 0)
      queries.append(10)
    }
    try expectWritersAgree(ledger, queries: queries, name: "random-\(seed)")
  }
}
