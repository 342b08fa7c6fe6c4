import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerReport

/// A subject that only a transfer's `to` names (contract v1.3, section 9) is a subject of the
/// ledger all the same: counted, drawn, and holding what was moved to it.
@Suite("Subjects only a transfer names")
struct TransferReceiverTests {
  static let lines = [
    EventLines.line(.purchase(id: "p1", subject: "ana", at: ts("2026-01-01T00:00:00Z"), product: "pro.lifetime", transaction: "l1")),
    EventLines.line(.transfer(id: "x1", subject: "ana", at: ts("2026-02-01T00:00:00Z"), to: "ben", transaction: "l1")),
    EventLines.line(.transfer(id: "x2", subject: "ben", at: ts("2026-03-01T00:00:00Z"), to: "cy", transaction: "l1")),
  ]

  @Test("replay's count of active entitlements and of subjects includes them", arguments: [
    ("2026-01-31T23:59:59.999Z", 1), ("2026-02-01T00:00:00Z", 1), ("2026-03-01T00:00:00Z", 1), ("2025-12-31T00:00:00Z", 0),
  ])
  func counted(at: String, holders: Int) throws {
    let ledger = try ledger(Self.lines.joined(separator: "\n") + "\n")
    #expect(ledger.namedSubjectCount == 3)
    #expect(ledger.receiversWithoutLines == ["cy"])
    let counts = ActiveEntitlements.count(in: ledger, at: ts(at))
    #expect(counts.first { $0.entitlement == "pro" }?.subjects ?? 0 == holders)
  }

  @Test("each one's timeline shows who held the unit when, in an ownership lane")
  func ownershipLanes() throws {
    let ledger = try ledger(Self.lines.joined(separator: "\n") + "\n")
    let expected: [(String, String, String?)] = [
      ("ana", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"), ("ben", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"),
      ("cy", "2026-03-01T00:00:00Z", nil),
    ]
    for (subject, from, to) in expected {
      let timeline = try CustomerTimeline.build(ledger: ledger, subject: subject, asOf: nil)
      let lane = try #require(timeline.lanes.first { $0.kind == "ownership" }, "\(subject)")
      #expect(lane.name == "l1")
      #expect(lane.segments.map(\.from) == [ts(from)] && lane.segments.map(\.to) == [to.map(ts)], "\(subject)")
      let access = try #require(timeline.lanes.first { $0.kind == "entitlement" && $0.name == "pro" })
      #expect(access.segments.map(\.from) == [ts(from)], "\(subject)")
      #expect(timeline.markers.contains { $0.id == (subject == "ana" ? "p1" : subject == "ben" ? "x1" : "x2") })
    }
    // Known before the second transfer was recorded: cy holds nothing yet.
    #expect(ledger.timeline(named: "cy", asOf: ts("2026-02-15T00:00:00Z"))?.entitlements.isEmpty == true)
    #expect(ledger.timeline(named: "zed") == nil)
  }
}
