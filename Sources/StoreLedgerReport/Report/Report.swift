import StoreLedgerCore

/// The value of one metric in one bucket.
package enum MetricValue: Sendable, Equatable {
  /// A count or an amount.
  case count(Int64)
  /// Counts or amounts by key (entitlement, product, currency, reason, day); sorted by key.
  case keyed([(key: String, value: Int64)])
  /// A ratio of two counts of the same bucket; nil-valued when the denominator is 0.
  case rate(numerator: Int64, denominator: Int64)

  /// Equal kinds with equal values (keyed entries in the same order).
  package static func == (a: MetricValue, b: MetricValue) -> Bool {
    switch (a, b) {
    case (.count(let x), .count(let y)): return x == y
    case (.keyed(let x), .keyed(let y)): return x.elementsEqual(y, by: { $0.key == $1.key && $0.value == $1.value })
    case (.rate(let n1, let d1), .rate(let n2, let d2)): return n1 == n2 && d1 == d2
    default: return false
    }
  }

  /// The rate in ten-thousandths, rounded half up; nil when the denominator is 0 or it is no rate.
  package var rateTenThousandths: Int64? {
    guard case .rate(let numerator, let denominator) = self, denominator != 0 else { return nil }
    return (numerator * 20_000 + denominator) / (2 * denominator)
  }

  /// The value under `key` of a keyed metric; nil when absent or not keyed.
  package func entry(_ key: String) -> Int64? {
    guard case .keyed(let entries) = self else { return nil }
    return entries.first(where: { $0.key == key })?.value
  }

  /// The value under `key` of a keyed metric (0 when absent or not keyed).
  package subscript(key: String) -> Int64 {
    guard case .keyed(let entries) = self else { return 0 }
    return entries.first(where: { $0.key == key })?.value ?? 0
  }
}

/// One bucket of a report: `[start, end)` and its metrics in a fixed order.
package struct ReportBucket: Sendable, Equatable {
  /// Start (inclusive).
  package var start: Timestamp
  /// End (exclusive); stock metrics such as `active` are read at this instant.
  package var end: Timestamp
  /// Metrics by name, in the order of `ReportMetric.allCases`.
  package var metrics: [(name: String, value: MetricValue)]

  /// Same span and the same metrics in the same order.
  package static func == (a: ReportBucket, b: ReportBucket) -> Bool {
    a.start == b.start && a.end == b.end
      && a.metrics.elementsEqual(b.metrics, by: { $0.name == $1.name && $0.value == $1.value })
  }

  /// The metric named `name`.
  package subscript(name: String) -> MetricValue? {
    metrics.first(where: { $0.name == name })?.value
  }
}

/// A report: metrics per bucket, as known at `asOf` (Docs/reports.md defines every metric).
package struct Report: Sendable, Equatable {
  /// The bucket length.
  package var interval: ReportInterval
  /// Knowledge time; nil for everything the log holds.
  package var asOf: Timestamp?
  /// The buckets in time order.
  package var buckets: [ReportBucket]
  /// With `--tz`: each bucket's start on the zone's wall clock (written as if it were UTC), for
  /// labels; nil in UTC (and after a merge, whose labels are then UTC dates).
  package var localStarts: [Timestamp]? = nil
  /// With `report --by`: the report split by one field of the charges (nil: not split).
  package var segments: ReportSegments? = nil
}

extension Report {
  /// The report with only the metrics named (in their usual order).
  package func keeping(metrics names: Set<String>) -> Report {
    var copy = self
    for index in copy.buckets.indices {
      copy.buckets[index].metrics.removeAll { !names.contains($0.name) }
    }
    for part in copy.segments?.parts.indices ?? 0..<0 {
      for index in copy.segments!.parts[part].buckets.indices {
        copy.segments!.parts[part].buckets[index].metrics.removeAll { !names.contains($0.name) }
      }
    }
    return copy
  }
}
