import StoreLedgerCore

/// A money metric's currencies summed in one currency, or why there is no such sum.
enum CurrencyTotal: Equatable {
  /// Thousandths of the rates' target currency.
  case amount(Int64)
  /// These currencies have no rate dated before the bucket's end: no total, rather than a guess.
  case missingRates([String])
  /// The sum would pass `Limits.reportValueMax`.
  case outOfRange
}

extension Report {
  /// A money metric of one bucket (`mrr`, `revenue`, `refunded`) in the rates' target currency: each
  /// currency at its newest rate dated before the bucket's end (Docs/reports.md, "Totals in one currency").
  /// - Complexity: O(currencies · log(rates)).
  func total(of metric: ReportMetric, bucket: Int, rates: ExchangeRates) -> CurrencyTotal {
    guard case .keyed(let entries)? = buckets[bucket][metric.rawValue] else { return .amount(0) }
    var sum: Int64 = 0
    var missing: [String] = []
    var isOutOfRange = false
    for entry in entries {
      guard let rate = rates.rate(from: entry.key, before: buckets[bucket].end) else {
        missing.append(entry.key)
        continue
      }
      guard let converted = ExchangeRates.convert(entry.value, at: rate) else {
        isOutOfRange = true
        continue
      }
      let (next, overflow) = sum.addingReportingOverflow(converted)
      if overflow || next.magnitude > Limits.reportValueMax.magnitude { isOutOfRange = true } else { sum = next }
    }
    if !missing.isEmpty { return .missingRates(missing) }
    return isOutOfRange ? .outOfRange : .amount(sum)
  }

  /// For every bucket, the currencies of `metrics` without a rate dated before its end, as the
  /// note under a total says: `EUR: 2024-01 to 2024-03`.
  /// - Complexity: O(buckets · currencies · log(rates)).
  func missingRates(_ metrics: [ReportMetric], rates: ExchangeRates) -> [String] {
    var spans: [String: [Int]] = [:]
    for index in buckets.indices {
      for metric in metrics {
        guard case .missingRates(let currencies) = total(of: metric, bucket: index, rates: rates) else { continue }
        for currency in currencies where spans[currency]?.last != index { spans[currency, default: []].append(index) }
      }
    }
    return spans.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { currency in
      let indices = spans[currency] ?? []
      let first = bucketLabel(indices.first ?? 0)
      let last = bucketLabel(indices.last ?? 0)
      let span = indices.count == 1 ? first : "\(indices.count) buckets from \(first) to \(last)"
      return "no \(currency)→\(rates.target) rate dated before the end of \(span)"
    }
  }
}
