import StoreLedgerCore

/// A group of related metrics: its charts and one table in the HTML report.
struct ReportSection {
  /// One chart of a section.
  struct Chart {
    var metrics: [ReportMetric]
    var style: SVGChart.Style
    /// One small chart per key (per currency): amounts in different currencies never share an axis.
    var isPerKey = false
    /// A chart drawn from several metrics at once (`Report+HTMLFinance.swift`) instead of `metrics`.
    var special: Special? = nil
  }

  /// The charts that combine metrics.
  enum Special {
    /// The MRR movement as bars around zero, the MRR as a line on top, per currency.
    case movement
    /// A line per first-payment cohort through its realized LTV, per currency.
    case lifetimeValue
  }

  var title: String
  var charts: [Chart]
  var tabled: [ReportMetric]

  static let all: [ReportSection] = [
    ReportSection(
      title: "Active at the end of each bucket", charts: [Chart(metrics: [.active, .subscribers], style: .lines)],
      tabled: [.active, .subscribers, .familyShared]),
    ReportSection(
      title: "Monthly recurring revenue at the end of each bucket, per currency",
      charts: [Chart(metrics: [.mrr], style: .lines, isPerKey: true)],
      tabled: [.mrr, .mrrUnpricedSubscriptions]),
    ReportSection(
      title: "MRR movement, per currency: opening + new + reactivation + expansion − contraction − churn = MRR at the end",
      charts: [Chart(metrics: [], style: .stackedBars, special: .movement)],
      tabled: [.mrrOpening, .mrrNew, .mrrReactivation, .mrrExpansion, .mrrContraction, .mrrChurn, .mrr]),
    ReportSection(
      title: "Revenue net of refunds, per currency", charts: [Chart(metrics: [.revenue], style: .groupedBars, isPerKey: true)],
      tabled: [.revenue, .charges]),
    ReportSection(
      title: "New subscriptions and trials",
      charts: [
        Chart(metrics: [.newSubscriptions], style: .stackedBars),
        Chart(metrics: [.trialsStarted, .trialConversions, .reactivations], style: .groupedBars),
      ],
      tabled: [
        .newSubscriptions, .reactivations, .trialsStarted, .trialConversions, .trialsConverted,
        .trialConversionRate, .trialConversionDays,
      ]),
    ReportSection(
      title: "Paid cohorts: the share still paying k buckets after the first paid period", charts: [],
      tabled: [.paidCohortSubjects, .paidCohortRetained]),
    ReportSection(
      title: "Paying customers, ARPPU and realized lifetime value by first-payment cohort",
      charts: [Chart(metrics: [], style: .lines, special: .lifetimeValue)],
      tabled: [.payingCustomers, .arppu, .firstPaymentCustomers, .firstPaymentRevenue, .ltv]),
    ReportSection(title: "Churn by reason", charts: [Chart(metrics: [.churn], style: .stackedBars)], tabled: [.churn]),
    ReportSection(
      title: "Billing retry, grace and recoveries",
      charts: [Chart(metrics: [.billingRetryEntries, .graceEntries, .billingRecoveries], style: .groupedBars)],
      tabled: [
        .billingRetryEntries, .graceEntries, .billingIssues, .billingRecoveries, .billingIssuesRecovered,
        .billingRecoveryRate,
      ]),
    ReportSection(
      title: "Refunds, reversals and refund requests",
      charts: [Chart(metrics: [.refunds, .refundReversals, .refundRequests, .refundsDeclined, .refundsGranted], style: .groupedBars)],
      tabled: [
        .refunds, .refundRate, .refunded, .refundReversals, .reversed, .refundRequests, .refundsDeclined, .refundsGranted,
        .refundGrantRate,
      ]),
    ReportSection(
      title: "Upgrades, downgrades and crossgrades",
      charts: [Chart(metrics: [.upgrades, .downgrades, .crossgrades], style: .stackedBars)],
      tabled: [.upgrades, .downgrades, .crossgrades]),
    ReportSection(
      title: "Consumable credits and spends", charts: [Chart(metrics: [.credits, .spends], style: .groupedBars)],
      tabled: [.credits, .spends]),
    ReportSection(
      title: "Usage policy: the trial funnel, limit hits and leaks",
      charts: [
        Chart(metrics: [.usageTrialsStarted, .limitHitSubjects, .limitHitConversions7d, .limitHitConversions30d], style: .groupedBars),
        Chart(metrics: [.leaks], style: .stackedBars),
      ],
      tabled: [
        .usageTrialsStarted, .usageTrialsConvertedInTrial, .usageTrialsEnded, .usageTrialsConvertedInGrace,
        .usageTrialsConvertedAfter, .subscriberUses, .limitHits, .limitHitSubjects, .limitHitConversions7d, .limitHitConversionRate7d,
        .limitHitConversions30d, .limitHitConversionRate30d, .leaks,
      ]),
  ]
}

