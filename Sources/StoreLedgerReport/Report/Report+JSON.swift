import StoreLedgerCore

extension MetricValue {
  /// The value as JSON: a number, an object of numbers, or a rate (null when undefined).
  package var jsonValue: JSONValue {
    switch self {
    case .count(let value): return .integer(value)
    case .keyed(let entries): return .object(entries.map { ($0.key, .integer($0.value)) })
    case .rate:
      guard let tenThousandths = rateTenThousandths else { return .null }
      return .number(Double(tenThousandths) / 10_000)
    }
  }
}

extension Report {
  /// `{"as_of": R, "every": "month", "buckets": [{"start": T, "end": T, METRIC: VALUE, ...}]}`.
  package var jsonValue: JSONValue { jsonValue(format: nil) { $0.jsonValue } }

  /// The report's JSON with `format` (when given) after `every`, each metric's value written by
  /// `value`; with segments, `by`, a note on adding them up, and each segment's buckets.
  func jsonValue(format: String?, value: (MetricValue) -> JSONValue) -> JSONValue {
    var members: [(String, JSONValue)] = [("as_of", asOf.map { .string($0.rfc3339) } ?? .null), ("every", .string(interval.rawValue))]
    if let format { members.append(("format", .string(format))) }
    members.append(("buckets", Self.jsonValue(buckets, value: value)))
    if let segments {
      members.append(("by", .string(segments.key.rawValue)))
      members.append(("segments_note", .string(ReportSegments.note)))
      members.append(
        (
          "segments",
          .array(
            segments.parts.map {
              .object([("segment", .string($0.value)), ("buckets", Self.jsonValue($0.buckets, value: value))])
            })
        ))
    }
    return .object(members)
  }

  /// Buckets as a JSON array: `[{"start": T, "end": T, METRIC: VALUE, ...}]`.
  static func jsonValue(_ buckets: [ReportBucket], value: (MetricValue) -> JSONValue) -> JSONValue {
    .array(
      buckets.map { bucket in
        .object(
          [("start", .string(bucket.start.rfc3339)), ("end", .string(bucket.end.rfc3339))]
            + bucket.metrics.map { ($0.name, value($0.value)) })
      })
  }
}
