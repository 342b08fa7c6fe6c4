/// Who owned each transferred unit when, in effective and knowledge time (contract v1.3,
/// section 9; Docs/semantics.md, "Ownership"): the one owner model every reader asks.
///
/// A unit (an auto-renewable subscription by its `original_transaction`, or a non-consumable or
/// non-renewing purchase by its `transaction`) has a chain of transfers in order of (`at`,
/// line). Subjects are *parties* here: a `to` may name a subject that has no line of its own.
/// Pure and immutable once built (`Ledger+Owners` builds it and checks the chains); a ledger
/// without transfers has an empty one, and then nothing else in a query changes.
package struct OwnerChains: Sendable {
  /// One transfer of a unit.
  package struct Step: Sendable {
    /// The `transfer` line itself (for its `at`, `recorded`, `line` and id).
    package var transfer: Event
    /// The party it moves the unit from (the line's `subject`).
    package var from: Int32
    /// The party it moves the unit to (`to`).
    package var to: Int32
  }

  /// A unit some transfer moves.
  package struct Unit: Sendable {
    /// Its name (interned in the transactions table).
    package var name: Symbol
    /// Whether its transfers name it by `transaction` (a non-consumable or non-renewing purchase).
    package var isPurchase: Bool
    /// Its transfers in order of (`at`, line); never empty.
    package var steps: [Step]
    /// The transactions of the unit's charges, sorted, so a refund naming one belongs to the unit.
    package var charges: [Symbol]

    /// Every party its chain names (a transfer's `subject` or `to`), each once, in party order.
    /// - Complexity: O(s log s) for s transfers of the unit.
    package var parties: [Int32] {
      var parties: [Int32] = []
      parties.reserveCapacity(steps.count * 2)
      for step in steps { parties.append(step.from); parties.append(step.to) }
      parties.sort()
      var unique = 0
      for party in parties where unique == 0 || parties[unique - 1] != party {
        parties[unique] = party
        unique += 1
      }
      parties.removeLast(parties.count - unique)
      return parties
    }

    /// The first owner: the first transfer's `subject`.
    package var firstOwner: Int32 { steps[0].from }

    /// Whether a transfer counts at (T, R): effective by T and known at R (contract section 4).
    @inlinable
    static func counts(_ step: Step, at time: Timestamp, knownBy: Timestamp) -> Bool {
      step.transfer.at <= time && step.transfer.recorded <= knownBy
    }

    /// owner(U, T, R): the `to` of the last counting transfer in chain order, else the first owner.
    /// - Complexity: O(transfers of the unit).
    package func owner(at time: Timestamp, knownBy: Timestamp) -> Int32 {
      var owner = firstOwner
      for step in steps where Self.counts(step, at: time, knownBy: knownBy) { owner = step.to }
      return owner
    }

    /// Whether `party`'s lines naming the unit are the unit's at (T, R): the first owner's
    /// always, another party's once a transfer to it counts.
    /// - Complexity: O(transfers of the unit).
    package func isMember(_ party: Int32, at time: Timestamp, knownBy: Timestamp) -> Bool {
      party == firstOwner || steps.contains { $0.to == party && Self.counts($0, at: time, knownBy: knownBy) }
    }

    /// Whether `event` is one of the unit's events (section 3's naming; transfers are not).
    @inlinable
    package func names(_ event: Event) -> Bool {
      event.names(unit: name) { transaction in Self.contains(charges, transaction) }
    }

    @inlinable
    static func contains(_ sorted: [Symbol], _ value: Symbol) -> Bool {
      var low = 0
      var high = sorted.count
      while low < high {
        let mid = (low + high) >> 1
        if sorted[mid] < value { low = mid + 1 } else { high = mid }
      }
      return low < sorted.count && sorted[low] == value
    }
  }

  /// Every transferred unit.
  package private(set) var units: [Unit] = []
  /// Each party's subject id.
  package private(set) var partyNames: [String] = []
  /// Each party's subject in the ledger (`.none`: a `to` without lines of its own).
  package private(set) var partySubjects: [Symbol] = []
  /// The units whose chains name each party, by party.
  package private(set) var unitsOfParty: [[Int32]] = []
  private var partyByName: [String: Int32] = [:]
  private var partyBySubject: [Symbol: Int32] = [:]
  /// A bit per ledger subject, set for those with a party: most subjects have none, and a
  /// bit tells so without hashing (`party(of:)` runs once per subject in every count).
  private var subjectHasParty: [UInt64] = []

  /// No transfers.
  package init() {}

  /// Whether the log has no transfer (then every answer is exactly as in v1.2).
  @inlinable
  package var isEmpty: Bool { units.isEmpty }

  /// The party with this subject id, if some transfer names it.
  package func party(named name: String) -> Int32? { isEmpty ? nil : partyByName[name] }

  /// The party of a ledger subject, if some transfer names it.
  package func party(of subject: Symbol) -> Int32? {
    let word = Int(subject.rawValue >> 6)
    guard !isEmpty, subject.isSome, word < subjectHasParty.count,
      subjectHasParty[word] & (1 << UInt64(subject.rawValue & 63)) != 0
    else { return nil }
    return partyBySubject[subject]
  }

  /// The party for a subject id, added when new; `subject` is the ledger's subject of that name
  /// (`.none` for a `to` without lines), by which a known party is found without hashing the name.
  package mutating func addParty(named name: String, subject: Symbol) -> Int32 {
    if subject.isSome, let party = partyBySubject[subject] { return party }
    if let party = partyByName[name] { return party }
    let party = Int32(partyNames.count)
    partyNames.append(name)
    partySubjects.append(subject)
    unitsOfParty.append([])
    partyByName[name] = party
    if subject.isSome {
      partyBySubject[subject] = party
      let word = Int(subject.rawValue >> 6)
      if word >= subjectHasParty.count { subjectHasParty.append(contentsOf: repeatElement(0, count: word + 1 - subjectHasParty.count)) }
      subjectHasParty[word] |= 1 << UInt64(subject.rawValue & 63)
    }
    return party
  }

  /// Adds a unit (its steps in chain order) and files it under every party its chain names.
  package mutating func addUnit(_ unit: Unit) {
    precondition(!unit.steps.isEmpty, "a unit is transferred at least once")
    let index = Int32(units.count)
    units.append(unit)
    for party in unit.parties { unitsOfParty[Int(party)].append(index) }
  }

  /// The ledger subjects of the parties `unit`'s chain names (a `to` without lines has none).
  package func subjects(of unit: Unit) -> [Symbol] {
    unit.parties.map { partySubjects[Int($0)] }.filter(\.isSome)
  }

  /// The instants from which `party`'s events at (T, `knownBy`) may change: the `at` of each
  /// transfer known at `knownBy` of a unit whose chain names the party, sorted, each once.
  /// Between two of them, and before the first, what `OwnedEventGathering` gathers for the party
  /// is the same at every T (every step it reads is of those units, and counts from its `at`).
  /// - Complexity: O(transfers of the party's units · log).
  package func changeInstants(of party: Int32, knownBy: Timestamp) -> [Timestamp] {
    var instants: [Timestamp] = []
    for number in unitsOfParty[Int(party)] {
      for step in units[Int(number)].steps where step.transfer.recorded <= knownBy { instants.append(step.transfer.at) }
    }
    instants.sort()
    var unique: [Timestamp] = []
    for instant in instants where unique.last != instant { unique.append(instant) }
    return unique
  }

  /// The groups of parties joined by the transfers known at `knownBy` (default: every transfer,
  /// whatever its `recorded`): for each party, the smallest party number of its group.
  /// - Complexity: O(transfers × α(parties)).
  package func groupLeaders(knownBy: Timestamp = .distantFuture) -> [Int32] {
    var parent = (0..<Int32(partyNames.count)).map { $0 }
    func find(_ x: Int32) -> Int32 {
      var x = x
      while parent[Int(x)] != x {
        parent[Int(x)] = parent[Int(parent[Int(x)])]
        x = parent[Int(x)]
      }
      return x
    }
    for unit in units {
      for step in unit.steps where step.transfer.recorded <= knownBy {
        let a = find(step.from)
        let b = find(step.to)
        if a != b { parent[Int(max(a, b))] = min(a, b) }
      }
    }
    return (0..<Int32(partyNames.count)).map { find($0) }
  }
}
