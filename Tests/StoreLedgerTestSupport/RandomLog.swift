@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage
@testable import StoreLedgerGenerate

/// SplitMix64: a tiny seeded generator so randomized tests replay exactly.
package struct SeededGenerator: RandomNumberGenerator {
  package var state: UInt64
  package init(seed: UInt64) { state = seed }
  package mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// The seed for randomized tests: `STORELEDGER_SEED` replays a failure, otherwise fixed seeds.
package func testSeeds(_ defaults: [UInt64]) -> [UInt64] {
  if let text = ProcessInfoShim.environment("STORELEDGER_SEED"), let seed = UInt64(text) { return [seed] }
  return defaults
}

import Foundation

package enum ProcessInfoShim {
  package static func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
}

/// A random valid log over the Events catalog: every event type, distinct `at` values,
/// no duplicates, no overdraw; lines in `lines` are in effective order (shuffle them to test).
package struct RandomLog {
  package var lines: [String] = []
  package var subjects: [String] = []
  package var start = ts("2026-01-01T00:00:00Z")
  package var end = ts("2026-01-01T00:00:00Z")

  package init(seed: UInt64, subjects subjectCount: Int = 6, eventsPerSubject: Int = 30) {
    var random = SeededGenerator(seed: seed)
    var usedTimes = Set<Int64>()
    var counter = 0
    for s in 0..<subjectCount {
      let subject = "s\(s)"
      subjects.append(subject)
      var time = start.millisecondsSinceEpoch
      var balance: Int64 = 0
      var subs: [(original: String, current: String)] = []
      var charges: [(tx: String, credit: Int64)] = []
      for _ in 0..<eventsPerSubject {
        repeat { time += Int64.random(in: 1...(5 * 86_400_000), using: &random) } while usedTimes.contains(time)
        usedTimes.insert(time)
        counter += 1
        let at = Timestamp(millisecondsSinceEpoch: time)
        let id = "e\(counter)"
        let recorded = Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0
          ? #","recorded":"\#(at.adding(milliseconds: Int64.random(in: -86_400_000...(40 * 86_400_000), using: &random)).rfc3339)""#
          : ""
        func expires(_ days: Int64) -> String { at.adding(milliseconds: days * 86_400_000).rfc3339 }
        let head = #"{"id":"\#(id)","subject":"\#(subject)","at":"\#(at.rfc3339)"\#(recorded)"#
        let tx = "tx\(counter)"
        let sub = subs.randomElement(using: &random)
        switch Int.random(in: 0..<16, using: &random) {
        case 0, 1:
          let product = ["pro.monthly", "pro.annual", "voice.monthly"].randomElement(using: &random)!
          if let sub, Bool.random(using: &random), product != "voice.monthly" {
            lines.append(head + #","type":"purchase","product":"\#(product)","transaction":"\#(tx)","original_transaction":"\#(sub.original)","expires":"\#(expires(30))"}"#)
          } else {
            subs.append((tx, tx))
            lines.append(head + #","type":"purchase","product":"\#(product)","transaction":"\#(tx)","expires":"\#(expires(30))","offer":"trial"}"#)
          }
        case 2, 3:
          guard let sub else { fallthrough }
          lines.append(head + #","type":"renewal","product":"pro.monthly","transaction":"\#(tx)","original_transaction":"\#(sub.original)","expires":"\#(expires(31))"}"#)
          charges.append((tx, 0))
        case 4:
          lines.append(head + #","type":"billing_retry","original_transaction":"\#(sub?.original ?? "nope")"}"#)
        case 5:
          lines.append(head + #","type":"grace_entered","original_transaction":"\#(sub?.original ?? "nope")","grace_expires":"\#(expires(3))"}"#)
        case 6:
          lines.append(head + #","type":"expiration","original_transaction":"\#(sub?.original ?? "nope")","reason":"billing"}"#)
        case 7:
          lines.append(head + #","type":"auto_renew_changed","original_transaction":"\#(sub?.original ?? "nope")","auto_renew":\#(Bool.random(using: &random))}"#)
        case 8:
          lines.append(head + #","type":"plan_changed","original_transaction":"\#(sub?.original ?? "nope")","product":"pro.annual"}"#)
        case 9:
          lines.append(head + #","type":"renewal_extended","original_transaction":"\#(sub?.original ?? "nope")","expires":"\#(expires(10))"}"#)
        case 10:
          let product = ["pro.lifetime", "trial.14d", "pass.week", "pass.month"].randomElement(using: &random)!
          lines.append(head + #","type":"purchase","product":"\#(product)","transaction":"\#(tx)"}"#)
          charges.append((tx, 0))
        case 11:
          let quantity = Int64.random(in: 1...3, using: &random)
          lines.append(head + #","type":"purchase","product":"coins.100","transaction":"\#(tx)","quantity":\#(quantity)}"#)
          charges.append((tx, quantity * 100))
          balance += quantity * 100
        case 12:
          guard balance > 0 else { fallthrough }
          let quantity = Int64.random(in: 1...balance, using: &random)
          lines.append(head + #","type":"consumption","currency":"coins","quantity":\#(quantity)}"#)
          balance -= quantity
        case 13:
          guard let charge = charges.randomElement(using: &random) else { fallthrough }
          lines.append(head + #","type":"revocation","transaction":"\#(charge.tx)","reason":"refund"}"#)
          // Keep later spends covered however often it is revoked.
          balance -= charge.credit
        case 14:
          guard let charge = charges.randomElement(using: &random) else { fallthrough }
          lines.append(head + #","type":"refund_reversed","transaction":"\#(charge.tx)"}"#)
        default:
          lines.append(head + #","type":"purchase_pending","product":"pro.annual"}"#)
        }
      }
      end = max(end, Timestamp(millisecondsSinceEpoch: time))
    }
  }

  /// Random (subject, at, as_of) points spread over the log's time span.
  package func queries(count: Int, seed: UInt64) -> [(String, Timestamp, Timestamp?)] {
    var random = SeededGenerator(seed: seed)
    let span = end.millisecondsSinceEpoch - start.millisecondsSinceEpoch + 86_400_000 * 60
    return (0..<count).map { _ in
      let at = start.adding(milliseconds: Int64.random(in: -86_400_000...span, using: &random))
      let asOf: Timestamp? = Bool.random(using: &random)
        ? start.adding(milliseconds: Int64.random(in: 0...span, using: &random)) : nil
      return ((subjects + ["ghost"]).randomElement(using: &random)!, at, asOf)
    }
  }
}
