/// The server's routes (Docs/serve.md), found from a request's method and path.
package enum Route: Sendable, Equatable {
  /// `POST /v1/appstore/notifications`: App Store Server Notifications V2.
  case appStoreNotifications
  /// `POST /v1/googleplay/pubsub`: a Pub/Sub push of Real-time developer notifications.
  case googlePlayPubSub
  /// `POST /v1/events`: ledger events as JSON lines.
  case events
  /// `GET /v1/subjects/{id}`: the `query` answer.
  case subject(String)
  /// `GET /v1/subjects/{id}/can`: the `can` answer.
  case subjectCan(String)
  /// `GET /v1/policy`: the catalog's policy, as `storeledger policy` describes it.
  case policy
  /// `GET /v1/changes`: committed batches as Server-Sent Events.
  case changes
  /// `GET /healthz`.
  case health
  /// `GET /metrics`: Prometheus text.
  case metrics

  /// The route's name in metrics and the access log (the template, never the subject).
  package var name: String {
    switch self {
    case .appStoreNotifications: return "/v1/appstore/notifications"
    case .googlePlayPubSub: return "/v1/googleplay/pubsub"
    case .events: return "/v1/events"
    case .subject: return "/v1/subjects/{id}"
    case .subjectCan: return "/v1/subjects/{id}/can"
    case .policy: return "/v1/policy"
    case .changes: return "/v1/changes"
    case .health: return "/healthz"
    case .metrics: return "/metrics"
    }
  }

  /// The method the route takes.
  var method: String {
    switch self {
    case .appStoreNotifications, .googlePlayPubSub, .events: return "POST"
    default: return "GET"
    }
  }

  /// The subject a route names, if any.
  package var subject: String? {
    switch self {
    case .subject(let id), .subjectCan(let id): return id
    default: return nil
    }
  }

  /// The route of `method` and the encoded `path`; each path segment is percent-decoded.
  /// - Throws: `notFound`, or `methodNotAllowed` for a known path with another method.
  /// - Complexity: O(path).
  package static func find(method: String, path: String) throws(RequestFailure) -> Route {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
      HTTPRequestParser.percentDecoded(Array($0.utf8)[...], plusIsSpace: false) ?? ""
    }
    let route: Route
    switch segments {
    case ["v1", "appstore", "notifications"]: route = .appStoreNotifications
    case ["v1", "googleplay", "pubsub"]: route = .googlePlayPubSub
    case ["v1", "events"]: route = .events
    case ["v1", "policy"]: route = .policy
    case ["v1", "changes"]: route = .changes
    case ["healthz"]: route = .health
    case ["metrics"]: route = .metrics
    default:
      if segments.count == 3, segments[0] == "v1", segments[1] == "subjects", !segments[2].isEmpty {
        route = .subject(segments[2])
      } else if segments.count == 4, segments[0] == "v1", segments[1] == "subjects", !segments[2].isEmpty, segments[3] == "can" {
        route = .subjectCan(segments[2])
      } else {
        throw .server(.notFound(path: path))
      }
    }
    // HEAD is not served: every answer has a body.
    guard method == route.method else { throw .server(.methodNotAllowed(method: method, allowed: [route.method])) }
    return route
  }
}
