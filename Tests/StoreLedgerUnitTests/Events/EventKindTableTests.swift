import Foundation
import StoreLedgerTestSupport
import Testing

@testable import StoreLedger
@testable import StoreLedgerCore
@testable import StoreLedgerImport
@testable import StoreLedgerReport
@testable import StoreLedgerStorage

/// The kind table (`EventKind.facts`) against the docs, and every table derived from it against
/// `EventKind.allCases`: adding a kind fails here, naming what is missing, instead of breaking
/// silently elsewhere.
@Suite("The kind table")
struct EventKindTableTests {
  static func fieldNames(_ set: FieldSet) -> [String] {
    Field.allCases.filter { set.contains($0) }.map(\.name)
  }

  @Test("every kind is a row of the documented type table, in order, with its fields")
  func kindsMatchTheDocs() throws {
    let rows = try DocumentedTypeTable.read()
    #expect(rows.map(\.name) == EventKind.allCases.map(\.name))
    for (kind, row) in zip(EventKind.allCases, rows) {
      #expect(Self.fieldNames(kind.required) == Field.allCases.map(\.name).filter(row.required.contains), "\(kind)")
      #expect(Self.fieldNames(kind.optional) == Field.allCases.map(\.name).filter(row.optional.contains), "\(kind)")
      #expect(row.required.allSatisfy { Field.allCases.map(\.name).contains($0) }, "\(row.name): unknown field")
      #expect(row.optional.allSatisfy { Field.allCases.map(\.name).contains($0) }, "\(row.name): unknown field")
      #expect(kind.required.isDisjoint(with: kind.optional), "\(kind): a field both required and optional")
    }
  }

  @Test("the name tables are derived from allCases: each name finds its kind, unique, nothing else matches")
  func namesRoundTrip() {
    #expect(EventKind.allNames == EventKind.allCases.map(\.name))
    #expect(Set(EventKind.allNames).count == EventKind.allCases.count)
    for kind in EventKind.allCases {
      #expect(EventKind(name: kind.name) == kind)
      var name = kind.name
      #expect(name.withUTF8 { EventKind(nameBytes: $0) } == kind)
      #expect(EventKind(name: kind.name + "s") == nil)
      #expect(EventKind(name: String(kind.name.dropLast())) == nil)
      #expect(EventKind(name: kind.name.uppercased()) == nil)
      #expect(EventKind(name: String(kind.name.dropLast()) + "x") == nil)
    }
    #expect(EventKind(name: "") == nil)
    #expect(EventKind(name: String(repeating: "a", count: 200)) == nil)
  }

