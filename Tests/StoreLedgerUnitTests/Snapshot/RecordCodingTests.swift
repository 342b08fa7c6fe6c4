import StoreLedgerTestSupport
import Testing

@testable import StoreLedgerCore
@testable import StoreLedgerStorage

@Suite("Snapshot records: fixed-width records and their extras round-trip every field")
struct RecordCodingTests {
  /// Events (with their details) with each extra value present or at its default, and extreme values.
  static let events: [(String, Event, EventDetails)] = {
    var plain = Event(kind: .purchase)
    plain.at = Timestamp(millisecondsSinceEpoch: 1_767_225_600_000)
    plain.recorded = plain.at
    plain.id = Symbol(rawValue: 0)
    plain.line = 1
    var full = plain
    full.kind = .renewal
    full.recorded = full.at.adding(milliseconds: 1)
    full.expires = Timestamp(millisecondsSinceEpoch: Timestamp.latestMilliseconds)
    full.hasExpires = true
    full.quantity = Int64.min
    full.product = ProductIndex(rawValue: 3)
    full.transaction = Symbol(rawValue: UInt32.max - 1)
    full.originalTransaction = Symbol(rawValue: 5)
    full.slot = 9
    full.line = UInt32.max - 1
    full.ownership = .familyShared
    full.hasOwnership = true
    full.offer = .intro
    full.hasOffer = true
    full.reasonRaw = 2
    full.autoRenew = true
    full.hasRecorded = true
    let fullDetails = EventDetails(price: Int64.max, priceCurrency: Symbol(rawValue: 7), metaHash: UInt64.max)
    var refund = plain
    refund.kind = .revocation
    refund.transaction = Symbol(rawValue: 4)
    refund.targetProduct = ProductIndex(rawValue: 2)
    refund.reasonRaw = 1
    var spend = plain
    spend.kind = .consumption
    spend.quantity = 5
    spend.balanceCurrency = Symbol(rawValue: 1)
    var usage = plain
    usage.kind = .usage
    usage.quantity = -3
    usage.feature = 0
    usage.at = Timestamp(millisecondsSinceEpoch: Timestamp.earliestMilliseconds)
    usage.recorded = usage.at
    var expiresWithoutFlag = plain
    expiresWithoutFlag.expires = Timestamp(millisecondsSinceEpoch: -1)
    let free = EventDetails(price: 0, priceCurrency: Symbol(rawValue: 0), metaHash: 0)
    // Contract v1.3: a partial refund (its `refunded`, even 0, and packs) and a charge's facts hash.
    var partial = refund
    partial.hasRefunded = true
    partial.quantity = 2
    var request = refund
    request.kind = .refundRequested
    request.reasonRaw = 2
    request.expires = plain.at.adding(milliseconds: 5)
    request.hasExpires = true
    var block = plain
    block.kind = .block
    block.transaction = Symbol(rawValue: 6)
    block.originalTransaction = Symbol(rawValue: 8)
    block.entitlementMask = UInt64.max
    var revokedGrant = plain
    revokedGrant.kind = .grantRevoked
    revokedGrant.transaction = Symbol(rawValue: 6)
    revokedGrant.slot = 3
    var facts = EventDetails(price: 4990, priceCurrency: Symbol(rawValue: 0), metaHash: 0)
    facts.factsHash = 0x1234_5678_9abc_def0
    return [
      ("no extras", plain, EventDetails()), ("every extra, extreme values", full, fullDetails),
      ("a refund's target", refund, EventDetails(price: 0, priceCurrency: .none, metaHash: 1)),
      ("a consumption's currency", spend, EventDetails()), ("a use", usage, EventDetails()),
      ("a free charge (price 0 with its currency)", plain, free),
      ("an expiry the line did not flag", expiresWithoutFlag, EventDetails()),
      ("a partial refund of packs, refunded 0", partial, EventDetails()),
      ("a partial refund's amount", partial, EventDetails(price: 29_995, priceCurrency: .none, metaHash: 0)),
      ("a refund request with its deadline", request, EventDetails()),
      ("a charge's store, country and proceeds", plain, facts),
      ("a block of every entitlement (a kind past the flags' 4 bits)", block, EventDetails()),
      ("a grant revocation", revokedGrant, EventDetails()),
    ]
  }()

  @Test("encoding then decoding gives the same event and details, and the extras take exactly the counted bytes", arguments: events)
  func roundTrip(name: String, event: Event, details: EventDetails) throws {
    let extrasBytes = RecordCoding.extrasBytes(event, details)
    var bytes = [UInt8](repeating: 0xAA, count: RecordCoding.recordBytes + extrasBytes)
    var written = RecordCoding.recordBytes
    bytes.withUnsafeMutableBytes { RecordCoding.encode(event, details, into: $0, at: 0, extras: &written) }
    #expect(written == bytes.count, "\(name)")
    var read = RecordCoding.recordBytes
    let decoded = bytes.withUnsafeBytes { RecordCoding.decode($0, at: 0, extras: &read, extrasEnd: bytes.count) }
    #expect(decoded?.event == event, "\(name)")
    #expect(decoded?.details == details, "\(name)")
    #expect(read == bytes.count, "\(name)")
    // One byte of extras short: refused, never read past the end.
    var short = RecordCoding.recordBytes
    if extrasBytes > 0 {
      let refused = bytes.withUnsafeBytes {
        RecordCoding.decode($0, at: 0, extras: &short, extrasEnd: bytes.count - 1)
      }
      #expect(refused == nil, "\(name)")
    }
  }
}
