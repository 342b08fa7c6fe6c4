/// The billing state of an auto-renewable subscription (Docs/semantics.md).
public enum SubscriptionStatus: UInt8, Sendable {
  case active
  case billingRetry
  case grace
  case expired
  case revoked

  /// The name used in answers.
  public var name: String { staticName.description }

  /// The name as a static string, for writers that must not allocate.
  package var staticName: StaticString {
    switch self {
    case .active: return "active"
    case .billingRetry: return "billing_retry"
    case .grace: return "grace"
    case .expired: return "expired"
    case .revoked: return "revoked"
    }
  }
}
