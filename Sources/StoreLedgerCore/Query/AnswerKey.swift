/// The member names of an answer object (Docs/semantics.md, "Answers"): the one table the
/// JSON value (`Holdings.jsonValue`, which `Holdings`' `Encodable` writes) and its `Decodable`
/// take their keys from.
///
/// `audit`'s byte writer (`QueryEngine.writeAnswer`) keeps its pieces as literals: pieces
/// built from this table at run time cost 2 % of `audit` (copies of a length unknown at
/// compile time). `AnswerKeyTests` holds its lines to these names instead.
package enum AnswerKey: String, CaseIterable, Sendable {
  // The answer.
  case subject
  case at
  case asOf = "as_of"
  case entitlements
  case plans
  case balances
  case cache
  case blocked
  case tier
  case trial
  case usage
  case explain
  // An entitlement and a plan.
  case product
  case state
  case expires
  case graceExpires = "grace_expires"
  case ownership
  case period
  case willRenew = "will_renew"
  case renewsTo = "renews_to"
  case originalTransaction = "original_transaction"
  case transaction
  // A blocking service in `blocked`.
  case service
  case since
  // `cache`.
  case verifiedAt = "verified_at"
  case stale
  // `trial`.
  case started
  case ends
  case endsBy = "ends_by"
  case graceEnds = "grace_ends"
  // A feature of `usage`.
  case allowed
  case used
  case limit
  case windowEnds = "window_ends"
  // `explain`.
  case absent
  case events
  case reason
  case id
  case line

  /// The name in the answer object.
  package var name: String { rawValue }
}
