/// How many subjects hold each entitlement at an instant (for `replay`).
package enum ActiveEntitlements {
  /// Per entitlement id (sorted), the number of subjects holding it at T with full knowledge
  /// (those only a transfer names included).
  /// - Complexity: O(events).
  package static func count(in ledger: Ledger, at time: Timestamp) -> [(entitlement: String, subjects: Int)] {
    var engine = QueryEngine(ledger: ledger)
    var counts = [Int](repeating: 0, count: ledger.catalog.entitlementNames.count)
    for s in 0..<ledger.subjectCount {
      engine.forEachActiveEntitlement(subject: Symbol(rawValue: UInt32(s)), at: time) { counts[$0] += 1 }
    }
    // Subjects only a transfer names hold what was moved to them (contract v1.3, section 9).
    for name in ledger.receiversWithoutLines {
      engine.forEachActiveEntitlement(receiver: name, at: time) { counts[$0] += 1 }
    }
    return zip(ledger.catalog.entitlementNames, counts).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
  }
}
