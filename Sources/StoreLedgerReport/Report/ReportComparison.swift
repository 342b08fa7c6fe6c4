import StoreLedgerCore

/// What late events changed in a report: the same buckets as known at two knowledge times.
package struct ReportComparison: Sendable, Equatable {
  /// One count or amount that differs between the two reports.
  package struct Change: Sendable, Equatable {
    /// `metric` or `metric.key` (e.g. `revenue.USD`).
    package var name: String
    /// The value as known at the earlier knowledge time.
    package var before: Int64
    /// The value as known at the later one.
    package var after: Int64
    // Both values are within ±`Limits.reportValueMax` (half of `Int64.max`), so `after - before` cannot overflow.
  }

  /// One bucket's changes, in metric order then key order.
  package struct BucketChanges: Sendable, Equatable {
    /// Start (inclusive).
    package var start: Timestamp
    /// End (exclusive).
    package var end: Timestamp
    /// Every count or amount that differs; empty when late events changed nothing here.
    package var changes: [Change]
  }

  /// The earlier knowledge time.
  package var beforeAsOf: Timestamp?
  /// The later knowledge time (nil: everything the log holds).
  package var afterAsOf: Timestamp?
  /// Per bucket, what changed.
  package var buckets: [BucketChanges]

  /// Compares two reports over the same buckets; rates are left out (their counts are compared).
  /// - Complexity: O(buckets · values).
  package init(before: Report, after: Report) {
    precondition(
      before.buckets.map(\.start) == after.buckets.map(\.start),
      "comparing reports over different buckets: \(before.buckets.count) vs \(after.buckets.count)")
    beforeAsOf = before.asOf
    afterAsOf = after.asOf
    buckets = zip(before.buckets, after.buckets).map { old, new in
      var changes: [Change] = []
      for (oldMetric, newMetric) in zip(old.metrics, new.metrics) {
        let oldValues = Self.values(of: oldMetric)
        let newValues = Self.values(of: newMetric)
        var names = oldValues.map(\.name)
        for value in newValues where !names.contains(value.name) { names.append(value.name) }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in names {
          let a = oldValues.first(where: { $0.name == name })?.value ?? 0
          let b = newValues.first(where: { $0.name == name })?.value ?? 0
          if a != b { changes.append(Change(name: name, before: a, after: b)) }
        }
      }
      return BucketChanges(start: new.start, end: new.end, changes: changes)
    }
  }

  private static func values(of metric: (name: String, value: MetricValue)) -> [(name: String, value: Int64)] {
    switch metric.value {
    case .count(let count): return [(metric.name, count)]
    case .keyed(let entries): return entries.map { (metric.name + "." + $0.key, $0.value) }
    case .rate: return []
    }
  }

  /// `{"before_as_of": R1, "after_as_of": R2, "buckets": [{"start", "end", "changes": {NAME: {"before", "after", "change"}}}]}`.
  package var jsonValue: JSONValue {
    .object([
      ("before_as_of", beforeAsOf.map { .string($0.rfc3339) } ?? .null),
      ("after_as_of", afterAsOf.map { .string($0.rfc3339) } ?? .null),
      (
        "buckets",
        .array(
          buckets.map { bucket in
            .object([
              ("start", .string(bucket.start.rfc3339)), ("end", .string(bucket.end.rfc3339)),
              (
                "changes",
                .object(
                  bucket.changes.map {
                    (
                      $0.name,
                      .object([
                        ("before", .integer($0.before)), ("after", .integer($0.after)),
                        ("change", .integer($0.after - $0.before)),
                      ])
                    )
                  })
              ),
            ])
          })
      ),
    ])
  }

  /// One row per change: `start,end,metric,before,after,change`.
  package var csv: String {
    var text = "start,end,metric,before,after,change\n"
    for bucket in buckets {
      for change in bucket.changes {
        text += [
          bucket.start.rfc3339, bucket.end.rfc3339, CSV.field(change.name), String(change.before),
          String(change.after), String(change.after - change.before),
        ].joined(separator: ",") + "\n"
      }
    }
    return text
  }
}
