import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

// Codable forms of the ledger's vocabulary: the names the log and answers use, so a
// `Holdings` encoded with JSONEncoder reads like the CLI's answer.

extension Timestamp: Codable {
  /// Decodes an RFC 3339 string (`2026-03-01T10:00:00Z`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let time = Timestamp.parseRFC3339(text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an RFC 3339 time, found \(text)")
    }
    self = time
  }

  /// Encodes the RFC 3339 UTC form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rfc3339)
  }
}

/// A closed set of names, coded as its `name` (`billing_retry`, `family_shared`, `win_back`).
protocol NamedVocabulary {
  /// Every value.
  static var all: [Self] { get }
  /// The name in the log and in answers.
  var name: String { get }
}

extension NamedVocabulary {
  /// The value called `name`, if any.
  static func named(_ name: String) -> Self? { all.first { $0.name == name } }

  /// Decodes a name.
  static func decodeName(from decoder: any Decoder) throws -> Self {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let value = named(name) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown name \(name)")
    }
    return value
  }

  /// Encodes the name.
  func encodeName(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}

extension SubscriptionStatus: NamedVocabulary, Codable {
  static var all: [SubscriptionStatus] { allCases }
  /// Decodes a name (`billing_retry`).
  public init(from decoder: any Decoder) throws { self = try Self.decodeName(from: decoder) }
  /// Encodes the name.
  public func encode(to encoder: any Encoder) throws { try encodeName(to: encoder) }
}

extension Ownership: NamedVocabulary, Codable {
  static var all: [Ownership] { allCases }
  /// Decodes a name (`family_shared`).
  public init(from decoder: any Decoder) throws { self = try Self.decodeName(from: decoder) }
  /// Encodes the name.
  public func encode(to encoder: any Encoder) throws { try encodeName(to: encoder) }
}

extension Offer: NamedVocabulary, Codable {
  static var all: [Offer] { allCases }
  /// Decodes a name (`win_back`).
  public init(from decoder: any Decoder) throws { self = try Self.decodeName(from: decoder) }
  /// Encodes the name.
  public func encode(to encoder: any Encoder) throws { try encodeName(to: encoder) }
}

extension EventKind: NamedVocabulary, Codable {
  static var all: [EventKind] { allCases }
  /// Decodes a name (`auto_renew_changed`).
  public init(from decoder: any Decoder) throws { self = try Self.decodeName(from: decoder) }
  /// Encodes the name.
  public func encode(to encoder: any Encoder) throws { try encodeName(to: encoder) }
}
