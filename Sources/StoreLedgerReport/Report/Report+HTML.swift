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
  /// One line printed beside the charts (`ReportDefinitions`, word for word in Docs/reports.md).
  var definition: String
  var charts: [Chart]
  var tabled: [ReportMetric]

  static let all: [ReportSection] = [
    ReportSection(
      title: "Active at the end of each bucket", definition: ReportDefinitions.active,
      charts: [Chart(metrics: [.active, .subscribers], style: .lines)], tabled: [.active, .subscribers, .familyShared]),
    ReportSection(
      title: "Monthly recurring revenue at the end of each bucket, per currency", definition: ReportDefinitions.mrr,
      charts: [Chart(metrics: [.mrr], style: .lines, isPerKey: true)],
      tabled: [.mrr, .mrrPricedSubscriptions, .mrrUnpricedSubscriptions]),
    ReportSection(
      title: "MRR movement, per currency: opening + new + reactivation + expansion − contraction − churn = MRR at the end",
      definition: ReportDefinitions.movement, charts: [Chart(metrics: [], style: .stackedBars, special: .movement)],
      tabled: [.mrrOpening, .mrrNew, .mrrReactivation, .mrrExpansion, .mrrContraction, .mrrChurn, .mrr]),
    ReportSection(
      title: "Revenue net of refunds and what the stores pay of it, per currency", definition: ReportDefinitions.revenue,
      charts: [Chart(metrics: [.revenue, .proceeds, .proceedsEstimated], style: .groupedBars, isPerKey: true)],
      tabled: [
        .revenue, .proceeds, .storeFees, .proceedsEstimated, .storeFeesEstimated, .proceedsUnknownRevenue, .charges,
        .proceedsUnknown,
      ]),
    ReportSection(
      title: "New subscriptions and trials", definition: ReportDefinitions.acquisition,
      charts: [
        Chart(metrics: [.newSubscriptions], style: .stackedBars),
        Chart(metrics: [.trialsStarted, .trialConversions, .reactivations], style: .groupedBars),
      ],
      tabled: [
        .newSubscriptions, .reactivations, .trialsStarted, .trialConversions, .trialsConverted,
        .trialConversionRate, .trialConversionDays,
      ]),
    ReportSection(
      title: "Paid cohorts: the share still paying k buckets after the first paid period", definition: ReportDefinitions.cohort,
      charts: [], tabled: [.paidCohortSubjects, .paidCohortRetained]),
    ReportSection(
      title: "Paying customers, ARPPU and realized lifetime value by first-payment cohort", definition: ReportDefinitions.lifetime,
      charts: [Chart(metrics: [], style: .lines, special: .lifetimeValue)],
      tabled: [.payingCustomers, .arppu, .firstPaymentCustomers, .firstPaymentRevenue, .ltv]),
    ReportSection(
      title: "Churn by reason", definition: ReportDefinitions.churn, charts: [Chart(metrics: [.churn], style: .stackedBars)],
      tabled: [.churn]),
    ReportSection(
      title: "Price increases: accepted and declined", definition: ReportDefinitions.priceIncreases,
      charts: [Chart(metrics: [.priceIncreasesAccepted, .priceIncreasesDeclined], style: .groupedBars)],
      tabled: [.priceIncreasesAccepted, .priceIncreasesDeclined, .priceIncreaseAcceptanceRate]),
    ReportSection(
      title: "Billing retry, grace and recoveries", definition: ReportDefinitions.billing,
      charts: [Chart(metrics: [.billingRetryEntries, .graceEntries, .billingRecoveries], style: .groupedBars)],
      tabled: [
        .billingRetryEntries, .graceEntries, .billingIssues, .billingRecoveries, .billingIssuesRecovered,
        .billingRecoveryRate,
      ]),
    ReportSection(
      title: "Refunds, reversals and refund requests", definition: ReportDefinitions.refundsSection,
      charts: [Chart(metrics: [.refunds, .refundReversals, .refundRequests, .refundsDeclined, .refundsGranted], style: .groupedBars)],
      tabled: [
        .refunds, .refundRate, .refunded, .refundReversals, .reversed, .refundRequests, .refundsDeclined, .refundsGranted,
        .refundGrantRate,
      ]),
    ReportSection(
      title: "Upgrades, downgrades and crossgrades", definition: ReportDefinitions.planChanges,
      charts: [Chart(metrics: [.upgrades, .downgrades, .crossgrades], style: .stackedBars)], tabled: [.upgrades, .downgrades, .crossgrades]),
    ReportSection(
      title: "Consumable credits and spends", definition: ReportDefinitions.consumables,
      charts: [Chart(metrics: [.credits, .spends], style: .groupedBars)], tabled: [.credits, .spends]),
    ReportSection(
      title: "Usage policy: the trial funnel, limit hits and leaks", definition: ReportDefinitions.usage,
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
  /// One self-contained HTML page: the headline figures of the last complete bucket (complete when
  /// it ends by `asOf`, else by `now`), then a chart per metric group with its definition and table;
  /// with `rates`, money also summed in one currency.
  /// - Complexity: O(buckets · metrics).
  package func html(log: String, now: Timestamp? = nil, rates: ExchangeRates? = nil) -> String {
    var page = HTMLPage()
    page.element("h1", "StoreLedger report: \(log)")
    let span = buckets.isEmpty ? "" : "\(buckets[0].start.rfc3339) to \(buckets[buckets.count - 1].end.rfc3339)"
    page.element(
      "p",
      "\(Plural.counted(buckets.count, interval.rawValue + " bucket")), \(span), as known "
        + (asOf.map { "at \($0.rfc3339)" } ?? "now (every event in the log)")
        + ". Money in each currency's own minor units, yen without decimals (the JSON and CSV formats are exact); tables list the newest bucket first; definitions in Docs/reports.md.",
      attributes: "class=\"meta\"")
    headline(into: &page, now: now, rates: rates)
    let labels = buckets.indices.map(bucketLabel)
    for section in ReportSection.all {
      guard section.tabled.contains(where: { buckets.first?[$0.rawValue] != nil }) else { continue }
      page.append("<section data-group=\"\(HTMLPage.escape(section.title))\">\n")
      page.element("h2", section.title)
      page.element("p", section.definition, attributes: "class=\"definition\"")
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
      charts(of: section, into: &page, labels: labels, rates: rates)
      // Cohort metrics by offset are tables of their own (`lifetimeValueTables`), not rows per bucket.
      let byOffset: [ReportMetric] = [.firstPaymentRevenue, .ltv]
      var rows = columns.filter { !byOffset.contains($0.metric) }.map { column in
        (title: column.title, cells: buckets.map { cell($0, column) })
      }
      var notes: [String] = []
      if let rates, let metric = [ReportMetric.mrr, .revenue].first(where: section.tabled.contains), buckets.first?[metric.rawValue] != nil {
        rows.insert(totalRow(metric, rates: rates), at: 0)
        notes = missingRates([metric], rates: rates)
      }
      page.bucketTables(labels: labels, rows: rows)
      if section.tabled.contains(.ltv) { page.append(lifetimeValueTables(labels: labels)) }
      for note in notes { page.element("p", "Total left out (–): " + note + ".", attributes: "class=\"note\"") }
      page.append("</section>\n")
    }
    appendSegments(to: &page)
    return page.document(title: "StoreLedger report")
  }

  /// A section's charts; the MRR charts carry the coverage, and with rates a total comes first.
  private func charts(of section: ReportSection, into page: inout HTMLPage, labels: [String], rates: ExchangeRates?) {
    for chart in section.charts {
      if let special = chart.special {
        page.append(special == .movement ? movementCharts(labels: labels) : lifetimeValueCharts(labels: labels))
        continue
      }
      // A chart with nothing but zeros says less than the table's "0"s: it is not drawn.
      let keyed = self.columns(chart.metrics).filter { !$0.isAnnual && !$0.isPerSubscriber }
        .compactMap { column in series(for: column).map { (key: column.key, series: $0) } }.filter { $0.series.values.contains { $0 != 0 } }
      let lines = keyed.map(\.series)
      guard !lines.isEmpty else { continue }
      let isMoney = chart.metrics.contains(where: \.isMoney)
      let caption = chart.metrics == [.mrr] ? mrrCoverageCaption() : nil
      if let rates, chart.isPerKey, let metric = chart.metrics.first {
        let values = buckets.indices.map { index -> Double in
          guard case .amount(let total) = total(of: metric, bucket: index, rates: rates) else { return .nan }
          return Double(total) / 1000
        }
        let name = "\(metric.title) total in \(rates.target) (at dated rates)"
        let svg = SVGChart(style: chart.style == .lines ? .lines : .groupedBars, labels: labels, series: [.init(name: name, values: values)], caption: caption)
        page.append(svg.svg(attributes: "class=\"chart\""))
      }
      guard chart.isPerKey else {
        page.append(SVGChart(style: chart.style, labels: labels, series: lines, isCount: !isMoney).svg(attributes: "class=\"chart\""))
        continue
      }
      page.append("<div class=\"grid\">\n")
      // One chart per key (currency), its metrics side by side (revenue beside proceeds).
      var keys: [String?] = []
      for entry in keyed where !keys.contains(entry.key) { keys.append(entry.key) }
      for key in keys {
        let group = keyed.filter { $0.key == key }.map(\.series)
        let svg = SVGChart(style: chart.style, labels: labels, series: group, width: 520, height: 190, isCount: !isMoney, caption: caption)
        page.append(svg.svg(attributes: "class=\"chart\""))
      }
      page.append("</div>\n")
    }
  }

  /// The MRR coverage for the MRR charts: the share of paid subscriptions with a price at the last
  /// bucket's end, and the lowest share of the report; nil without the metrics it reads.
  func mrrCoverageCaption() -> String? {
    var shares: [(index: Int, priced: Int64, all: Int64)] = []
    for (index, bucket) in buckets.enumerated() {
      guard case .count(let priced)? = bucket[ReportMetric.mrrPricedSubscriptions.rawValue],
        case .count(let unpriced)? = bucket[ReportMetric.mrrUnpricedSubscriptions.rawValue]
      else { return nil }
      if priced + unpriced > 0 { shares.append((index, priced, priced + unpriced)) }
    }
    guard let last = shares.last, let share = HTMLNumber.percent(last.priced, of: last.all) else { return nil }
    var caption = "coverage \(bucketLabel(last.index)): \(share) of paid subscriptions have a price"
    if let lowest = shares.min(by: { Double($0.priced) / Double($0.all) < Double($1.priced) / Double($1.all) }), lowest.index != last.index,
      let low = HTMLNumber.percent(lowest.priced, of: lowest.all)
    {
      caption += "; lowest \(low) (\(bucketLabel(lowest.index)))"
    }
    return caption
  }

  /// A table row of a money metric summed in the rates' currency, `–` where a rate is missing.
  private func totalRow(_ metric: ReportMetric, rates: ExchangeRates) -> (title: String, cells: [String]) {
    let cells = buckets.indices.map { index -> String in
      guard case .amount(let total) = total(of: metric, bucket: index, rates: rates) else { return "–" }
      return HTMLNumber.money(thousandths: total, currency: rates.target)
    }
    return ("\(metric.title) total in \(rates.target) (at dated rates)", cells)
  }

  /// The label of bucket `index`: its local start date with `--tz`, else its UTC start date.
  func bucketLabel(_ index: Int) -> String {
    label(localStarts?[index] ?? buckets[index].start)
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
      var row = "<tr><th>\(HTMLPage.escape(labels[index]))</th><td>\(HTMLNumber.count(size))</td>"
      for entry in retained {
        // Ten-thousandths of the cohort, rounded half up, as report rates are.
        let share = (entry.value * 20_000 + size) / (2 * size)
        let shade = 95 - Int(share * 55 / 10_000)
        let ink = shade < 60 ? "#ffffff" : "#1d2330"
        row += "<td style=\"background: hsl(217, 70%, \(shade)%); color: \(ink)\" title=\"\(entry.value) of \(size)\">"
        row += HTMLPage.escape(HTMLNumber.percent(entry.value, of: size) ?? "–") + "</td>"
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

  /// A table cell, in `HTMLNumber`'s formats: counts and money grouped, money in its currency's minor units, shares in percent.
  private func cell(_ bucket: ReportBucket, _ column: Column) -> String {
    guard let value = bucket[column.metric.rawValue] else { return "" }
    switch value {
    case .count(let count): return HTMLNumber.count(count)
    case .keyed(let entries):
      if let days = column.days {
        return HTMLNumber.count(entries.filter { Int64($0.key).map(days.contains) ?? false }.reduce(0) { $0 + $1.value })
      }
      let amount = value[column.key ?? ""]
      let currency = HTMLNumber.currency(ofKey: column.key ?? "")
      if column.isAnnual { return HTMLNumber.money(thousandths: amount, times: 12, currency: currency) }
      if column.isPerSubscriber {
        guard case .count(let subscribers)? = bucket[ReportMetric.subscribers.rawValue], subscribers > 0 else { return "–" }
        // Hundredths, rounded half up; the remainder is below `subscribers`, so only the whole part can overflow.
        let (whole, overflow) = (amount / subscribers).multipliedReportingOverflow(by: 1000)
        guard !overflow, amount >= 0 else { return "–" }
        let hundredths = (amount % subscribers * 200 + subscribers) / (2 * subscribers)
        return HTMLNumber.hundredths(thousandths: whole + hundredths * 10)
      }
      return column.metric.isMoney ? HTMLNumber.money(thousandths: amount, currency: currency) : HTMLNumber.count(amount)
    case .rate(let numerator, let denominator): return HTMLNumber.percent(numerator, of: denominator) ?? "–"
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
