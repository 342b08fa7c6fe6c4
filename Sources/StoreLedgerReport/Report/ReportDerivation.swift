import StoreLedgerCore

/// The derived metrics, `arppu` and `ltv`: quotients of metrics summed over customers, so a
/// merge of shards sums the parts and divides again rather than adding quotients.
enum ReportDerivation {
  /// `amount ÷ count` rounded half up (towards +∞ on an exact half); `count` > 0.
  static func quotient(_ amount: Int64, _ count: Int64) -> Int64 {
    precondition(count > 0, "dividing by \(count) customers")
    let floor = floorDivide(amount, count)
    // 0 ≤ remainder < count, so neither side overflows.
    let remainder = amount - floor * count
    return remainder >= count - remainder ? floor + 1 : floor
  }

  /// `{CURRENCY: AMOUNT}`: each currency's net revenue ÷ paying customers; `{}` without any.
  static func arppu(revenue: MetricValue, payingCustomers: Int64) -> MetricValue {
    guard payingCustomers > 0, case .keyed(let entries) = revenue else { return .keyed([]) }
    return .keyed(entries.map { (key: $0.key, value: quotient($0.value, payingCustomers)) })
  }

  /// `{CURRENCY/K: AMOUNT}`: the cohort's cumulative net revenue ÷ its customers; `{}` without any.
  static func ltv(firstPaymentRevenue: MetricValue, customers: Int64) -> MetricValue {
    guard customers > 0, case .keyed(let entries) = firstPaymentRevenue else { return .keyed([]) }
    return .keyed(entries.map { (key: $0.key, value: quotient($0.value, customers)) })
  }
}

extension Report {
  /// The report with every derived metric it lists computed again from the parts of its bucket.
  /// Throws, naming `file`, when a bucket lacks a part (a partial cut down by hand).
  /// - Complexity: O(buckets · metrics).
  func derivingMetrics(file: String) throws(Diagnostic) -> Report {
    var copy = self
    for index in copy.buckets.indices {
      let bucket = copy.buckets[index]
      for (m, metric) in bucket.metrics.enumerated() {
        guard let known = ReportMetric(rawValue: metric.name), known.isDerived else { continue }
        let parts = known.parts.map { bucket[$0.rawValue] }
        guard let amounts = parts[0], case .count(let customers)? = parts[1] else {
          throw Diagnostic(
            file: file,
            .invalidValue(
              field: "report", expected: "\(known.parts.map(\.rawValue).joined(separator: " and ")) beside \(known.rawValue)",
              found: "a partial report without them"))
        }
        copy.buckets[index].metrics[m].value =
          known == .arppu
          ? ReportDerivation.arppu(revenue: amounts, payingCustomers: customers)
          : ReportDerivation.ltv(firstPaymentRevenue: amounts, customers: customers)
      }
    }
    return copy
  }
}
