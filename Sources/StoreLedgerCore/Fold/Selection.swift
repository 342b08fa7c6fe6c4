/// What an answer reports out of a folded state at T (Docs/semantics.md, "Answers"): per
/// entitlement the grant that decides it, per subscription group the plan.
///
/// Pure and reusable: buffers are kept across calls, so selecting allocates nothing once warm.
package struct Selection {
  /// Nothing selected yet.
  package init() {}

  /// A subscription or grant competing to be reported.
  package struct Candidate {
    package var isSet = false
    package var isSubscription = false
    /// The subscription number or the grant's position in `SubjectState.items`.
    package var index = 0
    var expires = Timestamp.distantPast
    var start = Timestamp.distantPast
    var line: UInt32 = 0

    /// Never-ending first, then latest end, then latest start, then later line.
    func beats(_ other: Candidate) -> Bool {
      guard other.isSet else { return true }
      if expires != other.expires { return expires > other.expires }
      if start != other.start { return start > other.start }
      return line > other.line
    }
  }

  /// Per entitlement (index into the catalog's entitlement names): the grant reported, if any.
  package private(set) var bestByEntitlement: [Candidate] = []
  /// Per subscription group: the plan reported, if any.
  package private(set) var bestByGroup: [Candidate] = []
  /// The entitlements that would be active at T but are blocked (contract v1.3, section 10), by
  /// catalog index, ascending; a stale cached answer keeps them.
  package private(set) var blockedEntitlements: [Int] = []

  /// Picks, per entitlement and per group, what is reported at T.
  /// - Complexity: O(subscriptions + grants + entitlements + groups).
  package mutating func select(_ state: SubjectState, at time: Timestamp, catalog: Catalog) {
    bestByEntitlement.removeAll(keepingCapacity: true)
    bestByEntitlement.append(contentsOf: repeatElement(Candidate(), count: catalog.entitlementNames.count))
    bestByGroup.removeAll(keepingCapacity: true)
    bestByGroup.append(contentsOf: repeatElement(Candidate(), count: catalog.groupNames.count))
    for (index, sub) in state.subscriptions.enumerated() where sub.isKnown {
      let access = sub.hasAccess(at: time)
      let candidate = Candidate(
        isSet: true, isSubscription: true, index: index, expires: sub.expires, start: sub.periodStart,
        line: sub.periodLine)
      if access {
        for entitlement in catalog.entitlementIndices[Int(sub.product.rawValue)]
        where candidate.beats(bestByEntitlement[entitlement]) {
          bestByEntitlement[entitlement] = candidate
        }
      }
      let group = catalog.groupIndices[Int(sub.product.rawValue)]
      let current = bestByGroup[group]
      // Plans: a subscription with access beats one without; then the latest period start.
      let currentAccess = current.isSet && state.subscriptions[current.index].hasAccess(at: time)
      if !current.isSet || (access && !currentAccess)
        || (access == currentAccess
          && (sub.periodStart > current.start || (sub.periodStart == current.start && sub.periodLine > current.line)))
      {
        bestByGroup[group] = candidate
      }
    }
    for index in state.grantPositions {
      let item = state.items[index]
      guard item.hasAccess(at: time) else { continue }
      let candidate = Candidate(
        isSet: true, isSubscription: false, index: index, expires: item.end, start: item.start,
        line: item.line)
      if item.isGrant {
        var mask = item.entitlementMask
        while mask != 0 {
          let entitlement = mask.trailingZeroBitCount
          mask &= mask - 1
          if entitlement < bestByEntitlement.count && candidate.beats(bestByEntitlement[entitlement]) {
            bestByEntitlement[entitlement] = candidate
          }
        }
        continue
      }
      for entitlement in catalog.entitlementIndices[Int(item.product.rawValue)]
      where candidate.beats(bestByEntitlement[entitlement]) {
        bestByEntitlement[entitlement] = candidate
      }
    }
    blockedEntitlements.removeAll(keepingCapacity: true)
    guard state.hasBlockEvents else { return }
    for entitlement in bestByEntitlement.indices where bestByEntitlement[entitlement].isSet && state.isBlocked(entitlement) {
      bestByEntitlement[entitlement].isSet = false
      blockedEntitlements.append(entitlement)
    }
  }

  /// The services blocking `entitlement` in `state`, by `since`, ties by service name.
  /// - Complexity: O(s log s) for s services.
  package static func blockers(of entitlement: Int, in state: SubjectState, name: (Symbol) -> String) -> [BlockState] {
    state.blocks.filter { $0.blocks(entitlement) }.sorted {
      $0.since != $1.since ? $0.since < $1.since : name($0.service) < name($1.service)
    }
  }

  /// Reports nothing as active (a stale cached answer).
  mutating func clear() {
    for index in bestByEntitlement.indices { bestByEntitlement[index].isSet = false }
    for index in bestByGroup.indices { bestByGroup[index].isSet = false }
  }
}
