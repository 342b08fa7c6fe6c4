import StoreLedger
import StoreLedgerReport

// The read routes. Each writes its answer with the writer the CLI prints with (the same
// `QueryEngine` calls, `Holdings.jsonValue`, `Permission.jsonValue(feature:)`, `PolicyDescription`
// and `JSONWriter`), so a body is byte for byte what `storeledger query`, `can` or `policy` prints.

extension LedgerServer {
  /// `GET /v1/subjects/{id}?at=&as_of=&cached_at=&max_staleness=&explain=&pretty=`: `storeledger query`'s JSON.
  /// - Complexity: O(events of the subject), times its timeline's instants with `explain`.
  func answer(subject: String, _ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    let time = try PointInTimeQuery(request.query, now: clock.now())
    let explain = try flag("explain", request)
    let pretty = try flag("pretty", request)
    let text = store.withEngine { engine in
      var answer = engine.answer(subject: subject, at: time.at, asOf: time.asOf, cache: time.cache, explain: explain)
      if explain { AbsentEntitlement.explain(&answer, ledger: engine.ledger) }
      let value = answer.jsonValue
      return (pretty ? JSONWriter.pretty(value) : JSONWriter.compact(value)) + "\n"
    }
    return .json(text)
  }

  /// `GET /v1/subjects/{id}/can?feature=&at=&as_of=&cached_at=`: `storeledger can`'s JSON line
  /// (200 whether allowed or not: the body says).
  /// - Throws: `no_policy`, `unknown_feature` (the library's wording), a bad or missing parameter.
  /// - Complexity: O(events of the subject).
  func permission(subject: String, _ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    guard let feature = request.query["feature"] else {
      throw .server(.missingParameter(name: "feature", expected: "a feature of the catalog's policy"))
    }
    let time = try PointInTimeQuery(request.query, now: clock.now())
    let result = store.withEngine { engine -> Result<String, DiagnosticList> in
      guard let policy = engine.ledger.catalog.policy else {
        return .failure(DiagnosticList([Diagnostic(file: store.catalogPath, .noPolicy(what: "a feature check"))]))
      }
      guard policy.featureIndex(of: feature) != nil,
        let permission = engine.permission(subject: subject, feature: feature, at: time.at, asOf: time.asOf, cache: time.cache)
      else {
        return .failure(DiagnosticList([Diagnostic(.unknownFeature(feature: feature, features: policy.features.map(\.name)))]))
      }
      return .success(JSONWriter.compact(permission.jsonValue(feature: feature)) + "\n")
    }
    switch result {
    case .success(let text): return .json(text)
    case .failure(let list): throw .ledger(list)
    }
  }

  /// `GET /v1/policy?format=json|text|markdown|html`: what `storeledger policy CATALOG` prints.
  /// - Throws: `no_policy` (404) for a catalog without a policy, a bad `format`.
  func policy(_ request: HTTPRequest) throws(RequestFailure) -> HTTPResponse {
    let format = request.query["format"] ?? "json"
    let types = ["json": "application/json", "text": "text/plain; charset=utf-8", "markdown": "text/markdown; charset=utf-8", "html": "text/html; charset=utf-8"]
    guard let type = types[format] else {
      throw .server(.badParameter(name: "format", value: format, expected: "json, text, markdown or html"))
    }
    guard let description = store.withEngine({ PolicyDescription(catalog: $0.ledger.catalog) }) else {
      throw .ledger(DiagnosticList([Diagnostic(file: store.catalogPath, .noPolicy(what: "a policy description"))]))
    }
    let text: String
    switch format {
    case "markdown": text = description.markdown
    case "html": text = description.html
    case "text": text = description.text
    default: text = JSONWriter.pretty(description.json) + "\n"
    }
    return HTTPResponse(status: 200, contentType: type, body: Array(text.utf8))
  }

  /// A boolean query parameter: absent, `0`/`false` are false; present empty, `1`/`true` are true.
  func flag(_ name: String, _ request: HTTPRequest) throws(RequestFailure) -> Bool {
    guard let value = request.query[name] else { return false }
    switch value {
    case "", "1", "true": return true
    case "0", "false": return false
    default: throw .server(.badParameter(name: name, value: value, expected: "true, false, 1 or 0"))
    }
  }
}
