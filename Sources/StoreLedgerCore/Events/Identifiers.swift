/// A subject: the account or person whose access the ledger tracks (the log's `subject`).
public struct SubjectID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringInterpolation {
  /// The id as written in the log.
  public var rawValue: String
  /// Wraps an id.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps an id literal (interpolations too: `"web-\(n)"`).
  public init(stringLiteral value: String) { rawValue = value }
}

/// A store transaction (the log's `transaction` and `original_transaction`).
public struct TransactionID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringInterpolation {
  /// The id as written in the log.
  public var rawValue: String
  /// Wraps an id.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps an id literal (interpolations too: `"web-\(n)"`).
  public init(stringLiteral value: String) { rawValue = value }
}

/// An event's unique id (the log's `id`): re-appending an event with the same id is a no-op.
public struct EventID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringInterpolation {
  /// The id as written in the log.
  public var rawValue: String
  /// Wraps an id.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps an id literal (interpolations too: `"web-\(n)"`).
  public init(stringLiteral value: String) { rawValue = value }
}

/// A product id of the catalog.
public struct ProductID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringInterpolation {
  /// The id as written in the catalog.
  public var rawValue: String
  /// Wraps an id.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps an id literal (interpolations too: `"web-\(n)"`).
  public init(stringLiteral value: String) { rawValue = value }
}

/// A metered feature of the catalog's `policy` (`decision_session`).
public struct FeatureID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringInterpolation {
  /// The name as written in the catalog.
  public var rawValue: String
  /// Wraps a name.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Wraps a name literal.
  public init(stringLiteral value: String) { rawValue = value }
}