extension Report {
  /// One self-contained HTML page: a chart per metric group and its table below it.
  /// - Complexity: O(buckets · metrics).
  package func html(log: String) -> String {
    var page = HTMLPage()
    page.element("h1", "StoreLedger report: \(log)")
    let span = buckets.isEmpty ? "" : "\(buckets[0].start.rfc3339) to \(buckets[buckets.count - 1].end.rfc3339)"
    page.element(
      "p",
      "\(Plural.counted(buckets.count, interval.rawValue + " bucket")), \(span), as known "
        + (asOf.map { "at \($0.rfc3339)" } ?? "now (every event in the log)")
        + ". Money in currency units; definitions in Docs/reports.md.",
      attributes: "class=\"meta\"")
    let labels = buckets.indices.map { label(localStarts?[$0] ?? buckets[$0].start) }
    for section in ReportSection.all {
      guard section.tabled.contains(where: { buckets.first?[$0.rawValue] != nil }) else { continue }
      page.append("<section data-group=\"\(HTMLPage.escape(section.title))\">\n")
      page.element("h2", section.title)
      let columns = self.columns(section.tabled)
      guard !columns.isEmpty, columns.contains(where: { column in buckets.contains { !isZero($0, column) } }) else {
        page.element("p", "None in these buckets.", attributes: "class=\"meta\"")
        page.append("</section>\n")
        continue
      }
      if section.tabled.contains(.paidCohortRetained) {
        cohortTable(into: &page, labels: labels)
        page.append("</section>\n")
        continue
      }
      for chart in section.charts {
        if let special = chart.special {
          page.append(special == .movement ? movementCharts(labels: labels) : lifetimeValueCharts(labels: labels))
          continue
        }
        // A chart with nothing but zeros says less than the table's "0"s: it is not drawn.
        let lines = self.columns(chart.metrics).filter { !$0.isAnnual && !$0.isPerSubscriber }.compactMap { series(for: $0) }.filter { $0.values.contains { $0 != 0 } }
        guard !lines.isEmpty else { continue }
        let isMoney = chart.metrics.contains(where: \.isMoney)
        if chart.isPerKey {
          page.append("<div class=\"grid\">\n")
          for single in lines {
            let svg = SVGChart(
              style: chart.style, labels: labels, series: [single], width: 520, height: 190, isCount: !isMoney)
            page.append(svg.svg(attributes: "class=\"chart\""))
          }
          page.append("</div>\n")
        } else {
          let svg = SVGChart(style: chart.style, labels: labels, series: lines, isCount: !isMoney)
          page.append(svg.svg(attributes: "class=\"chart\""))
        }
      }
      page.append("<div class=\"scroll\">\n")
      // Metrics as rows and buckets as columns, like the chart above them.
      page.table(
        header: ["metric"] + labels,
        rows: columns.map { column in [column.title] + buckets.map { cell($0, column) } })
      page.append("</div>\n</section>\n")
    }
    appendSegments(to: &page)
    return page.document(title: "StoreLedger report")
  }

  /// Whether a bucket's value in this column is 0 (or absent, or a rate without a denominator).
  private func isZero(_ bucket: ReportBucket, _ column: Column) -> Bool {
    guard let value = bucket[column.metric.rawValue] else { return true }
    switch value {
    case .count(let count): return count == 0
    case .keyed(let entries):
      if let days = column.days { return !entries.contains { Int64($0.key).map(days.contains) ?? false } }
      return value[column.key ?? ""] == 0
    case .rate(_, let denominator): return denominator == 0
    }
  }

