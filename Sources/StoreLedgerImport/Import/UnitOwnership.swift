import StoreLedgerCore

/// A store document naming who owns a unit from some instant on: an App Store transaction's
/// `appAccountToken`, a Google Play resource's `obfuscatedExternalAccountId`.
struct OwnerClaim {
  /// The subject the document names.
  var owner: String
  /// The earliest instant the document shows that owner.
  var at: Timestamp
  /// When it was learned (the document's signing or fetch time); nil: known from `at`.
  var recorded: Timestamp?
  /// The input line, for diagnostics; 0 for a claim the log stands in for.
  var line: Int
}

/// A `transfer` an import writes: the unit moves from `from` to `to` at `at`.
struct OwnerChange: Equatable {
  /// The owner before.
  var from: String
  /// The owner from `at` on.
  var to: String
  /// When the store data first shows `to`.
  var at: Timestamp
  /// When it was learned.
  var recorded: Timestamp?
  /// The input line of the claim that shows it (0: the log's own charge).
  var line: Int
}

/// Who owns one unit when, from its first owner, the transfers the log holds and the claims of
/// an import (contract v1.3, section 9): the transfers that make every claim true, as far as
/// the owner chain rules let them.
///
/// Pure and order-free: claims are taken by (`at`, `recorded`, owner), so any order of the same
/// claims gives the same transfers. A claim that would need a transfer before one the log holds
/// from another owner cannot be written without breaking the chain (a transfer comes from the
/// unit's owner, section 9); it is returned as refused, for a warning.
struct UnitOwnership {
  /// The subject the unit's events carry.
  let firstOwner: String
  /// The chain so far: the log's transfers and the ones this import adds, by `at` (a later
  /// line after earlier ones at the same instant, as the log orders them).
  private(set) var chain: [(at: Timestamp, from: String, to: String)]

  /// The ownership of a unit whose log holds `known` (in log order).
  init(firstOwner: String, known: [KnownTransfer]) {
    self.firstOwner = firstOwner
    // A stable sort keeps log order among transfers at one instant.
    chain = known.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
      .map { ($0.element.at, $0.element.from, $0.element.to) }
  }

  /// The owner at `instant`: the `to` of the last transfer at or before it, else the first owner.
  /// - Complexity: O(t) in the chain's length.
  func owner(at instant: Timestamp) -> String {
    chain.last(where: { $0.at <= instant })?.to ?? firstOwner
  }

  /// The transfers that make `claims` true, and the claims the chain refuses.
  /// - Complexity: O(c · (log c + t)) in the claims and the chain's length.
  mutating func changes(for claims: [OwnerClaim]) -> (changes: [OwnerChange], refused: [OwnerClaim]) {
    var changes: [OwnerChange] = []
    var refused: [OwnerClaim] = []
    let ordered = claims.sorted {
      ($0.at, $0.recorded ?? $0.at, $0.owner) < ($1.at, $1.recorded ?? $1.at, $1.owner)
    }
    for claim in ordered {
      let owner = owner(at: claim.at)
      guard owner != claim.owner else { continue }
      let position = chain.firstIndex(where: { $0.at > claim.at }) ?? chain.count
      if position < chain.count, chain[position].from != claim.owner {
        refused.append(claim)
        continue
      }
      chain.insert((claim.at, owner, claim.owner), at: position)
      changes.append(
        OwnerChange(from: owner, to: claim.owner, at: claim.at, recorded: claim.recorded, line: claim.line))
    }
    return (changes, refused)
  }
}
