/// The shared-secret check of Pub/Sub push requests (`--pubsub-token`): the push endpoint is
/// configured as `https://host/v1/googleplay/pubsub?token=SECRET` (or a proxy adds
/// `Authorization: Bearer SECRET`); Docs/serve.md says why and how.
enum PushToken {
  /// Passes when the request carries the expected token.
  /// - Throws: `token_missing` (401) or `token_rejected` (403).
  /// - Complexity: O(token length), in time independent of where the tokens differ.
  static func check(_ request: HTTPRequest, expected: String) throws(RequestFailure) {
    var given = request.query["token"]
    if given == nil, let authorization = request.header("authorization"), authorization.hasPrefix("Bearer ") {
      given = String(authorization.dropFirst("Bearer ".count))
    }
    guard let given else { throw .server(.tokenMissing) }
    guard isEqual(Array(given.utf8), Array(expected.utf8)) else { throw .server(.tokenWrong) }
  }

  /// Compares without stopping at the first difference, so timing does not reveal a prefix.
  static func isEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
  }
}
