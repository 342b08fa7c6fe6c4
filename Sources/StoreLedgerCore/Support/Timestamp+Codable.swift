// Codable forms of the ledger's vocabulary: the names the log and answers use, so a
// `Holdings` encoded with JSONEncoder reads like the CLI's answer. The closed sets
// (`EventKind`, `Ownership`, `Offer`, `SubscriptionStatus`, `TrialState`) have the log's names
// as `String` raw values, so the standard library's `RawRepresentable` coding is theirs; only
// `Timestamp`, a number coded as RFC 3339 text, needs its own.

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
