import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerGenerate

/// A timeline's lanes say what `query --at` would answer inside them, for subjects that transfers
/// join too (contract v1.3, section 9): checked against the owner chains and the query engine,
/// which compute ownership without the timeline's per-instant gathering.
@Suite("Timelines of transferred units agree with owner(U, T) and with query")
struct TransferTimelineTests {
  @Test(
    "on generated v1.3 logs, a subscription lane closes exactly where its unit passes to another owner, and entitlement intervals are query's answers at their edges",
    arguments: [UInt64(33), 34])
  func lanesFollowOwners(seed: UInt64) throws {
    let options = GeneratorOptions(subjects: 150, seed: seed, usage: .none, contract: .v1_3, transfers: true)
    let (bytes, _) = generatedLog(options)
    let loaded = try ledger(String(decoding: bytes, as: UTF8.self), catalogText: LogGenerator.catalogJSON(for: options.usage))
    let owners = loaded.owners
    #expect(owners.units.contains { !$0.isPurchase }, "the log has transferred subscriptions")
    var engine = QueryEngine(ledger: loaded)
    var closings = 0
    for party in 0..<Int32(owners.partyNames.count) {
      let name = owners.partyNames[Int(party)]
      let timeline = try #require(loaded.timeline(named: name))
      for number in owners.unitsOfParty[Int(party)] {
        let unit = owners.units[Int(number)]
        guard !unit.isPurchase else { continue }
        let original = loaded.symbols.transactions.string(unit.name)
        let changes = timeline.subscriptions.first { $0.0 == original }?.1 ?? []
        // Every closing is a passing away from this party.
        for change in changes where change.state == SubjectTimeline.transferredAway {
          closings += 1
          #expect(unit.owner(at: change.at.adding(milliseconds: -1), knownBy: .distantFuture) == party, "\(name) \(original)")
          #expect(unit.owner(at: change.at, knownBy: .distantFuture) != party, "\(name) \(original) at \(change.at)")
        }
        // Every passing away of a unit the lane holds open is a closing at that instant.
        for step in unit.steps where step.from == party {
          let at = step.transfer.at
          guard unit.owner(at: at, knownBy: .distantFuture) != party,
            let before = changes.last(where: { $0.at < at }), before.state != SubjectTimeline.transferredAway
          else { continue }
          #expect(changes.contains { $0.at == at && $0.state == SubjectTimeline.transferredAway }, "\(name) \(original) at \(at)")
        }
      }
      // Entitlement intervals at their edges: held at `from`, not 1 ms before unless an interval ends there.
      for (entitlement, intervals) in timeline.entitlements {
        for interval in intervals {
          let held = engine.answer(subject: name, at: interval.from, asOf: nil, explain: false).entitlements
          #expect(held[entitlement] != nil, "\(name) \(entitlement) at \(interval.from)")
          if let end = interval.to, !intervals.contains(where: { $0.from == end }) {
            let after = engine.answer(subject: name, at: end, asOf: nil, explain: false).entitlements
            #expect(after[entitlement] == nil, "\(name) \(entitlement) at \(end)")
          }
        }
      }
    }
    #expect(closings > 0, "some lane closes at a transfer")
  }
}
