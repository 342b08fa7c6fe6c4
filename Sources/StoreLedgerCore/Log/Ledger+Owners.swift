/// Builds the owner chains of a loaded ledger and checks the rules of contract v1.3, section 9,
/// as the whole log knows them: a unit named one way, by the field its kind takes; never a
/// consumable; the first transfer from a subject with a line naming the unit; each later one
/// from the previous one's `to`.
extension Ledger {
  /// Whether the log names `subject`: it has lines, or a transfer moves a unit to it.
  package func knows(subject: String) -> Bool {
    self.subject(named: subject) != nil || owners.party(named: subject) != nil
  }

  /// The subject ids only a transfer's `to` names (no line of their own), sorted by their bytes:
  /// subjects of the ledger all the same, whose answers come from the units moved to them.
  /// - Complexity: O(parties of the ledger's owner chains).
  package var receiversWithoutLines: [String] {
    guard !owners.isEmpty else { return [] }
    return zip(owners.partyNames, owners.partySubjects).filter { !$0.1.isSome }.map(\.0).sorted {
      $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
  }

  /// The subjects the log names: those with lines and those only a transfer names.
  package var namedSubjectCount: Int { subjectCount + receiversWithoutLines.count }

  /// `subjects` (raw symbols) with every subject some transfer joins to one of them (contract
  /// v1.3, section 9: what an append must fold together to check a chain and answer a unit).
  /// - Complexity: O(parties of the ledger's owner chains); `subjects` alone without transfers.
  package func withGroups(of subjects: Set<UInt32>) -> Set<UInt32> {
    guard !owners.isEmpty else { return subjects }
    let leaders = owners.groupLeaders()
    var wanted = Set<Int32>()
    for subject in subjects {
      if let party = owners.party(of: Symbol(rawValue: subject)) { wanted.insert(leaders[Int(party)]) }
    }
    guard !wanted.isEmpty else { return subjects }
    var result = subjects
    for (party, leader) in leaders.enumerated() where wanted.contains(leader) {
      let subject = owners.partySubjects[party]
      if subject.isSome { result.insert(subject.rawValue) }
    }
    return result
  }

  /// The subject ids of `names` and of every subject a transfer joins to one of them, `to`-only
  /// subjects included: whose answers an event of one of `names` may change (contract v1.3,
  /// section 9: a unit's lines answer for its owner of the moment).
  /// - Complexity: O(parties of the ledger's owner chains); `names` alone without transfers.
  package func withGroups(ofNames names: Set<String>) -> Set<String> {
    guard !owners.isEmpty else { return names }
    let leaders = owners.groupLeaders()
    let wanted = Set(names.compactMap { owners.party(named: $0).map { leaders[Int($0)] } })
    guard !wanted.isEmpty else { return names }
    var result = names
    for (party, leader) in leaders.enumerated() where wanted.contains(leader) { result.insert(owners.partyNames[party]) }
    return result
  }

  /// Drops the "names no purchase of this subject" warnings of lines that belong to a
  /// transferred unit: under the unit's later owners such lines are the unit's, folded with its
  /// charges under the first owner (contract v1.3, section 9), not references to nothing.
  /// - Complexity: O(warnings + events of the chains' subjects); nothing without transfers.
  package mutating func dropUnitReferenceWarnings() {
    guard !owners.isEmpty, warnings.contains(where: { $0.code == .unknownReference }) else { return }
    var unitLines = Set<Int>()
    for unit in owners.units {
      for subject in owners.subjects(of: unit) {
        for event in events(of: subject) where unit.names(event) { unitLines.insert(Int(event.line)) }
      }
    }
    warnings.removeAll { $0.code == .unknownReference && $0.line.map(unitLines.contains) == true }
  }

  /// Sets `owners` from the ledger's transfers and returns the errors of chains that break the
  /// rules (then `owners` is left empty: a log with errors is not answered from). Given
  /// `transferSubjects` (ascending; every subject with a transfer among its events), only their
  /// events are read to find the transfers.
  /// - Complexity: O(events), or O(events of `transferSubjects`), to find the transfers;
  ///   O(events of the chains' subjects) beyond.
  package mutating func settleOwners(file: String?, transferSubjects: [Symbol]? = nil) -> [Diagnostic] {
    owners = OwnerChains()
    let transfers = self.transfers(of: transferSubjects)
    guard !transfers.isEmpty else { return [] }
    var chains = OwnerChains()
    var stepsByUnit: [Symbol: [OwnerChains.Step]] = [:]
    var unitOrder: [Symbol] = []
    let parties = partyNames(of: transfers)
    for (k, (event, subject)) in transfers.enumerated() {
      let from = chains.addParty(named: parties[k].from, subject: subject)
      let to = chains.addParty(named: parties[k].to, subject: parties[k].toSubject)
      if stepsByUnit[event.transferredUnit] == nil { unitOrder.append(event.transferredUnit) }
      stepsByUnit[event.transferredUnit, default: []].append(OwnerChains.Step(transfer: event, from: from, to: to))
    }
    var problems: [Diagnostic] = []
    for (unit, problem) in checkedUnits(unitOrder.map { stepsByUnit[$0]! }, chains: chains) {
      if let problem {
        problems.append(Diagnostic(file: file, line: Int(problem.line), problem.problem))
        continue
      }
      chains.addUnit(unit)
    }
    if problems.isEmpty { owners = chains }
    return problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
  }

  /// The ledger's transfers with their subjects, in subject order: read from the events of
  /// `transferSubjects` when given (ascending; every subject with a transfer), else from every event.
  /// - Complexity: O(events), or O(events of `transferSubjects`).
  private func transfers(of transferSubjects: [Symbol]?) -> [(event: Event, subject: Symbol)] {
    var transfers: [(event: Event, subject: Symbol)] = []
    if relocated.isEmpty, let transferSubjects {
      // In subject order, as the scan below finds them: the chains' order does not depend on the path.
      for subject in transferSubjects {
        for event in events(of: subject) where event.kind == .transfer { transfers.append((event, subject)) }
      }
    } else if relocated.isEmpty {
      // One byte per event read in a plain loop: a log without transfers pays only this pass.
      events.withUnsafeBufferPointer { all in
        for index in all.indices where all[index].kind == .transfer {
          transfers.append((all[index], subject(ofEventAt: index)))
        }
      }
    } else {
      forEachEvent { event, subject in if event.kind == .transfer { transfers.append((event, subject)) } }
    }
    return transfers
  }

  /// Each transfer's `subject` and `to` as strings, and the ledger subject `to` names (`.none`:
  /// a `to` without lines). Random reads of the subjects' and transactions' tables, on every core.
  /// - Complexity: O(transfers).
  private func partyNames(of transfers: [(event: Event, subject: Symbol)]) -> [(from: String, to: String, toSubject: Symbol)] {
    .concurrentlyMapped(count: transfers.count, minimumPerPart: 128) { k in
      let toName = symbols.transactions.string(transfers[k].event.transferRecipient)
      return (symbols.subjects.string(transfers[k].subject), toName, subject(named: toName) ?? .none)
    }
  }

  /// Each unit of `stepsByUnit` (its transfers, in any order) with its steps in chain order and
  /// its charges, and the first rule of section 9 its chain breaks, if any; units on every core.
  /// - Complexity: O(events of the chains' subjects).
  private func checkedUnits(
    _ stepsByUnit: [[OwnerChains.Step]], chains: OwnerChains
  ) -> [(unit: OwnerChains.Unit, problem: (line: UInt32, problem: Problem)?)] {
    .concurrentlyMapped(count: stepsByUnit.count, minimumPerPart: 128) { k in
      let steps = stepsByUnit[k].sorted { Event.effectiveOrder($0.transfer, $1.transfer) }
      let name = steps[0].transfer.transferredUnit
      var unit = OwnerChains.Unit(name: name, isPurchase: steps[0].transfer.transferNamesTransaction, steps: steps, charges: [])
      unit.charges = charges(of: unit, chains: chains)
      return (unit, chainProblem(unit, chains: chains))
    }
  }

  /// The transactions of the charges naming the unit, under any subject of its chain, sorted.
  private func charges(of unit: OwnerChains.Unit, chains: OwnerChains) -> [Symbol] {
    var charges: [Symbol] = []
    for subject in chains.subjects(of: unit) {
      for event in events(of: subject) where event.kind.isCharge {
        if event.originalTransaction == unit.name || event.transaction == unit.name { charges.append(event.transaction) }
      }
    }
    return charges.sorted()
  }

  /// The first rule of section 9 the unit's chain breaks, with the line it is reported on.
  private func chainProblem(_ unit: OwnerChains.Unit, chains: OwnerChains) -> (line: UInt32, problem: Problem)? {
    func fail(_ step: OwnerChains.Step, _ field: String, _ detail: String) -> (UInt32, Problem) {
      (step.transfer.line, .ownerChain(field: field, unit: symbols.transactions.string(unit.name), detail: detail))
    }
    let namingField = unit.isPurchase ? "transaction" : "original_transaction"
    if let other = unit.steps.first(where: { $0.transfer.transferNamesTransaction != unit.isPurchase }) {
      let first = unit.steps.first { $0.transfer.transferNamesTransaction == unit.isPurchase }!
      return fail(
        other, other.transfer.transferNamesTransaction ? "transaction" : "original_transaction",
        "line \(first.transfer.line) names this unit by '\(namingField)'; a unit is named one way")
    }
    let first = unit.steps[0]
    let firstSubject = chains.partySubjects[Int(first.from)]
    let ownerName = chains.partyNames[Int(first.from)]
    let named = firstSubject.isSome ? events(of: firstSubject).filter { unit.names($0) } : []
    guard !named.isEmpty else {
      return fail(
        first, namingField,
        "subject '\(ownerName)' has no line naming it; the first transfer of a unit comes from a subject that holds it")
    }
    if let charge = named.first(where: { $0.kind.isCharge && $0.product.isSome }) {
      let kind = catalog.kind(charge.product)
      if kind == .consumable {
        return fail(
          first, namingField,
          "line \(charge.line) buys a consumable ('\(catalog[charge.product].id)'); a consumable's credit stays with its buyer")
      }
      if unit.isPurchase == (kind == .autoRenewable) {
        let expected = kind == .autoRenewable ? "original_transaction" : "transaction"
        return fail(
          first, namingField,
          "line \(charge.line) buys '\(catalog[charge.product].id)' (\(kind.rawValue)), a unit named by '\(expected)'")
      }
    }
    for (previous, step) in zip(unit.steps, unit.steps.dropFirst()) where step.from != previous.to {
      return fail(
        step, "subject",
        "it moves the unit from '\(chains.partyNames[Int(step.from)])', but line \(previous.transfer.line) moved it to "
          + "'\(chains.partyNames[Int(previous.to)])' before; a transfer comes from the unit's owner")
    }
    return nil
  }
}
