import Dispatch

/// How many subjects hold each entitlement at an instant (for `replay`).
package enum ActiveEntitlements {
  /// Subjects per unit of work handed to a core (as `SubjectSettler.subjectsPerChunk`).
  static let subjectsPerChunk = 2048

  /// Per entitlement id (sorted), the number of subjects holding it at T with full knowledge
  /// (those only a transfer names included). Subjects are folded in chunks on every core, each
  /// chunk with its own engine and counts: the sum does not depend on how they are cut.
  /// - Complexity: O(events); wall time divided by the cores.
  package static func count(in ledger: Ledger, at time: Timestamp) -> [(entitlement: String, subjects: Int)] {
    let entitlementCount = ledger.catalog.entitlementNames.count
    let subjectCount = ledger.subjectCount
    let chunkCount = max(1, (subjectCount + subjectsPerChunk - 1) / subjectsPerChunk)
    var chunkCounts = [[Int]](repeating: [], count: chunkCount)
    chunkCounts.withUnsafeMutableBufferPointer { all in
      // Each chunk writes only its own slot.
      nonisolated(unsafe) let shared = all
      DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
        var engine = QueryEngine(ledger: ledger)
        var counts = [Int](repeating: 0, count: entitlementCount)
        let first = chunk * subjectsPerChunk
        for s in first..<min(first + subjectsPerChunk, subjectCount) {
          engine.forEachActiveEntitlement(subject: Symbol(rawValue: UInt32(s)), at: time) { counts[$0] += 1 }
        }
        shared[chunk] = counts
      }
    }
    var counts = [Int](repeating: 0, count: entitlementCount)
    for chunk in chunkCounts {
      for (index, count) in chunk.enumerated() { counts[index] += count }
    }
    // Subjects only a transfer names hold what was moved to them (contract v1.3, section 9).
    var engine = QueryEngine(ledger: ledger)
    for name in ledger.receiversWithoutLines {
      engine.forEachActiveEntitlement(receiver: name, at: time) { counts[$0] += 1 }
    }
    return zip(ledger.catalog.entitlementNames, counts).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
  }
}
