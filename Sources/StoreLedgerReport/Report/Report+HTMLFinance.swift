import StoreLedgerCore

extension Report {
  /// Per currency: the five MRR movements as stacked bars around zero (contraction and churn
  /// below it) with the closing MRR as a line on top; empty when nothing moved.
  /// - Complexity: O(currencies · buckets).
  func movementCharts(labels: [String]) -> String {
    let parts: [(ReportMetric, Double)] = [
      (.mrrNew, 1), (.mrrReactivation, 1), (.mrrExpansion, 1), (.mrrContraction, -1), (.mrrChurn, -1),
    ]
    var charts = ""
    for currency in keys(of: parts.map(\.0) + [.mrr]) {
      let series = parts.map { metric, sign in
        SVGChart.Series(
          name: String(metric.rawValue.dropFirst("mrr_".count)),
          values: buckets.map { sign * Double($0[metric.rawValue]?[currency] ?? 0) / 1000 })
      }
      guard series.contains(where: { $0.values.contains { $0 != 0 } }) else { continue }
      let closing = SVGChart.Series(
        name: "MRR " + currency, values: buckets.map { Double($0[ReportMetric.mrr.rawValue]?[currency] ?? 0) / 1000 })
      charts += SVGChart(style: .stackedBars, labels: labels, series: series, height: 280, overlay: closing)
        .svg(attributes: "class=\"chart\"")
    }
    return charts
  }

  /// Per currency: a line per first-payment cohort through its realized LTV (`ltv`) at k = 0, 1, …,
  /// each stopping at the report's last bucket.
  /// - Complexity: O(currencies · buckets · offsets).
  func lifetimeValueCharts(labels: [String]) -> String {
    var currencies: [String] = []
    for key in keys(of: [.ltv]) {
      let currency = String(key.prefix { $0 != "/" })
      if !currencies.contains(currency) { currencies.append(currency) }
    }
    var charts = ""
    for currency in currencies {
      var lines: [SVGChart.Series] = []
      for (index, bucket) in buckets.enumerated() {
        guard case .keyed(let entries)? = bucket[ReportMetric.ltv.rawValue] else { continue }
        let row = entries.filter { $0.key.hasPrefix(currency + "/") }
        guard !row.isEmpty else { continue }
        var values = [Double](repeating: .nan, count: buckets.count)
        for (offset, entry) in row.enumerated() where offset < values.count { values[offset] = Double(entry.value) / 1000 }
        lines.append(SVGChart.Series(name: labels[index], values: values))
      }
      guard !lines.isEmpty else { continue }
      let offsets = (0..<buckets.count).map { "k = \($0)" }
      charts += "<p class=\"meta\">Realized LTV in \(HTMLPage.escape(currency)): net revenue per paying customer of each first-payment cohort, k buckets after.</p>\n"
      charts += SVGChart(style: .lines, labels: offsets, series: lines).svg(attributes: "class=\"chart\"")
    }
    return charts
  }

  /// The offsets k an LTV table shows: the first months, then quarters and years. Every k is in
  /// the charts and the JSON; a column per k made 24 columns of each of 24 rows per currency, and
  /// printed, dozens of pages.
  static let lifetimeValueTableOffsets = [0, 1, 2, 3, 6, 9, 12, 18, 24, 36]

  /// Per currency: a row per first-payment cohort (newest first) with its paying customers and its
  /// realized LTV k buckets after, at `lifetimeValueTableOffsets` within the report.
  /// - Complexity: O(currencies · buckets · offsets).
  func lifetimeValueTables(labels: [String]) -> String {
    var currencies: [String] = []
    for key in keys(of: [.ltv]) {
      let currency = HTMLNumber.currency(ofKey: key)
      if !currencies.contains(currency) { currencies.append(currency) }
    }
    let offsets = Self.lifetimeValueTableOffsets.filter { $0 < buckets.count }
    var html = ""
    for currency in currencies {
      var rows = ""
      for (index, bucket) in buckets.enumerated().reversed() {
        guard case .keyed(let entries)? = bucket[ReportMetric.ltv.rawValue] else { continue }
        let values = Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard values.keys.contains(where: { $0.hasPrefix(currency + "/") }) else { continue }
        var customers = "–"
        if case .count(let count)? = bucket[ReportMetric.firstPaymentCustomers.rawValue] { customers = HTMLNumber.count(count) }
        rows += "<tr><th>\(HTMLPage.escape(labels[index]))</th><td>\(customers)</td>"
        for k in offsets {
          let cell = values[currency + "/" + String(k)].map { HTMLNumber.money(thousandths: $0, currency: currency) } ?? ""
          rows += "<td>\(cell)</td>"
        }
        rows += "</tr>\n"
      }
      guard !rows.isEmpty else { continue }
      html += "<p class=\"meta\">Realized LTV in \(HTMLPage.escape(currency)) per paying customer of each first-payment cohort, k buckets after its first payment (every k is in the chart above and in the JSON).</p>\n"
      html += "<div class=\"scroll\">\n<table class=\"cohorts\">\n<thead><tr><th>cohort</th><th>customers</th>"
      for k in offsets { html += "<th>k = \(k)</th>" }
      html += "</tr></thead>\n<tbody>\n" + rows + "</tbody>\n</table>\n</div>\n"
    }
    return html
  }

  /// The keys any bucket has in these keyed metrics, in byte order.
  private func keys(of metrics: [ReportMetric]) -> [String] {
    var keys: [String] = []
    for bucket in buckets {
      for metric in metrics {
        guard case .keyed(let entries)? = bucket[metric.rawValue] else { continue }
        for entry in entries where !keys.contains(entry.key) { keys.append(entry.key) }
      }
    }
    return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }
}
