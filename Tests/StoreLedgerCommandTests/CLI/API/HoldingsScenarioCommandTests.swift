import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// A value encoded with Foundation's `JSONEncoder`, read back as a JSON tree.
func encodedJSON(_ value: some Encodable) throws -> JSONValue {
  try JSONValue.parse(bytes: Array(try JSONEncoder().encode(value)))
}

/// The CLI's stdout, parsed.
private func cliJSON(_ arguments: [String]) throws -> JSONValue {
  let run = runCLI(arguments)
  #expect(run.status == 0 || run.status == 1, "\(arguments): \(run.stderr)")
  return try JSONValue.parse(run.stdout)
}

@Suite("LedgerStore answers every scenario question exactly as the CLI does")
struct HoldingsScenarioCommandTests {
  @Test("Holdings encoded with JSONEncoder equal the CLI's query and query --explain answers", arguments: scenarios)
  func queries(_ scenario: Scenario) throws {
    let log = repoPath("\(scenario.folder)/\(scenario.name).jsonl")
    let store = try LedgerStore(logPath: log, catalogPath: repoPath("\(scenario.folder)/catalog.json"))
    let queries = try String(contentsOfFile: repoPath("\(scenario.folder)/\(scenario.name).queries.jsonl"), encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    let answers = try String(contentsOfFile: repoPath("\(scenario.folder)/\(scenario.name).answers.jsonl"), encoding: .utf8)
      .split(separator: "\n").map { try JSONValue.parse(String($0)) }
    #expect(queries.count == answers.count && !queries.isEmpty)
    for (query, golden) in zip(queries, answers) {
      let subject = SubjectID(rawValue: try #require(query["subject"]?.stringValue))
      let atText = try #require(query["at"]?.stringValue)
      let at = try #require(Timestamp.parseRFC3339(atText))
      var arguments = ["query", log, "--subject", subject.rawValue, "--at", atText]
      let plain: Holdings
      let explained: Holdings
      if let cachedText = query["cached_at"]?.stringValue {
        let verifiedAt = try #require(Timestamp.parseRFC3339(cachedText))
        let staleness = try #require(Staleness(iso8601: query["max_staleness"]?.stringValue ?? "PT24H"))
        arguments += ["--cached-at", cachedText, "--max-staleness", staleness.description]
        plain = try store.cachedAnswer(for: subject, at: at, verifiedAt: verifiedAt, maxStaleness: staleness)
        explained = try store.cachedAnswer(
          for: subject, at: at, verifiedAt: verifiedAt, maxStaleness: staleness, explain: true)
      } else {
        let asOfText = query["as_of"]?.stringValue
        if let asOfText { arguments += ["--as-of", asOfText] }
        let asOf = asOfText.flatMap(Timestamp.parseRFC3339)
        plain = store.answer(for: subject, at: at, asOf: asOf)
        explained = store.explain(for: subject, at: at, asOf: asOf)
      }
      let context = Comment(rawValue: "\(scenario.name): \(arguments.dropFirst(2).joined(separator: " "))")
      #expect(try encodedJSON(plain) == golden, context)
      #expect(try encodedJSON(plain) == cliJSON(arguments), context)
      #expect(try encodedJSON(explained) == cliJSON(arguments + ["--explain"]), context)
      // Decoding the CLI's answer loses nothing.
      let decoded = try JSONDecoder().decode(Holdings.self, from: Data(runCLI(arguments + ["--explain"]).stdout.utf8))
      #expect(decoded == explained, context)
    }
  }

  @Test("can through the API equals storeledger can for every policy feature and scenario question")
  func featureChecks() throws {
    var compared = 0
    for scenario in scenarios where scenario.folder.hasSuffix("policy") {
      let log = repoPath("\(scenario.folder)/\(scenario.name).jsonl")
      let store = try LedgerStore(logPath: log, catalogPath: repoPath("\(scenario.folder)/catalog.json"))
      let catalog = try LedgerLoader.loadCatalog(path: repoPath("\(scenario.folder)/catalog.json"))
      let features = try #require(catalog.policy).features.map(\.name)
      let queries = try String(contentsOfFile: repoPath("\(scenario.folder)/\(scenario.name).queries.jsonl"), encoding: .utf8)
        .split(separator: "\n").map { try JSONValue.parse(String($0)) }
      for query in queries where query["cached_at"] == nil {
        let subject = SubjectID(rawValue: try #require(query["subject"]?.stringValue))
        let atText = try #require(query["at"]?.stringValue)
        let asOfText = query["as_of"]?.stringValue
        for feature in features {
          let permission = try store.can(
            subject, use: FeatureID(rawValue: feature), at: try #require(Timestamp.parseRFC3339(atText)),
            asOf: asOfText.flatMap(Timestamp.parseRFC3339))
          let run = runCLI(
            ["can", log, "--subject", subject.rawValue, "--feature", feature, "--at", atText]
              + (asOfText.map { ["--as-of", $0] } ?? []))
          let cli = try JSONValue.parse(run.stdout)
          #expect(try encodedJSON(permission) == cli, "\(scenario.name) \(subject.rawValue) \(feature) \(atText)")
          // The line's members are PermissionKey's, and decode to the same value.
          if case .object(let members) = cli { #expect(members.map(\.0).sorted() == PermissionKey.allCases.map(\.name).sorted()) }
          #expect(try JSONDecoder().decode(FeaturePermission.self, from: Data(run.stdout.utf8)) == permission)
          compared += 1
        }
      }
    }
    #expect(compared > 20)
  }
}
