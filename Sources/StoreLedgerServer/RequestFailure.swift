import StoreLedger

/// Why a handler answers with an error: the server's own refusal or the ledger's diagnostics.
package enum RequestFailure: Error, Sendable {
  /// Refused by the server (routing, parameters, limits, tokens).
  case server(ServerProblem)
  /// Refused by the ledger, in its own words.
  case ledger(DiagnosticList)

  /// The JSON error answer.
  package var response: HTTPResponse {
    switch self {
    case .server(let problem): return ErrorResponse.response(problem)
    case .ledger(let list): return ErrorResponse.response(list)
    }
  }
}