  @Test("the log reader knows every kind by its name, and no other name")
  func readerNamesEveryKind() throws {
    for kind in EventKind.allCases {
      // Every kind requires a field beyond these, so the line fails on it, after its type is known.
      let line = #"{"id":"e1","type":"\#(kind.name)","subject":"u1","at":"2026-01-01T00:00:00Z"}"#
      let found = try errors(line).map(\.description)
      #expect(found.count == 1 && found[0].contains("is required for type '\(kind.name)'"), "\(kind.name): \(found)")
    }
    let found = try errors(#"{"id":"e1","type":"purchases","subject":"u1","at":"2026-01-01T00:00:00Z"}"#)
    #expect(found.count == 1 && found[0].description.contains("unknown event type \"purchases\""))
  }

  @Test("every field's name finds its field in the line parser")
  func fieldNamesRoundTrip() {
    #expect(Set(Field.allCases.map(\.name)).count == Field.allCases.count)
    for field in Field.allCases {
      let bytes = Array(field.name.utf8)
      let found = bytes.withUnsafeBufferPointer { matchFieldName($0, 0, $0.count) }
      #expect(found == field, "\(field.name)")
      let longer = Array((field.name + "x").utf8)
      #expect(longer.withUnsafeBufferPointer { matchFieldName($0, 0, $0.count) } == nil)
    }
  }

  @Test("each snapshot bit budget holds every case of its enum")
  func snapshotBitBudgets() {
    // Kinds up to `extendedKind` pack as themselves, later ones as it plus a one-byte extra.
    #expect(Int(EventFlags.extendedKind) < 1 << EventFlags.kindBits)
    #expect(EventKind.allCases.count <= Int(UInt8.max), "the record's kind extra is one byte")
    #expect(Ownership.allCases.count <= 1 << EventFlags.ownershipBits)
    #expect(Offer.allCases.count <= 1 << EventFlags.offerBits)
    // The reason is stored plus one; 0 means none.
    #expect(max(ExpirationReason.allCases.count, RevocationReason.allCases.count) + 1 <= 1 << EventFlags.reasonBits)
  }

  @Test("every kind, ownership, offer and reason survives the snapshot's packing")
  func snapshotFlagsRoundTrip() {
    for kind in EventKind.allCases {
      // `granted` is an answer's word, never an event's (contract v1.3).
      for ownership in Ownership.allCases where ownership != .granted {
        for offer in Offer.allCases {
          for reason in [UInt8(255)] + (0..<UInt8(ExpirationReason.allCases.count)) {
            var event = Event(kind: kind)
            event.ownership = ownership
            event.offer = offer
            event.reasonRaw = reason
            event.hasExpires = true
            event.hasOffer = true
            for hasPrice in [false, true] {
              var back = Event(kind: .purchase)
              var backHasPrice = !hasPrice
              #expect(EventFlags.unpack(EventFlags.pack(event, hasPrice: hasPrice), into: &back, hasPrice: &backHasPrice))
              let packed = kind.storageCode < EventFlags.extendedKind ? kind : EventKind(storageCode: EventFlags.extendedKind)!
              #expect(back.kind == packed && back.ownership == ownership && back.offer == offer)
              #expect(back.reasonRaw == reason && back.hasExpires && back.hasOffer && backHasPrice == hasPrice)
            }
          }
        }
      }
    }
  }

  @Test("the kind tests Event restates for inlining are the kind table's, kind by kind")
  func inlinedKindTestsMatchTheTable() {
    for kind in EventKind.allCases {
      var event = Event(kind: kind)
      event.transaction = Symbol(rawValue: 7)
      #expect(Event.isRefundKind(kind) == kind.namesCharge, "isRefundKind of \(kind.name)")
      let namesGrant = kind.scope.contains(.access) && !kind.mayCarry(.service)
      #expect(event.grantReference.isSome == namesGrant, "grantReference of \(kind.name)")
      #expect(event.service.isSome == kind.mayCarry(.service), "service of \(kind.name)")
      if kind.mayCarry(.entitlements) {
        event.entitlementMask = 5
        #expect(event.entitlementMask == 5, "entitlementMask of \(kind.name)")
      } else {
        #expect(event.entitlementMask == 0, "entitlementMask of \(kind.name)")
      }
    }
  }

  /// Each kind's scopes as Docs/log-format.md and Docs/semantics.md describe them, pinned kind by
  /// kind: a kind changing its scope fails here. A kind added since is not listed; its scope is
  /// checked against its fields (`scopesAgreeWithFields`) and reported until it is pinned here.
  static let scopes: [(kind: EventKind, scope: EventScope)] = [
    (.purchase, .charge), (.purchasePending, []), (.renewal, [.charge, .subscription]),
    (.billingRetry, .subscription), (.graceEntered, .subscription), (.expiration, .subscription),
    (.autoRenewChanged, .subscription), (.planChanged, .subscription), (.renewalExtended, .subscription),
    (.revocation, .refund), (.refundReversed, .refund), (.consumption, .balance), (.usage, .usage),
    (.refundRequested, .refundNotice), (.refundDeclined, .refundNotice), (.grant, .access), (.grantRevoked, .access),
    (.block, .access), (.unblock, .access), (.transfer, .ownership),
  ]

  @Test("each kind keeps the scope the docs say, and a kind not pinned yet is reported")
  func scopeMembers() {
    #expect(Set(Self.scopes.map(\.kind)).count == Self.scopes.count, "a kind pinned twice")
    for (kind, scope) in Self.scopes {
      #expect(kind.scope == scope, "\(kind.name)")
      #expect(kind.isCharge == scope.contains(.charge) && kind.isRefund == scope.contains(.refund), "\(kind.name)")
      #expect(kind.namesCharge == !scope.isDisjoint(with: [.refund, .refundNotice]), "\(kind.name)")
    }
    // Every scope names some kind, and the kinds that never give access are exactly these.
    for (scope, name) in EventScope.named {
      #expect(Self.scopes.contains { $0.scope.contains(scope) }, "no pinned kind in scope \(name)")
    }
    #expect(
      Self.scopes.map(\.kind).filter { !$0.mayGrantAccess }
        == [.purchasePending, .consumption, .usage, .refundRequested, .refundDeclined, .transfer])
    for kind in EventKind.allCases where !Self.scopes.contains(where: { $0.kind == kind }) {
      Issue.record(
        "\(kind.name) has scope \(EventScope.named.filter { kind.scope.contains($0.scope) }.map(\.name)), not pinned yet: add it to EventKindTableTests.scopes",
        severity: .warning)
    }
  }

