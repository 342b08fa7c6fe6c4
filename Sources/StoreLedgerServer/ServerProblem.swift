import StoreLedger

/// A request the server refuses before the ledger sees it; the one place the server words its
/// own problems. Each has a stable code (beside the ledger's `DiagnosticCode`s) and a status.
package enum ServerProblem: Error, Sendable, Equatable {
  /// Not HTTP/1.x as RFC 9112 frames it (the connection is closed after the answer).
  case malformedRequest(String)
  /// The request line and headers are over the limit.
  case headersTooLarge(limit: Int)
  /// The declared body is over the limit.
  case bodyTooLarge(bytes: Int, limit: Int)
  /// A body without `Content-Length` (chunked transfer coding is not accepted).
  case lengthRequired
  /// The request did not arrive within the limit.
  case requestTimeout(milliseconds: Int32)
  /// No route has this path.
  case notFound(path: String)
  /// The route exists, with other methods.
  case methodNotAllowed(method: String, allowed: [String])
  /// A query parameter with a value the route cannot use.
  case badParameter(name: String, value: String, expected: String)
  /// A required query parameter is absent.
  case missingParameter(name: String, expected: String)
  /// The body is not what the route reads.
  case badBody(String)
  /// The Pub/Sub push token is absent.
  case tokenMissing
  /// The Pub/Sub push token differs from `--pubsub-token`.
  case tokenWrong
  /// More connections than the cap.
  case tooManyConnections(limit: Int)
  /// The server is stopping.
  case stopping

  /// The HTTP status.
  package var status: Int {
    switch self {
    case .malformedRequest, .badParameter, .missingParameter, .badBody: return 400
    case .headersTooLarge: return 431
    case .bodyTooLarge: return 413
    case .lengthRequired: return 411
    case .requestTimeout: return 408
    case .notFound: return 404
    case .methodNotAllowed: return 405
    case .tokenMissing: return 401
    case .tokenWrong: return 403
    case .tooManyConnections, .stopping: return 503
    }
  }

  /// The stable code, printed as `code` in the error body.
  package var code: DiagnosticCode {
    switch self {
    case .malformedRequest: return DiagnosticCode(rawValue: "malformed_request")
    case .headersTooLarge: return DiagnosticCode(rawValue: "headers_too_large")
    case .bodyTooLarge: return DiagnosticCode(rawValue: "body_too_large")
    case .lengthRequired: return DiagnosticCode(rawValue: "length_required")
    case .requestTimeout: return DiagnosticCode(rawValue: "request_timeout")
    case .notFound: return DiagnosticCode(rawValue: "not_found")
    case .methodNotAllowed: return DiagnosticCode(rawValue: "method_not_allowed")
    case .badParameter, .missingParameter, .badBody: return .usage
    case .tokenMissing: return DiagnosticCode(rawValue: "token_missing")
    case .tokenWrong: return DiagnosticCode(rawValue: "token_rejected")
    case .tooManyConnections: return DiagnosticCode(rawValue: "too_many_connections")
    case .stopping: return DiagnosticCode(rawValue: "stopping")
    }
  }

  /// One sentence; values from the request are quoted and clipped by the JSON writer's caller.
  package var message: String {
    switch self {
    case .malformedRequest(let why): return "malformed HTTP/1.1 request: \(why)"
    case .headersTooLarge(let limit): return "the request line and headers are over \(limit) bytes"
    case .bodyTooLarge(let bytes, let limit): return "the body of \(bytes) bytes is over the limit of \(limit) bytes"
    case .lengthRequired: return "a body needs Content-Length (chunked transfer coding is not accepted)"
    case .requestTimeout(let milliseconds): return "the request did not arrive within \(milliseconds) ms"
    case .notFound(let path): return "no route '\(Self.quoted(path))' (see Docs/serve.md for the routes)"
    case .methodNotAllowed(let method, let allowed):
      return "'\(Self.quoted(method))' is not allowed here; use \(allowed.joined(separator: " or "))"
    case .badParameter(let name, let value, let expected):
      return "invalid value for '\(name)': '\(Self.quoted(value))' (expected \(expected))"
    case .missingParameter(let name, let expected): return "missing query parameter '\(name)' (\(expected))"
    case .badBody(let why): return why
    case .tokenMissing: return "this route needs the push token (query parameter 'token' or 'Authorization: Bearer')"
    case .tokenWrong: return "the push token is not the one the server was started with"
    case .tooManyConnections(let limit): return "the server holds its limit of \(limit) connections; retry later"
    case .stopping: return "the server is stopping; retry on another instance"
    }
  }

  /// At most 200 bytes of a value from the request, so an error body stays small.
  static func quoted(_ text: String) -> String {
    text.utf8.count <= 200 ? text : String(decoding: text.utf8.prefix(200), as: UTF8.self) + "…"
  }
}
