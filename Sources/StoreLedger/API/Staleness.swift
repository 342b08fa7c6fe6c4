import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// How long after its verification a cached answer may still show access (an ISO 8601
/// duration such as `PT24H` or `P3D`; Docs/semantics.md, "Cached answers").
public struct Staleness: Hashable, Sendable, CustomStringConvertible {
  let duration: ISODuration
  /// The default budget, `PT24H`.
  public static let standard = Staleness(duration: CacheRequest.defaultMaxStaleness)
  /// Parses an ISO 8601 duration; nil if it is not one.
  public init?(iso8601 text: String) {
    guard let duration = ISODuration(text) else { return nil }
    self.duration = duration
  }
  init(duration: ISODuration) { self.duration = duration }
  /// The ISO 8601 form.
  public var description: String { duration.description }
}
