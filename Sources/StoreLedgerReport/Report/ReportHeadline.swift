import StoreLedgerCore

/// The figures at the top of the HTML report, for its last complete bucket, each read from the
/// report's own metrics (so each equals what the JSON report of the same log says) beside the
/// previous bucket's. Definitions: `ReportDefinitions` and Docs/reports.md, "The headline".
struct ReportHeadline {
  /// One headline figure: what `data-figure` names it, its value and the one it is compared with.
  struct Figure {
    /// `subscribers`, `mrr`, `mrr_change`, `churn_rate`, `trial_conversion`, `refunds`.
    var name: String
    var title: String
    /// The figure as shown, one line per currency where it has several.
    var lines: [Line]
    /// The previous bucket's figure, or another word on it.
    var detail: String
    var definition: String
  }

  /// One line of a figure: the text and the exact value it shows, for `data-value`.
  struct Line {
    var text: String
    var value: String
  }

  /// The last complete bucket, nil when none is.
  var bucket: Int?
  var figures: [Figure] = []

  /// The headline of `report`: buckets are complete when they end by `asOf`, else by `now`
  /// (nil: every bucket ends in the past).
  /// - Complexity: O(buckets + currencies).
  init(_ report: Report, now: Timestamp?, rates: ExchangeRates?) {
    let knownAt = report.asOf ?? now ?? .distantFuture
    bucket = report.buckets.lastIndex { $0.end <= knownAt }
    guard let index = bucket else { return }
    let previous = index > 0 ? index - 1 : nil
    let reading = HeadlineReading(report: report, index: index, previous: previous, rates: rates)
    figures = [
      reading.subscribers(), reading.mrr(), reading.mrrChange(), reading.churnRate(), reading.trialConversion(),
      reading.refunds(),
    ].compactMap { $0 }
  }
}

/// Reads one headline figure at a time from a report's bucket and the one before it.
private struct HeadlineReading {
  let report: Report
  let index: Int
  let previous: Int?
  let rates: ExchangeRates?

  private var bucket: ReportBucket { report.buckets[index] }
  private var previousLabel: String { previous.map { report.bucketLabel($0) } ?? "" }

  func count(_ metric: ReportMetric, _ at: Int) -> Int64? {
    guard case .count(let value)? = report.buckets[at][metric.rawValue] else { return nil }
    return value
  }

  func keyed(_ metric: ReportMetric, _ at: Int) -> [(key: String, value: Int64)]? {
    guard case .keyed(let entries)? = report.buckets[at][metric.rawValue] else { return nil }
    return entries
  }

  func subscribers() -> ReportHeadline.Figure? {
    guard let now = count(.subscribers, index) else { return nil }
    var detail = "no bucket before it in this report"
    if let previous, let before = count(.subscribers, previous) {
      detail = "\(previousLabel): \(HTMLNumber.count(before))" + (HTMLNumber.change(from: before, to: now).map { " (\($0))" } ?? "")
    }
    return .init(
      name: "subscribers", title: "Active subscribers", lines: [.init(text: HTMLNumber.count(now), value: String(now))],
      detail: detail, definition: ReportDefinitions.subscribers)
  }

  func mrr() -> ReportHeadline.Figure? {
    guard let amounts = keyed(.mrr, index) else { return nil }
    var lines = amounts.map { ReportHeadline.Line(text: "\($0.key) \(HTMLNumber.money(thousandths: $0.value, currency: $0.key))", value: String($0.value)) }
    if let rates { lines.append(total(of: .mrr, at: index, rates: rates)) }
    if lines.isEmpty { lines = [.init(text: "none", value: "0")] }
    var detail = "coverage unknown (no mrr_priced_subscriptions in this report)"
    if let priced = count(.mrrPricedSubscriptions, index), let unpriced = count(.mrrUnpricedSubscriptions, index) {
      detail =
        HTMLNumber.percent(priced, of: priced + unpriced).map {
          "covers \($0) of paid subscriptions (\(HTMLNumber.count(priced)) of \(HTMLNumber.count(priced + unpriced)) have a price)"
        } ?? "no paid subscription at the bucket's end"
    }
    return .init(name: "mrr", title: "MRR", lines: lines, detail: detail, definition: ReportDefinitions.mrr)
  }

