/// One parsed HTTP/1.1 request: the method, the decoded path and query, headers and body.
package struct HTTPRequest: Sendable {
  /// `GET`, `POST`...
  package var method: String
  /// The path as sent (percent-encoded, checked), without the query.
  package var path: String
  /// The query's parameters, percent-decoded (`+` is a space); a repeated name keeps the first.
  package var query: [String: String]
  /// The headers in order, names lowercased.
  package var headers: [(name: String, value: String)]
  /// The body (`Content-Length` bytes).
  package var body: [UInt8]
  /// Whether the client asked for HTTP/1.0 (no keep-alive unless asked).
  package var isHTTP10: Bool

  /// The first value of header `name` (lowercase).
  package func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }

  /// Whether the connection stays open after the answer.
  package var keepsAlive: Bool {
    let connection = header("connection")?.lowercased() ?? ""
    return isHTTP10 ? connection == "keep-alive" : connection != "close"
  }
}
