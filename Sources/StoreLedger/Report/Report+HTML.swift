/// A group of related metrics: one chart and one table in the HTML report.
struct ReportSection {
  var title: String
  var charted: [ReportMetric]
  var tabled: [ReportMetric]
  var style: SVGChart.Style
  var isMoney = false

  static let all: [ReportSection] = [
    ReportSection(
      title: "Active at the end of each bucket", charted: [.active, .subscribers],
      tabled: [.active, .subscribers, .familyShared], style: .lines),
    ReportSection(
      title: "Revenue net of refunds", charted: [.revenue], tabled: [.revenue, .charges], style: .lines,
      isMoney: true),
    ReportSection(
      title: "New subscriptions and trials", charted: [.newSubscriptions, .trialsStarted, .trialConversions, .reactivations],
      tabled: [
        .newSubscriptions, .reactivations, .trialsStarted, .trialConversions, .trialsConverted,
        .trialConversionRate, .trialConversionDays,
      ], style: .groupedBars),
    ReportSection(title: "Churn by reason", charted: [.churn], tabled: [.churn], style: .stackedBars),
    ReportSection(
      title: "Billing retry, grace and recoveries", charted: [.billingRetryEntries, .graceEntries, .billingRecoveries],
      tabled: [
        .billingRetryEntries, .graceEntries, .billingIssues, .billingRecoveries, .billingIssuesRecovered,
        .billingRecoveryRate,
      ], style: .groupedBars),
    ReportSection(
      title: "Refunds and reversals", charted: [.refunds, .refundReversals],
      tabled: [.refunds, .refundRate, .refunded, .refundReversals, .reversed], style: .groupedBars),
    ReportSection(
      title: "Upgrades, downgrades and crossgrades", charted: [.upgrades, .downgrades, .crossgrades],
      tabled: [.upgrades, .downgrades, .crossgrades], style: .stackedBars),
    ReportSection(
      title: "Consumable credits and spends", charted: [.credits, .spends], tabled: [.credits, .spends],
      style: .groupedBars),
  ]
}

extension Report {
  /// One self-contained HTML page: a chart per metric group and its table below it.
  /// - Complexity: O(buckets · metrics).
  public func html(log: String) -> String {
    var page = HTMLPage()
    page.element("h1", "StoreLedger report: \(log)")
    let span = buckets.isEmpty ? "" : "\(buckets[0].start.rfc3339) to \(buckets[buckets.count - 1].end.rfc3339)"
    page.element(
      "p",
      "\(buckets.count) \(interval.rawValue) buckets, \(span), as known "
        + (asOf.map { "at \($0.rfc3339)" } ?? "now (every event in the log)")
        + ". Money in currency units; definitions in Docs/reports.md.",
      attributes: "class=\"meta\"")
    let labels = buckets.map { label($0.start) }
    for section in ReportSection.all {
      guard section.tabled.contains(where: { buckets.first?[$0.rawValue] != nil }) else { continue }
      page.append("<section data-group=\"\(HTMLPage.escape(section.title))\">\n")
      page.element("h2", section.title)
      let columns = self.columns(section.tabled)
      guard !columns.isEmpty else {
        page.element("p", "None in these buckets.", attributes: "class=\"meta\"")
        page.append("</section>\n")
        continue
      }
      let charted = self.columns(section.charted)
      let series = charted.compactMap { column -> SVGChart.Series? in
        let values = buckets.map { bucket -> Double? in
          guard let value = bucket[column.metric.rawValue] else { return nil }
          switch value {
          case .count(let count): return Double(count)
          case .keyed: return Double(value[column.key ?? ""]) / (column.metric.isMoney ? 1000 : 1)
          case .rate: return nil
          }
        }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        return SVGChart.Series(name: column.title, values: values.map { $0! })
      }
      if !series.isEmpty {
        let chart = SVGChart(style: section.style, labels: labels, series: series)
        page.append(chart.svg(attributes: "class=\"chart\""))
      }
      page.append("<div class=\"scroll\">\n")
      // Metrics as rows and buckets as columns, like the chart above them.
      page.table(
        header: ["metric"] + labels,
        rows: columns.map { column in [column.title] + buckets.map { cell($0, column) } })
      page.append("</div>\n</section>\n")
    }
    return page.document(title: "StoreLedger report")
  }

  /// A column of the HTML tables: a metric, or one key of a keyed metric.
  struct Column {
    var metric: ReportMetric
    var key: String?

    var title: String {
      guard let key else { return metric.rawValue.replacingUnderscores() }
      return metric.rawValue.replacingUnderscores() + " " + key
    }
  }

  /// The columns of the given metrics present in this report: every key any bucket has.
  func columns(_ metrics: [ReportMetric]) -> [Column] {
    var columns: [Column] = []
    for metric in metrics {
      guard let first = buckets.first?[metric.rawValue] else { continue }
      guard case .keyed = first else {
        columns.append(Column(metric: metric, key: nil))
        continue
      }
      var keys: [String] = []
      for bucket in buckets {
        if case .keyed(let entries)? = bucket[metric.rawValue] {
          for entry in entries where !keys.contains(entry.key) { keys.append(entry.key) }
        }
      }
      if metric == .trialConversionDays {
        keys.sort { Int($0) ?? 0 < Int($1) ?? 0 }
      } else {
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      }
      columns += keys.map { Column(metric: metric, key: $0) }
    }
    return columns
  }

  private func cell(_ bucket: ReportBucket, _ column: Column) -> String {
    guard let value = bucket[column.metric.rawValue] else { return "" }
    switch value {
    case .count(let count): return String(count)
    case .keyed:
      let amount = value[column.key ?? ""]
      return column.metric.isMoney ? ReportFormat.money(thousandths: amount) : String(amount)
    case .rate: return value.rateTenThousandths.map { ReportFormat.decimal(tenThousandths: $0 * 100) + " %" } ?? "–"
    }
  }

  /// The label of a bucket: `2026-03` for months, `2026-03-02` otherwise.
  func label(_ start: Timestamp) -> String {
    let text = start.rfc3339
    return String(text.prefix(interval == .month ? 7 : 10))
  }
}

extension ReportComparison {
  /// One self-contained HTML page with a table of what changed, bucket by bucket.
  public func html(log: String) -> String {
    var page = HTMLPage()
    page.element("h1", "StoreLedger report changes: \(log)")
    page.element(
      "p",
      "As known at \(beforeAsOf.map(\.rfc3339) ?? "now") versus as known at \(afterAsOf.map(\.rfc3339) ?? "now (every event in the log)"). Money in thousandths; only values that changed are listed.",
      attributes: "class=\"meta\"")
    var rows: [[String]] = []
    for bucket in buckets {
      for change in bucket.changes {
        rows.append([
          bucket.start.rfc3339, change.name, String(change.before), String(change.after),
          String(change.after &- change.before),
        ])
      }
    }
    page.table(header: ["bucket start", "metric", "before", "after", "change"], rows: rows)
    if rows.isEmpty { page.element("p", "Nothing changed: no event recorded between the two times changes these buckets.") }
    return page.document(title: "StoreLedger report changes")
  }
}

extension String {
  /// `new_subscriptions` → `new subscriptions`, for headings.
  func replacingUnderscores() -> String {
    String(map { $0 == "_" ? " " : $0 })
  }
}