  func mrrChange() -> ReportHeadline.Figure? {
    guard let previous, let after = keyed(.mrr, index), let before = keyed(.mrr, previous) else { return nil }
    var currencies = (after.map(\.key) + before.map(\.key)).filter { !$0.isEmpty }
    currencies = currencies.enumerated().filter { currencies.firstIndex(of: $0.element) == $0.offset }.map(\.element)
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var lines: [ReportHeadline.Line] = []
    for currency in currencies {
      let now = after.first { $0.key == currency }?.value ?? 0
      let then = before.first { $0.key == currency }?.value ?? 0
      let difference = now - then  // both at most `Limits.reportValueMax`, half of Int64.max
      let share = HTMLNumber.change(from: then, to: now).map { " (\($0))" } ?? ""
      lines.append(.init(text: "\(currency) \(difference >= 0 ? "+" : "")\(HTMLNumber.money(thousandths: difference, currency: currency))\(share)", value: String(difference)))
    }
    if let rates {
      let now = total(of: .mrr, at: index, rates: rates)
      let then = total(of: .mrr, at: previous, rates: rates)
      if let a = Int64(now.value), let b = Int64(then.value) {
        let share = HTMLNumber.change(from: b, to: a).map { " (\($0))" } ?? ""
        lines.append(.init(text: "total \(rates.target) \(a - b >= 0 ? "+" : "")\(HTMLNumber.money(thousandths: a - b, currency: rates.target))\(share)", value: String(a - b)))
      } else {
        lines.append(.init(text: "total \(rates.target): –, a rate is missing", value: ""))
      }
    }
    if lines.isEmpty { lines = [.init(text: "none", value: "0")] }
    return .init(
      name: "mrr_change", title: "MRR change vs \(previousLabel)", lines: lines, detail: "mrr − mrr_opening, per currency",
      definition: ReportDefinitions.mrrChange)
  }

  func churnRate() -> ReportHeadline.Figure? {
    guard let churned = keyed(.churn, index)?.reduce(0, { $0 + $1.value }) else { return nil }
    guard let previous, let base = count(.subscribers, previous), let share = HTMLNumber.percent(churned, of: base) else {
      return .init(
        name: "churn_rate", title: "Churn rate", lines: [.init(text: "–", value: "")],
        detail: "\(HTMLNumber.count(churned)) ended; no subscribers at the start to divide by", definition: ReportDefinitions.churnRate)
    }
    return .init(
      name: "churn_rate", title: "Churn rate", lines: [.init(text: share, value: "\(churned)/\(base)")],
      detail: "\(HTMLNumber.count(churned)) subscriptions ended of \(HTMLNumber.count(base)) subscribers at the start",
      definition: ReportDefinitions.churnRate)
  }

  func trialConversion() -> ReportHeadline.Figure? {
    guard let started = count(.trialsStarted, index), let converted = count(.trialsConverted, index) else { return nil }
    let share = HTMLNumber.percent(converted, of: started)
    return .init(
      name: "trial_conversion", title: "Trial conversion", lines: [.init(text: share ?? "–", value: share == nil ? "" : "\(converted)/\(started)")],
      detail: "\(HTMLNumber.count(converted)) of \(HTMLNumber.count(started)) trials started in the bucket",
      definition: ReportDefinitions.trialConversion)
  }

  func refunds() -> ReportHeadline.Figure? {
    guard let refunds = count(.refunds, index) else { return nil }
    var lines = [ReportHeadline.Line(text: HTMLNumber.count(refunds), value: String(refunds))]
    for amount in keyed(.refunded, index) ?? [] {
      lines.append(.init(text: "\(amount.key) \(HTMLNumber.money(thousandths: amount.value, currency: amount.key)) refunded", value: String(amount.value)))
    }
    if let rates, keyed(.refunded, index) != nil { lines.append(total(of: .refunded, at: index, rates: rates)) }
    let charges = count(.charges, index)
    let detail = charges.flatMap { HTMLNumber.percent(refunds, of: $0).map { share in "\(share) of \(HTMLNumber.count(charges ?? 0)) charges" } }
    return .init(
      name: "refunds", title: "Refunds", lines: lines, detail: detail ?? "no charge in the bucket", definition: ReportDefinitions.refunds)
  }

  /// A money metric's currencies summed in the rates' target currency, or why not.
  func total(of metric: ReportMetric, at bucket: Int, rates: ExchangeRates) -> ReportHeadline.Line {
    let total = report.total(of: metric, bucket: bucket, rates: rates)
    switch total {
    case .amount(let value):
      return .init(text: "total \(rates.target) \(HTMLNumber.money(thousandths: value, currency: rates.target))", value: String(value))
    case .missingRates(let currencies):
      return .init(text: "total \(rates.target): –, no rate for \(currencies.joined(separator: ", "))", value: "")
    case .outOfRange:
      return .init(text: "total \(rates.target): –, too large", value: "")
    }
  }
}
