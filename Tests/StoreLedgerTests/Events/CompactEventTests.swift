import Testing

@testable import StoreLedger

@Suite("The compact event: packed fields read back exactly what was written")
struct CompactEventTests {
  @Test("an event takes 88 bytes, so a million events take 88 MB")
  func size() {
    #expect(MemoryLayout<Event>.stride == 88)
  }

  @Test(
    "ownership, offer and each flag are independent of the others",
    arguments: Ownership.allCases.flatMap { ownership in Offer.allCases.map { (ownership, $0) } })
  func packedFields(ownership: Ownership, offer: Offer) {
    for mask in 0..<64 {
      var event = Event(kind: .renewal)
      event.ownership = ownership
      event.offer = offer
      event.autoRenew = mask & 1 != 0
      event.hasExpires = mask & 2 != 0
      event.hasPrice = mask & 4 != 0
      event.hasRecorded = mask & 8 != 0
      event.hasOwnership = mask & 16 != 0
      event.hasOffer = mask & 32 != 0
      #expect(event.ownership == ownership)
      #expect(event.offer == offer)
      #expect(event.autoRenew == (mask & 1 != 0))
      #expect(event.hasExpires == (mask & 2 != 0))
      #expect(event.hasPrice == (mask & 4 != 0))
      #expect(event.hasRecorded == (mask & 8 != 0))
      #expect(event.hasOwnership == (mask & 16 != 0))
      #expect(event.hasOffer == (mask & 32 != 0))
      #expect(event.kind == .renewal)
    }
  }

  @Test("a new event has the documented defaults")
  func defaults() {
    let event = Event(kind: .purchase)
    #expect(event.ownership == .purchased)
    #expect(event.offer == .normal)
    #expect(!event.autoRenew && !event.hasExpires && !event.hasPrice)
    #expect(!event.hasRecorded && !event.hasOwnership && !event.hasOffer)
    #expect(event.product == .none)
    #expect(event.targetProduct == .none)
    #expect(event.reasonRaw == 255)
  }

  @Test("products keep their index up to the last one a catalog may hold", arguments: [0, 1, 4095, Limits.catalogProductsMax - 1])
  func productIndex(index: Int) {
    var event = Event(kind: .purchase)
    event.product = ProductIndex(rawValue: UInt32(index))
    event.targetProduct = ProductIndex(rawValue: UInt32(Limits.catalogProductsMax - 1 - index))
    #expect(event.product.rawValue == UInt32(index))
    #expect(event.targetProduct.rawValue == UInt32(Limits.catalogProductsMax - 1 - index))
    event.product = .none
    #expect(event.product == .none)
    #expect(event.targetProduct.isSome)
  }

  @Test("a catalog with more products than an event can name is refused with a clear error")
  func tooManyProducts() {
    let count = Limits.catalogProductsMax + 1
    var text = #"{"products":{"#
    for index in 0..<count {
      if index > 0 { text += "," }
      text += #""p\#(index)":{"type":"non_consumable","entitlements":["pro"]}"#
    }
    text += "}}"
    #expect {
      _ = try Catalog.parse(text, file: "catalog.json")
    } throws: { error in
      guard let list = error as? DiagnosticList, let first = list.diagnostics.first else { return false }
      return list.exitCode == 65
        && first.message.contains("at most \(Limits.catalogProductsMax) products, found \(count)")
    }
  }
}
