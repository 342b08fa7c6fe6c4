import StoreLedgerCore

extension Report {
  /// The flows summed over the report's buckets, and the stocks at its end, in a segment table.
  static let segmentTableMetrics: [ReportMetric] = [
    .charges, .revenue, .proceeds, .storeFees, .proceedsUnknown, .refunds, .newSubscriptions, .subscribers, .mrr,
  ]

  /// With `report --by`: a table with a row per segment (the whole report first), flows summed over
  /// the buckets and stocks at the last bucket's end.
  /// - Complexity: O(segments · buckets · metrics).
  func appendSegments(to page: inout HTMLPage) {
    guard let segments else { return }
    page.append("<section>\n")
    page.element("h2", "Split by \(segments.key.rawValue)")
    page.element(
      "p", "Flows summed over the report's buckets, stocks at its end. " + ReportSegments.note, attributes: "class=\"meta\"")
    let rows = [("all", buckets)] + segments.parts.map { ($0.value, $0.buckets) }
    let metrics = Self.segmentTableMetrics.filter { buckets.first?[$0.rawValue] != nil }
    page.table(
      header: [segments.key.rawValue] + metrics.map(\.title),
      rows: rows.map { row in [row.0] + metrics.map { Self.segmentCell($0, row.1) } })
    page.append("</section>\n")
  }

  /// A metric over `buckets`: the sum of a flow, the last value of a stock; money in units by currency.
  private static func segmentCell(_ metric: ReportMetric, _ buckets: [ReportBucket]) -> String {
    let values = (metric.isStock ? buckets.suffix(1) : buckets[...]).compactMap { $0[metric.rawValue] }
    var count: Int64 = 0
    var keyed: [String: Int64] = [:]
    for value in values {
      switch value {
      case .count(let n): count &+= n
      case .keyed(let entries): for entry in entries { keyed[entry.key, default: 0] &+= entry.value }
      case .rate: break
      }
    }
    guard case .keyed? = values.first else { return String(count) }
    let entries = keyed.filter { $0.value != 0 }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    if entries.isEmpty { return "0" }
    return entries.map { metric.isMoney ? "\($0.key) \(HTMLNumber.money(thousandths: $0.value, currency: HTMLNumber.currency(ofKey: $0.key)))" : "\($0.key) \($0.value)" }
      .joined(separator: "; ")
  }
}
