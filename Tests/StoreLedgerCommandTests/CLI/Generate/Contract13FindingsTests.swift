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
    EventLines.line(.usage(id: "evt_2681ad4f48d9", subject: "u_222b74ee1c51", at: ts("2024-07-05T15:00:19Z"), feature: "export")),
    EventLines.line(.usage(id: "evt_712cb1bdcd07", subject: "u_222b74ee1c51", at: ts("2024-07-05T17:31:35Z"), feature: "export")),
    EventLines.line(.block(id: "evt_24efb54b65e6", subject: "u_222b74ee1c51", at: ts("2024-07-11T07:50:38Z"), service: "consent", entitlements: ["pro"], reason: "parental consent pending")),
    EventLines.line(.usage(id: "evt_23ea55c526c2", subject: "u_222b74ee1c51", at: ts("2024-07-11T18:29:21Z"), feature: "ai_query")),
    EventLines.line(.usage(id: "evt_bb3e38b7e2d2", subject: "u_222b74ee1c51", at: ts("2024-06-18T14:10:26Z"), feature: "ai_query").recordedAt("2024-07-24T04:50:52Z")),
    EventLines.line(.purchase(id: "evt_322e83e53f69", subject: "u_2257d418e894", at: ts("2024-10-03T18:11:48Z"), product: "pro.monthly", transaction: "294620014836679", originalTransaction: "294620014836679", expires: ts("2024-11-03T18:11:48Z"))),
    EventLines.line(.usage(id: "evt_f1584277b905", subject: "u_2257d418e894", at: ts("2024-10-07T16:09:01Z"), feature: "saved_item")),
    EventLines.line(.purchase(id: "evt_ea24d1885566", subject: "u_2257d418e894", at: ts("2024-10-09T09:10:51Z"), product: "coins.100", transaction: "294620014836693", quantity: 3).withMeta(["source": "asn2", "storefront": "USA"])),
    EventLines.line(.usage(id: "evt_3bd9776e2c34", subject: "u_2257d418e894", at: ts("2024-10-28T12:47:44Z"), feature: "saved_item", quantity: 1)),
    EventLines.line(.usage(id: "evt_557944028e05", subject: "u_2257d418e894", at: ts("2024-10-07T14:37:52Z"), feature: "ai_query").recordedAt("2024-10-29T00:04:25Z")),
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