  /// The paid cohorts as a heat map: a row per cohort bucket, a column per offset k, each cell
  /// the share still paying (the cell's background darker when higher), the count beside it.
  private func cohortTable(into page: inout HTMLPage, labels: [String]) {
    var rows: [String] = []
    var offsets = 0
    for (index, bucket) in buckets.enumerated() {
      guard case .count(let size)? = bucket[ReportMetric.paidCohortSubjects.rawValue], size > 0,
        case .keyed(let retained)? = bucket[ReportMetric.paidCohortRetained.rawValue]
      else { continue }
      offsets = max(offsets, retained.count)
      var row = "<tr><th>\(HTMLPage.escape(labels[index]))</th><td>\(size)</td>"
      for entry in retained {
        // Ten-thousandths of the cohort, rounded half up, as report rates are.
        let share = (entry.value * 20_000 + size) / (2 * size)
        let shade = 95 - Int(share * 55 / 10_000)
        let ink = shade < 60 ? "#ffffff" : "#1d2330"
        row += "<td style=\"background: hsl(217, 70%, \(shade)%); color: \(ink)\" title=\"\(entry.value) of \(size)\">"
        row += HTMLPage.escape(ReportFormat.decimal(tenThousandths: share * 100) + " %") + "</td>"
      }
      rows.append(row + "</tr>\n")
    }
    page.element(
      "p", "Share of each cohort (subjects whose first paid period began in the bucket) still paying at the end of the bucket k buckets later.",
      attributes: "class=\"meta\"")
    page.append("<div class=\"scroll\">\n<table class=\"cohorts\">\n<thead><tr><th>cohort</th><th>subjects</th>")
    for offset in 0..<offsets { page.append("<th>k = \(offset)</th>") }
    page.append("</tr></thead>\n<tbody>\n" + rows.joined() + "</tbody>\n</table>\n</div>\n")
  }

  /// The values of a column as a chart series (money in currency units); nil for rates.
  private func series(for column: Column) -> SVGChart.Series? {
    var values: [Double] = []
    for bucket in buckets {
      guard let value = bucket[column.metric.rawValue] else { return nil }
      switch value {
      case .count(let count): values.append(Double(count))
      case .keyed: values.append(Double(value[column.key ?? ""]) / (column.metric.isMoney ? 1000 : 1))
      case .rate: return nil
      }
    }
    return SVGChart.Series(name: column.title, values: values)
  }

  /// A column of the HTML tables: a metric, or one key of a keyed metric.
  struct Column {
    var metric: ReportMetric
    var key: String?
    /// For `trial_conversion_days`: the days summed in this column.
    var days: ClosedRange<Int64>? = nil
    /// For `mrr`: the row shows ARR (12 × MRR) instead.
    var isAnnual = false
    /// For `subscriber_uses`: the row shows uses per subscriber (÷ `subscribers` at the bucket's end).
    var isPerSubscriber = false

    var title: String {
      if isAnnual { return "ARR (12 × MRR) " + (key ?? "") }
      if isPerSubscriber { return "uses per subscriber (÷ subscribers at the end) " + (key ?? "") }
      if let days {
        let range = days.upperBound == Int64.max ? "\(days.lowerBound)+" : days.count == 1 ? "\(days.lowerBound)" : "\(days.lowerBound)–\(days.upperBound)"
        return "converted on trial day " + range
      }
      guard let key else { return metric.title }
      return metric.title + " " + key
    }
  }

  /// Trial days grouped for tables: the first days one by one, then weeks, then the rest.
  static let trialDayBins: [ClosedRange<Int64>] = [0...0, 1...1, 2...2, 3...6, 7...7, 8...13, 14...14, 15...30, 31...Int64.max]

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
        let days = keys.compactMap { Int64($0) }
        columns += Self.trialDayBins.filter { bin in days.contains(where: bin.contains) }.map {
          Column(metric: metric, key: nil, days: $0)
        }
        continue
      }
      keys.sort(by: metric.keyPrecedes)
      for key in keys {
        columns.append(Column(metric: metric, key: key))
        if metric == .mrr { columns.append(Column(metric: metric, key: key, isAnnual: true)) }
        if metric == .subscriberUses && buckets.first?[ReportMetric.subscribers.rawValue] != nil {
          columns.append(Column(metric: metric, key: key, isPerSubscriber: true))
        }
      }
    }
    return columns
  }

  private func cell(_ bucket: ReportBucket, _ column: Column) -> String {
    guard let value = bucket[column.metric.rawValue] else { return "" }
    switch value {
    case .count(let count): return String(count)
    case .keyed(let entries):
      if let days = column.days {
        return String(entries.filter { Int64($0.key).map(days.contains) ?? false }.reduce(0) { $0 + $1.value })
      }
      let amount = value[column.key ?? ""]
      if column.isAnnual { return ReportFormat.money(thousandths: amount, times: 12) }
      if column.isPerSubscriber {
        guard case .count(let subscribers)? = bucket[ReportMetric.subscribers.rawValue], subscribers > 0 else { return "–" }
        // Hundredths, rounded half up; the remainder is below `subscribers`, so only the whole part can overflow.
        let (whole, overflow) = (amount / subscribers).multipliedReportingOverflow(by: 1000)
        guard !overflow, amount >= 0 else { return "–" }
        let hundredths = (amount % subscribers * 200 + subscribers) / (2 * subscribers)
        return ReportFormat.money(thousandths: whole + hundredths * 10)
      }
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
  package func html(log: String) -> String {
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
          String(change.after - change.before),
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
