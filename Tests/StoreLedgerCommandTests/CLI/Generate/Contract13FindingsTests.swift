import Foundation
import StoreLedgerCLITestSupport
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerGenerate

/// What the property tests over generated v1.3 logs found in the engine, kept as failing cases.
@Suite("Findings over generated v1.3 logs")
struct Contract13FindingsTests {
  /// Ten lines cut down from a generated log (`generate --subjects 3000 --seed 3 --contract 1.3`):
  /// subject B (`u_222b…`) with a `consent` block on `pro` and uses around it, one learned late;
  /// subject A (`u_2257…`) on a monthly Pro plan with a saved item.
  static let lines = [
    #"{"id":"evt_2681ad4f48d9","type":"usage","subject":"u_222b74ee1c51","at":"2024-07-05T15:00:19Z","feature":"export"}"#,
    #"{"id":"evt_712cb1bdcd07","type":"usage","subject":"u_222b74ee1c51","at":"2024-07-05T17:31:35Z","feature":"export"}"#,
    #"{"id":"evt_24efb54b65e6","type":"block","subject":"u_222b74ee1c51","at":"2024-07-11T07:50:38Z","reason":"parental consent pending","entitlements":["pro"],"service":"consent"}"#,
    #"{"id":"evt_23ea55c526c2","type":"usage","subject":"u_222b74ee1c51","at":"2024-07-11T18:29:21Z","feature":"ai_query"}"#,
    #"{"id":"evt_bb3e38b7e2d2","type":"usage","subject":"u_222b74ee1c51","at":"2024-06-18T14:10:26Z","recorded":"2024-07-24T04:50:52Z","feature":"ai_query"}"#,
    #"{"id":"evt_322e83e53f69","type":"purchase","subject":"u_2257d418e894","at":"2024-10-03T18:11:48Z","product":"pro.monthly","transaction":"294620014836679","original_transaction":"294620014836679","expires":"2024-11-03T18:11:48Z"}"#,
    #"{"id":"evt_f1584277b905","type":"usage","subject":"u_2257d418e894","at":"2024-10-07T16:09:01Z","feature":"saved_item"}"#,
    #"{"id":"evt_ea24d1885566","type":"purchase","subject":"u_2257d418e894","at":"2024-10-09T09:10:51Z","product":"coins.100","transaction":"294620014836693","quantity":3,"meta":{"source":"asn2","storefront":"USA"}}"#,
    #"{"id":"evt_3bd9776e2c34","type":"usage","subject":"u_2257d418e894","at":"2024-10-28T12:47:44Z","feature":"saved_item","quantity":1}"#,
    #"{"id":"evt_557944028e05","type":"usage","subject":"u_2257d418e894","at":"2024-10-07T14:37:52Z","recorded":"2024-10-29T00:04:25Z","feature":"ai_query"}"#,
  ]

  /// The leak warnings `check` prints for `lines`.
  static func leaks(_ lines: [String]) throws -> [String] {
    let result = try checkWithCLI(Array((lines.joined(separator: "\n") + "\n").utf8), usage: .typical)
    return result.stderr.split(separator: "\n").filter { $0.contains(": leak: ") }.map { String($0.split(separator: ": leak: ").last ?? "") }
  }

  // Found by the v1.3 generator: the leak judge's working state copied every part of a subject's
  // state but its blocks, so with B's lines in the log A's save at 2024-10-28T12:47:44Z was judged
  // under B's consent block (a leak: "tier 'free' had used 1 of 1"), though `query` for A then
  // answers tier pro, saved_item allowed.
  @Test("one subject's leaks do not depend on another subject's block")
  func leaksArePerSubject() throws {
    let alone = try Self.leaks(Self.lines.filter { $0.contains("u_2257d418e894") })
      + Self.leaks(Self.lines.filter { $0.contains("u_222b74ee1c51") })
    let together = try Self.leaks(Self.lines)
    #expect(alone.count == 2)
    #expect(together.sorted() == alone.sorted(), "\(together)")
  }
}
