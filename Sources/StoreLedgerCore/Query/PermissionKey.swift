/// The member names of a `can` answer line (Docs/commands.md, `can`; printed sorted): the one
/// table the writer (`Permission.jsonValue`) and `FeaturePermission`'s decoder take their keys from.
package enum PermissionKey: String, CaseIterable, Sendable {
  case subject
  case feature
  case at
  case asOf = "as_of"
  case allowed
  case tier
  case used
  case limit
  case windowEnds = "window_ends"
  case wouldAllow = "would_allow"
  case reason

  /// The name in the line.
  package var name: String { rawValue }
}
