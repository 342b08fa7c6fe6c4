import StoreLedger

/// An answer to write: status, headers and body (`Content-Length` framing).
package struct HTTPResponse: Sendable {
  /// The status code.
  package var status: Int
  /// Headers besides `Content-Length`, `Connection` and `Date`-free framing the writer adds.
  package var headers: [(name: String, value: String)]
  /// The body.
  package var body: [UInt8]

  /// A response with `body` of `contentType`.
  package init(status: Int, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
    self.status = status
    self.headers = [("Content-Type", contentType)] + headers
    self.body = body
  }

  /// A JSON body: the text the CLI prints, newline included.
  package static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json", body: Array(text.utf8))
  }

  /// The status line, headers and body as bytes; `keepAlive` says whether the connection stays.
  /// - Complexity: O(body).
  package func serialized(keepAlive: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// The reason phrase of a status this server sends.
  package static func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 411: return "Length Required"
    case 413: return "Content Too Large"
    case 422: return "Unprocessable Content"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}
