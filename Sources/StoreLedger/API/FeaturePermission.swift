import StoreLedgerCore
import StoreLedgerImport
import StoreLedgerStorage

/// The answer to "may this subject use this feature once more at T?" (`storeledger can`).
/// `Codable` as exactly the JSON line `can` prints (one writer for both).
public struct FeaturePermission: Hashable, Codable, Sendable {
  /// The subject asked about.
  public var subject: SubjectID
  /// The feature asked about.
  public var feature: FeatureID
  /// The effective time T.
  public var at: Timestamp
  /// The knowledge time (a cached answer's verification time); nil for everything known.
  public var asOf: Timestamp?
  /// Whether one more use is allowed at T.
  public var allowed: Bool
  /// The tier that allows it (else the first matching tier listing it); nil when none lists it.
  public var tier: String?
  /// Uses before T in that tier's window.
  public var used: Int64
  /// That tier's limit; nil for unlimited.
  public var limit: Int64?
  /// Where the window ends; nil for a window that never resets.
  public var windowEnds: Timestamp?
  /// When not allowed: the first tier the subject is not in that would allow it.
  public var wouldAllow: String?
  /// One sentence saying why (the `reason` of `can`).
  public var reason: String

  /// The typed form of an engine decision.
  init(_ permission: Permission, feature: FeatureID) {
    subject = SubjectID(rawValue: permission.subject)
    self.feature = feature
    at = permission.at
    asOf = permission.asOf
    allowed = permission.usage.allowed
    tier = permission.usage.tier
    used = permission.usage.used
    limit = permission.usage.limit
    windowEnds = permission.usage.windowEnds
    wouldAllow = permission.wouldAllow
    reason = permission.reason(feature: feature.rawValue)
  }

  /// Encodes the line `storeledger can` prints.
  public func encode(to encoder: any Encoder) throws {
    let permission = Permission(
      subject: subject.rawValue, at: at, asOf: asOf, tier: nil,
      usage: Holdings.FeatureUsage(allowed: allowed, tier: tier, used: used, limit: limit, windowEnds: windowEnds),
      wouldAllow: wouldAllow)
    guard case .object(var members) = permission.jsonValue(feature: feature.rawValue) else {
      preconditionFailure("a permission is an object")
    }
    // The reason is a field like the others: a decoded, edited value encodes as it is.
    if let index = members.firstIndex(where: { $0.0 == PermissionKey.reason.name }) { members[index].1 = .string(reason) }
    try JSONValue.object(members).encode(to: encoder)
  }

  /// Decodes a `storeledger can` line.
  public init(from decoder: any Decoder) throws {
    let json = try JSONObjectReader(try JSONValue(from: decoder), codingPath: decoder.codingPath)
    subject = SubjectID(rawValue: try json.string(PermissionKey.subject.name))
    feature = FeatureID(rawValue: try json.string(PermissionKey.feature.name))
    at = try json.time(PermissionKey.at.name)
    asOf = try json.optionalTime(PermissionKey.asOf.name)
    allowed = try json.bool(PermissionKey.allowed.name)
    tier = try json.optionalString(PermissionKey.tier.name)
    used = try json.integer(PermissionKey.used.name)
    limit = try json.optionalInteger(PermissionKey.limit.name)
    windowEnds = try json.optionalTime(PermissionKey.windowEnds.name)
    wouldAllow = try json.optionalString(PermissionKey.wouldAllow.name)
    reason = try json.string(PermissionKey.reason.name)
  }
}
