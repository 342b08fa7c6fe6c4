import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerServer

/// Every scenario with queries, and the catalog it is read with.
private let servedScenarios: [String] = {
  let root = repoPath("Events")
  var paths: [String] = []
  for folder in ["", "policy/"] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
    paths += names.filter { $0.hasSuffix(".queries.jsonl") }.sorted().map { "Events/" + folder + $0.dropLast(".queries.jsonl".count) }
  }
  return paths
}()

/// The query lines of a scenario as objects.
private func servedQueries(_ scenario: String) throws -> [[String: String]] {
  try String(contentsOfFile: repoPath(scenario + ".queries.jsonl"), encoding: .utf8).split(separator: "\n").map { line in
    try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
  }
}

@Suite("serve answers byte for byte what query, can and policy print")
struct ServerAnswerTests {
  @Test("GET /v1/subjects/{id} is the query command's output for every query of the scenario, with and without explain", arguments: servedScenarios)
  func subjects(scenario: String) throws {
    let catalog = scenario.hasPrefix("Events/policy/") ? "Events/policy/catalog.json" : "Events/catalog.json"
    let fixture = try ServerFixture(log: scenario + ".jsonl", catalog: catalog)
    let connection = try fixture.connect()
    defer { connection.close() }
    let questions = try servedQueries(scenario)
    try #require(!questions.isEmpty)
    for query in questions {
      let subject = try #require(query["subject"])
      var parameters: [String] = []
      var flags: [String] = []
      for (name, option) in [("at", "at"), ("as_of", "as-of"), ("cached_at", "cached-at"), ("max_staleness", "max-staleness")] {
        if let value = query[name] {
          parameters.append("\(name)=\(queryEncoded(value))")
          flags += ["--\(option)", value]
        }
      }
      for explain in [false, true] {
        let target = "/v1/subjects/\(queryEncoded(subject))?" + (parameters + (explain ? ["explain=true"] : [])).joined(separator: "&")
        let served = try connection.request("GET", target)
        let printed = runCLI(["query", fixture.log, "--subject", subject, "--catalog", fixture.catalog] + flags + (explain ? ["--explain"] : []))
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(served.status == 200 && served.body == printed.stdout, "\(scenario) \(target)")
        #expect(served.headers["content-type"] == "application/json")
      }
    }
  }

  @Test("GET /v1/subjects/{id}/can is the can command's line for every feature and query of the policy scenarios")
  func can() throws {
    let catalogJSON = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repoPath("Events/policy/catalog.json")))) as? [String: Any])
    let features = try #require((catalogJSON["policy"] as? [String: Any])?["features"] as? [String: Any]).keys.sorted()
    for scenario in servedScenarios where scenario.hasPrefix("Events/policy/") {
      let fixture = try ServerFixture(log: scenario + ".jsonl", catalog: "Events/policy/catalog.json")
      let connection = try fixture.connect()
      defer { connection.close() }
      for query in try servedQueries(scenario) where query["cached_at"] == nil {
        let subject = try #require(query["subject"])
        let at = try #require(query["at"])
        for feature in features {
          let asOf = query["as_of"].map { "&as_of=\(queryEncoded($0))" } ?? ""
          let served = try connection.request("GET", "/v1/subjects/\(queryEncoded(subject))/can?feature=\(feature)&at=\(queryEncoded(at))\(asOf)")
          let printed = runCLI(
            ["can", fixture.log, "--subject", subject, "--feature", feature, "--at", at, "--catalog", fixture.catalog]
              + (query["as_of"].map { ["--as-of", $0] } ?? []))
          #expect(served.status == 200 && served.body == printed.stdout, "\(scenario) \(subject) \(feature) \(at)")
          #expect((served.json["allowed"] as? Bool) == (printed.status == 0))
        }
      }
    }
  }

  @Test("GET /v1/policy is what policy --format prints, in every format")
  func policy() throws {
    let fixture = try ServerFixture(log: "Events/policy/decide-daily.jsonl", catalog: "Events/policy/catalog.json")
    for format in ["json", "text", "markdown", "html"] {
      let served = try fixture.request("GET", "/v1/policy?format=\(format)")
      let printed = runCLI(["policy", fixture.catalog, "--format", format])
      #expect(served.status == 200 && served.body == printed.stdout && !served.body.isEmpty, "\(format)")
    }
  }

  @Test(
    "a bad question is a JSON error with its stable code and status",
    arguments: [
      ("/v1/subjects/u1?at=tomorrow-ish", 400, "usage"),
      ("/v1/subjects/u1?at=2026-03-05&cached_at=2026-03-06", 400, "cache_after_answer"),
      ("/v1/subjects/u1?explain=maybe", 400, "usage"),
      ("/v1/subjects/u1/can?at=2026-03-05", 400, "usage"),
      ("/v1/subjects/u1/can?feature=decision_session", 404, "no_policy"),
      ("/v1/policy", 404, "no_policy"),
      ("/v1/nowhere", 404, "not_found"),
    ])
  func errors(target: String, status: Int, code: String) throws {
    let fixture = try ServerFixture()
    let served = try fixture.request("GET", target)
    #expect(served.status == status && served.json["code"] as? String == code, "\(served.body)")
    #expect(served.json["status"] as? Int == status && !(served.json["message"] as? String ?? "").isEmpty)
  }

  @Test("an unknown feature is refused in the library's words, naming the policy's features")
  func unknownFeature() throws {
    let fixture = try ServerFixture(log: "Events/policy/decide-daily.jsonl", catalog: "Events/policy/catalog.json")
    let served = try fixture.request("GET", "/v1/subjects/sid-free/can?feature=decision_sesion")
    let expected = Diagnostic(.unknownFeature(feature: "decision_sesion", features: fixture.store.withEngine { $0.ledger.catalog.policy!.features.map(\.name) }))
    #expect(served.status == 400 && served.json["code"] as? String == "unknown_feature")
    #expect(served.json["message"] as? String == expected.message)
  }
}
