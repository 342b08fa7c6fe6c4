/// The billing state of an auto-renewable subscription (Docs/semantics.md).
///
/// `rawValue` is the answers' name (`billing_retry`), and `Codable` is that string.
public enum SubscriptionStatus: String, Sendable, CaseIterable, Codable {
  case active
  case billingRetry = "billing_retry"
  case grace
  case expired
  case revoked

  /// The name used in answers (the public spelling is `rawValue`, the same text).
  package var name: String { staticName.description }

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

// Its storage code sits here, not beside the others in Events/EventKind+StorageCode.swift,
// because Events/ may not use Fold/ (Docs/architecture.md, the layer table).
extension SubscriptionStatus {
  /// The state's number in snapshots and wherever a state is stored as a byte.
  @inlinable package var storageCode: UInt8 {
    switch self {
    case .active: return 0
    case .billingRetry: return 1
    case .grace: return 2
    case .expired: return 3
    case .revoked: return 4
    }
  }

  /// The state stored as `code`, or nil for a number none has.
  @inlinable package init?(storageCode code: UInt8) {
    switch code {
    case 0: self = .active
    case 1: self = .billingRetry
    case 2: self = .grace
    case 3: self = .expired
    case 4: self = .revoked
    default: return nil
    }
  }
}