  @Test("what the report counts at a kind follows from its scope: a kind that moves money or counts something is counted")
  func reportCountsFollowScopes() {
    for kind in EventKind.allCases {
      let scope = kind.scope
      let count = kind.reportCount
      #expect(scope.contains(.charge) == (count == .charge), "\(kind.name): charges, and only they, count as charges")
      #expect(
        scope.contains(.refund) == [.revocation, .refundReversal].contains(count),
        "\(kind.name): refunds, and only they, count as revocations or their reversals")
      #expect(scope.contains(.balance) == (count == .balanceSpend), "\(kind.name): balance")
      #expect(scope.contains(.usage) == (count == .use), "\(kind.name): usage")
      #expect(
        scope.contains(.refundNotice) == [.refundRequest, .refundDecline].contains(count), "\(kind.name): refund notices")
      #expect(count != .billingState || scope == .subscription, "\(kind.name): a billing state is a subscription's")
      #expect(
        count != .nothing || scope.isDisjoint(with: [.charge, .refund, .balance, .usage, .refundNotice]),
        "\(kind.name): a kind that moves money or counts something is counted by the report")
    }
    // Each count but `.nothing` is some kind's, and the report's counts of these kinds are pinned
    // by the report's goldens (Snapshots/).
    for count in ReportCount.allCases where count != .nothing {
      #expect(EventKind.allCases.contains { $0.reportCount == count }, "no kind counts as \(count)")
    }
  }

  @Test("a kind's scope and its required fields agree, so a new kind cannot take a scope without its fields")
  func scopesAgreeWithFields() {
    for kind in EventKind.allCases {
      let scope = kind.scope
      let required = kind.required
      #expect(
        !scope.contains(.charge) || required.isSuperset(of: [.transaction, .product]),
        "\(kind): a charge names its transaction and product")
      #expect(
        scope.contains(.subscription) == required.contains(.originalTransaction),
        "\(kind): subscription events, and only they, require original_transaction")
      #expect(
        !scope.contains(.refund) || (required.contains(.transaction) && !scope.contains(.charge)),
        "\(kind): a refund names the charge's transaction and is no charge")
      #expect(
        scope.contains(.balance) == required.isSuperset(of: [.currency, .quantity]), "\(kind): balance")
      #expect(scope.contains(.usage) == required.contains(.feature), "\(kind): usage")
      #expect(
        !scope.contains(.refundNotice) || (required.contains(.transaction) && scope == .refundNotice),
        "\(kind): a refund notice names the charge's transaction and does nothing else")
      #expect(
        !scope.contains(.access) || (scope == .access && !required.intersection([.entitlements, .grant, .service]).isEmpty),
        "\(kind): an access kind names what it gives, revokes or which service blocks")
      #expect(
        !scope.contains(.ownership) || (scope == .ownership && required.contains(.to)),
        "\(kind): a transfer names who receives the unit and does nothing else")
      let events = scope.intersection([.charge, .subscription, .refund, .balance, .usage, .refundNotice, .access, .ownership])
      #expect(events == scope, "\(kind): a scope bit no name describes")
    }
  }

  @Test("a stored event has the values its kind requires, read from the kind table", arguments: EventKind.allCases)
  func requiredValues(kind: EventKind) {
    var complete = Event(kind: kind)
    complete.product = ProductIndex(rawValue: 0)
    complete.transaction = Symbol(rawValue: 0)
    complete.originalTransaction = Symbol(rawValue: 1)
    // Only a consumption holds a currency in the event (a charge's price currency is a detail).
    if kind == .consumption { complete.balanceCurrency = Symbol(rawValue: 0) }
    complete.hasExpires = true
    #expect(complete.hasRequiredValues)
    // `expires` and `grace_expires` share the event's one end.
    let clearings: [(FieldSet, (inout Event) -> Void)] = [
      (.product, { $0.product = .none }), (.transaction, { $0.transaction = .none }),
      (.originalTransaction, { $0.originalTransaction = .none }), (.currency, { if $0.kind == .consumption { $0.balanceCurrency = .none } }),
      ([.expires, .graceExpires], { $0.hasExpires = false }),
    ]
    for (fields, clear) in clearings {
      var event = complete
      clear(&event)
      #expect(event.hasRequiredValues == kind.required.isDisjoint(with: fields), "\(kind) without \(fields)")
    }
  }
}
