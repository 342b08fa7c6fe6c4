/// Every bound the server keeps against hostile or broken clients (Docs/serve.md, "Limits").
package struct ServerLimits: Sendable {
  /// The request line and headers together, in bytes; more is answered 431.
  package var headerBytesMax = 16 * 1024
  /// A request body, in bytes; more is answered 413 before it is read.
  package var bodyBytesMax = 4 * 1024 * 1024
  /// How long a request may take to arrive, from its first byte to its last (slow clients: 408).
  package var requestMilliseconds: Int32 = 10_000
  /// How long a kept-alive connection may wait for its next request.
  package var idleMilliseconds: Int32 = 30_000
  /// How long a write may wait for a client that reads nothing.
  package var sendMilliseconds: Int32 = 10_000
  /// Open connections at once; one more is answered 503 and closed.
  package var connectionsMax = 256
  /// Requests on one kept-alive connection, then it is closed (bounds what one client holds).
  package var requestsPerConnectionMax = 10_000
  /// The longest slice a waiting connection sleeps before it looks whether the server stops.
  package var pollSliceMilliseconds: Int32 = 200

  /// The defaults.
  package init() {}
}
