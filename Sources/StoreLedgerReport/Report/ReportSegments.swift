import StoreLedgerCore

/// What `report --by` splits a report by: a field of the charges (Docs/reports.md, "Segments").
package enum ReportSegmentKey: String, Sendable, CaseIterable {
  case country
  case store
  case product
  case offer
  case entitlement
}

/// One segment of a split report: its value and its buckets (the same spans as the whole report's).
package struct ReportSegment: Sendable, Equatable {
  /// The value of the charges in it (`unknown`: none stated, or no charge).
  package var value: String
  /// Its buckets, with the whole report's metrics.
  package var buckets: [ReportBucket]

  /// A segment with these buckets.
  package init(value: String, buckets: [ReportBucket]) {
    self.value = value
    self.buckets = buckets
  }
}

/// A report split by one field: a report per value of that field.
package struct ReportSegments: Sendable, Equatable {
  /// What it is split by.
  package var key: ReportSegmentKey
  /// The segments by value, `unknown` last.
  package var parts: [ReportSegment]

  /// The segment of charges (and of events of no charge) that state no value.
  package static let unknown = "unknown"

  /// What the output says about adding segments up.
  package static let note =
    "Money and event counts of the segments add up to the whole report; a subject with subscriptions in two segments counts in each, so subject and customer counts may add up to more."

  /// Splits of `key` in this order: values by bytes, `unknown` last.
  package init(key: ReportSegmentKey, parts: [ReportSegment]) {
    self.key = key
    self.parts = parts.sorted { a, b in
      if (a.value == Self.unknown) != (b.value == Self.unknown) { return b.value == Self.unknown }
      return a.value.utf8.lexicographicallyPrecedes(b.value.utf8)
    }
  }
}

/// The charges a report pass counts when a report is split (one pass per segment value).
struct SegmentFilter {
  let key: ReportSegmentKey
  let value: String
  let catalog: Catalog

  /// Whether this pass counts what `unknown` holds (events of no charge, grants).
  var isUnknown: Bool { value == ReportSegments.unknown }

  /// The values of a charge of `product` with `offer` and `facts` (several for a product of several entitlements).
  static func values(
    key: ReportSegmentKey, product: ProductIndex, offer: Offer, facts: ChargeFacts.Facts?, catalog: Catalog
  ) -> [String] {
    switch key {
    case .country: return [facts?.country ?? ReportSegments.unknown]
    case .store: return [facts?.store ?? ReportSegments.unknown]
    case .product:
      return [product.isSome ? catalog.products[Int(product.rawValue)].id : ReportSegments.unknown]
    case .offer: return [offer == .normal ? "none" : offer.name]
    case .entitlement:
      guard product.isSome else { return [ReportSegments.unknown] }
      let indices = catalog.entitlementIndices[Int(product.rawValue)]
      return indices.isEmpty ? [ReportSegments.unknown] : indices.map { catalog.entitlementNames[$0] }
    }
  }

  /// Whether a charge of `product` with `offer` and `facts` is in this segment.
  func matches(product: ProductIndex, offer: Offer, facts: ChargeFacts.Facts?) -> Bool {
    Self.values(key: key, product: product, offer: offer, facts: facts, catalog: catalog).contains(value)
  }

  /// Every value a charge of `ledger` has, and `unknown`.
  /// - Complexity: O(events · log lines with details).
  static func allValues(key: ReportSegmentKey, ledger: Ledger, facts: ChargeFacts) -> [String] {
    var values: Set<String> = [ReportSegments.unknown]
    for event in ledger.events where event.kind.isCharge {
      let stated = ledger.details.details(line: event.line).factsHash != 0 ? facts.facts(line: event.line) : nil
      values.formUnion(
        Self.values(key: key, product: event.product, offer: event.offer, facts: stated, catalog: ledger.catalog))
    }
    return Array(values)
  }
}
