import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

@Suite("The contract's worked examples")
struct ContractExamplesTests {
  @Test("every example query gets exactly the answer the contract implies")
  func examples() throws {
    let directory = repoPath("Events")
    let catalog = try LedgerLoader.loadCatalog(path: directory + "/catalog.json")
    let (ledger, _) = try LedgerLoader.load(logPath: directory + "/contract-examples.jsonl", catalog: catalog)
    #expect(ledger.duplicatesSkipped == 1)
    var engine = QueryEngine(ledger: ledger)
    let queries = try String(contentsOfFile: directory + "/contract-examples.queries.jsonl", encoding: .utf8)
      .split(separator: "\n")
    let answers = try String(contentsOfFile: directory + "/contract-examples.answers.jsonl", encoding: .utf8)
      .split(separator: "\n")
    #expect(queries.count == answers.count)
    for (query, expectedText) in zip(queries, answers) {
      let q = try JSONValue.parse(String(query))
      let subject = q["subject"]!.stringValue!
      let at = q["at"]!.stringValue!
      let asOf = q["as_of"]?.stringValue
      let answer = engine.checkedAnswer(subject, at: at, asOf: asOf)
      let expected = try JSONValue.parse(String(expectedText))
      #expect(answer.jsonValue == expected, "query \(query)")
    }
  }
}
