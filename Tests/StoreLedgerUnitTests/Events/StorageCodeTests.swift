import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore

/// The storage codes of the log's vocabulary (`Events/EventKind+StorageCode.swift`): the numbers
/// snapshots, index segments and records hold. Each is pinned here to the number files written
/// before have; changing one breaks every snapshot and index on disk, so a failure here means
/// a code was changed, not that the table needs updating.
///
/// A kind added since the pins were last written is not a failure: it must take the next numbers
/// past every pinned one (so it cannot reuse or shift one), and each run reports it as a warning
/// until its number is pinned here, once files hold it.
@Suite("Storage codes: every case keeps the number stored files hold")
struct StorageCodeTests {
  static let kinds: [(EventKind, UInt8)] = [
    (.purchase, 0), (.purchasePending, 1), (.renewal, 2), (.billingRetry, 3), (.graceEntered, 4),
    (.expiration, 5), (.autoRenewChanged, 6), (.planChanged, 7), (.renewalExtended, 8), (.revocation, 9),
    (.refundReversed, 10), (.consumption, 11), (.usage, 12), (.refundRequested, 13), (.refundDeclined, 14),
    (.grant, 15), (.grantRevoked, 16), (.block, 17), (.unblock, 18), (.transfer, 19),
  ]
  static let ownerships: [(Ownership, UInt8)] = [(.purchased, 0), (.familyShared, 1), (.granted, 2)]
  static let offers: [(Offer, UInt8)] = [(.normal, 0), (.trial, 1), (.intro, 2), (.promo, 3), (.code, 4), (.winBack, 5)]
  static let states: [(SubscriptionStatus, UInt8)] = [
    (.active, 0), (.billingRetry, 1), (.grace, 2), (.expired, 3), (.revoked, 4),
  ]

  @Test("an event kind's storage code is its pinned number, and the number reads back as the kind", arguments: kinds)
  func kind(_ kind: EventKind, code: UInt8) {
    #expect(kind.storageCode == code, "\(kind.name)")
    #expect(EventKind(storageCode: code) == kind, "\(code)")
  }

  @Test("an ownership's storage code is its pinned number, and the number reads back", arguments: ownerships)
  func ownership(_ ownership: Ownership, code: UInt8) {
    #expect(ownership.storageCode == code, "\(ownership.name)")
    #expect(Ownership(storageCode: code) == ownership, "\(code)")
  }

  @Test("an offer's storage code is its pinned number, and the number reads back", arguments: offers)
  func offer(_ offer: Offer, code: UInt8) {
    #expect(offer.storageCode == code, "\(offer.name)")
    #expect(Offer(storageCode: code) == offer, "\(code)")
  }

  @Test("a subscription state's storage code is its pinned number, and the number reads back", arguments: states)
  func state(_ state: SubscriptionStatus, code: UInt8) {
    #expect(state.storageCode == code, "\(state.name)")
    #expect(SubscriptionStatus(storageCode: code) == state, "\(code)")
  }

  @Test("a kind not pinned yet takes the next numbers past the pinned ones, and is reported until it is pinned")
  func unpinnedKinds() throws {
    let pinned = Self.kinds.map(\.0)
    #expect(Set(pinned).count == pinned.count, "a kind pinned twice")
    let unpinned = EventKind.allCases.filter { !pinned.contains($0) }
    let next = Int(try #require(Self.kinds.map(\.1).max())) + 1
    #expect(
      unpinned.map { Int($0.storageCode) }.sorted() == Array(next..<next + unpinned.count),
      "kinds not pinned yet must take \(next) and on: \(unpinned.map { "\($0.name)=\($0.storageCode)" })")
    for kind in unpinned {
      Issue.record(
        "\(kind.name) has storage code \(kind.storageCode), not pinned yet: add it to StorageCodeTests.kinds",
        severity: .warning)
    }
  }

  @Test("the tables pin every case but the kinds added since, and no number past them names a case")
  func complete() {
    #expect(Self.ownerships.map(\.0) == Ownership.allCases)
    #expect(Self.offers.map(\.0) == Offer.allCases)
    #expect(Self.states.map(\.0) == SubscriptionStatus.allCases)
    for code in UInt8(EventKind.allCases.count)...UInt8.max { #expect(EventKind(storageCode: code) == nil, "\(code)") }
    for code in UInt8(Self.ownerships.count)...UInt8.max { #expect(Ownership(storageCode: code) == nil, "\(code)") }
    for code in UInt8(Self.offers.count)...UInt8.max { #expect(Offer(storageCode: code) == nil, "\(code)") }
    for code in UInt8(Self.states.count)...UInt8.max { #expect(SubscriptionStatus(storageCode: code) == nil, "\(code)") }
  }
}
