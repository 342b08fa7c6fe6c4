import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The member names of an answer object: every key, not the names of entitlements, groups,
/// currencies and features that key its tables.
private func memberNames(of value: JSONValue, into names: inout Set<String>) {
  switch value {
  case .array(let items):
    for item in items { memberNames(of: item, into: &names) }
  case .object(let members):
    for (key, child) in members {
      names.insert(key)
      let tables: Set<AnswerKey> = [.entitlements, .plans, .balances, .usage, .absent, .blocked]
      if let tableKey = AnswerKey(rawValue: key), tables.contains(tableKey), case .object(let table) = child {
        for (_, item) in table { memberNames(of: item, into: &names) }
      } else {
        memberNames(of: child, into: &names)
      }
    }
  default:
    break
  }
}

@Suite("Answers take every member name from one key table")
struct AnswerKeyTests {
  @Test("the scenario answers, explained and cached, use exactly the names of AnswerKey, and the byte writer agrees")
  func everyKeyIsUsed() throws {
    var used = Set<String>()
    for scenario in scenarios {
      let log = repoPath("\(scenario.folder)/\(scenario.name).jsonl")
      let catalog = try LedgerLoader.loadCatalog(path: repoPath("\(scenario.folder)/catalog.json"))
      let ledger = try LedgerLoader.load(logPath: log, catalog: catalog).ledger
      var engine = QueryEngine(ledger: ledger)
      let batch = try QueryBatch.parse(
        Array(try String(contentsOfFile: repoPath("\(scenario.folder)/\(scenario.name).queries.jsonl"), encoding: .utf8).utf8),
        file: "queries")
      var written: [UInt8] = []
      engine.writeAnswers(batch) { written.append(contentsOf: $0) }
      var lines = 0
      batch.forEach { subject, at, asOf, cache in
        let name = String(decoding: subject, as: UTF8.self)
        var answer = engine.answer(subject: name, at: at, asOf: asOf, cache: cache, explain: true)
        AbsentEntitlement.explain(&answer, ledger: ledger)
        memberNames(of: answer.jsonValue, into: &used)
        lines += 1
      }
      // The byte writer's lines name the same members as the JSON value of the same answers.
      for line in written.split(separator: 10) {
        var names = Set<String>()
        memberNames(of: try JSONValue.parse(bytes: Array(line)), into: &names)
        #expect(names.isSubset(of: used), "\(scenario.name): \(names.subtracting(used))")
      }
      #expect(written.split(separator: 10).count == lines)
    }
    #expect(used == Set(AnswerKey.allCases.map(\.name)))
  }
}
