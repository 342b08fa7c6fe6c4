import StoreLedgerCore

/// Reports of shards, written as partials and summed back into the whole log's report.
///
/// Every metric of a bucket is a sum over subjects (a count of subjects, of events or of money,
/// Docs/reports.md), and shards hold disjoint subjects, so the whole log's counts are the sums of
/// the shards' counts. Rates are not additive: a partial keeps each rate's numerator and
/// denominator, and the merge divides the summed parts (Docs/scale-out.md); the derived metrics
/// (`arppu`, `ltv`) are divided again from their summed parts.
extension Report {
  /// The tag of a partial report, so a finished report is not merged by mistake.
  package static let partialFormat = "storeledger-report-partial/1"

  /// The report as a partial: the JSON report with each rate as `{"numerator": N, "denominator": D}`.
  package var partialJSONValue: JSONValue {
    jsonValue(format: Self.partialFormat) { value in
      guard case .rate(let numerator, let denominator) = value else { return value.jsonValue }
      return .object([("numerator", .integer(numerator)), ("denominator", .integer(denominator))])
    }
  }

  /// Reads a partial report written by `report --format partial`.
  /// - Complexity: O(size).
  package static func parsePartial(_ bytes: [UInt8], file: String) throws(Diagnostic) -> Report {
    func bad(_ detail: String) -> Diagnostic {
      Diagnostic(file: file, .invalidValue(field: "report", expected: "a partial report (report --format partial)", found: detail))
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: bytes)
    } catch {
      throw Diagnostic(file: file, line: error.line, column: error.column, .invalidJSON(error.detail))
    }
    guard value["format"]?.stringValue == partialFormat else {
      throw bad("no \"format\": \"\(partialFormat)\"")
    }
    guard let every = value["every"]?.stringValue, let interval = ReportInterval(rawValue: every) else {
      throw bad("no valid \"every\"")
    }
    var asOf: Timestamp? = nil
    if let text = value["as_of"]?.stringValue {
      guard let parsed = Timestamp.parseRFC3339(text) else { throw bad("as_of \(text)") }
      asOf = parsed
    }
    var report = Report(interval: interval, asOf: asOf, buckets: try parseBuckets(value["buckets"], file: file, bad: bad))
    if let by = value["by"]?.stringValue {
      guard let key = ReportSegmentKey(rawValue: by), case .array(let items)? = value["segments"] else {
        throw bad("\"by\": \(by) without valid \"segments\"")
      }
      var parts: [ReportSegment] = []
      for item in items {
        guard let name = item["segment"]?.stringValue else { throw bad("a segment without a name") }
        parts.append(ReportSegment(value: name, buckets: try parseBuckets(item["buckets"], file: file, bad: bad)))
      }
      report.segments = ReportSegments(key: key, parts: parts)
    }
    return report
  }

  /// The buckets of a partial report's `buckets` array.
  /// - Complexity: O(size).
  private static func parseBuckets(
    _ array: JSONValue?, file: String, bad: (String) -> Diagnostic
  ) throws(Diagnostic) -> [ReportBucket] {
    guard case .array(let items)? = array else { throw bad("no \"buckets\" array") }
    var buckets: [ReportBucket] = []
    for item in items {
      guard let members = item.objectMembers, let start = item["start"]?.stringValue.flatMap(Timestamp.parseRFC3339),
        let end = item["end"]?.stringValue.flatMap(Timestamp.parseRFC3339)
      else { throw bad("a bucket without start and end") }
      var metrics: [(name: String, value: MetricValue)] = []
      for (name, member) in members where name != "start" && name != "end" {
        switch member {
        case .integer(let count):
          guard count.magnitude <= Limits.reportValueMax.magnitude else { throw bad("\(name) is \(count), beyond ±\(Limits.reportValueMax)") }
          metrics.append((name, .count(count)))
        case .object(let entries):
          if name.hasSuffix("_rate") || name.contains("_rate_") {
            guard case .integer(let numerator)? = member["numerator"], case .integer(let denominator)? = member["denominator"]
            else { throw bad("rate \(name) without integer numerator and denominator") }
            guard (0...Limits.reportRatePartMax).contains(numerator), (0...Limits.reportRatePartMax).contains(denominator) else {
              throw bad("rate \(name) with a numerator or denominator outside 0…\(Limits.reportRatePartMax)")
            }
            metrics.append((name, .rate(numerator: numerator, denominator: denominator)))
          } else {
            var keyed: [(key: String, value: Int64)] = []
            for (key, entry) in entries {
              guard case .integer(let amount) = entry else { throw bad("\(name).\(key) is \(entry.kindName)") }
              guard amount.magnitude <= Limits.reportValueMax.magnitude else {
                throw bad("\(name).\(key) is \(amount), beyond ±\(Limits.reportValueMax)")
              }
              keyed.append((key, amount))
            }
            metrics.append((name, .keyed(try sumKeyed(keyed, [], metric: name, bucket: start, file: file))))
          }
        default:
          throw bad("metric \(name) is \(member.kindName)")
        }
      }
      // JSON objects come back in key order; a report lists metrics in `ReportMetric` order.
      let order = ReportMetric.allCases.map(\.rawValue)
      if let unknown = metrics.first(where: { !order.contains($0.name) }) { throw bad("unknown metric \(unknown.name)") }
      metrics.sort { order.firstIndex(of: $0.name)! < order.firstIndex(of: $1.name)! }
      buckets.append(ReportBucket(start: start, end: end, metrics: metrics))
    }
    return buckets
  }

  /// The sum of shards' reports: counts and amounts added key by key, rates from the summed parts.
  ///
  /// The reports must have the same buckets, knowledge time and metrics (one `report` command
  /// run with `--shard i/n` for every i); `files` name them in the error otherwise.
  /// - Complexity: O(reports × buckets × metric entries).
  package static func merging(_ reports: [Report], files: [String]) throws(Diagnostic) -> Report {
    precondition(!reports.isEmpty && reports.count == files.count, "one file per report")
    var merged = reports[0]
    for (report, file) in zip(reports, files).dropFirst() {
      func differ(_ what: String) -> Diagnostic {
        Diagnostic(
          file: file,
          .invalidValue(
            field: "report", expected: "the same \(what) as \(files[0]) (one report command run per shard)",
            found: "different \(what)"))
      }
      guard report.interval == merged.interval, report.asOf == merged.asOf else { throw differ("--every and --as-of") }
      guard report.buckets.count == merged.buckets.count else { throw differ("buckets") }
      for index in merged.buckets.indices {
        let bucket = report.buckets[index]
        guard bucket.start == merged.buckets[index].start, bucket.end == merged.buckets[index].end,
          bucket.metrics.map(\.name) == merged.buckets[index].metrics.map(\.name)
        else { throw differ("buckets and metrics") }
        for m in bucket.metrics.indices {
          let name = bucket.metrics[m].name
          // A derived metric is divided again from the summed parts below, never added.
          if ReportMetric(rawValue: name)?.isDerived == true { continue }
          switch (merged.buckets[index].metrics[m].value, bucket.metrics[m].value) {
          case (.count(let a), .count(let b)):
            merged.buckets[index].metrics[m].value = .count(
              try checkedSum(a, b, limit: Limits.reportValueMax, name: name, bucket: bucket.start, file: file))
          case (.rate(let n1, let d1), .rate(let n2, let d2)):
            merged.buckets[index].metrics[m].value = .rate(
              numerator: try checkedSum(n1, n2, limit: Limits.reportRatePartMax, name: name, bucket: bucket.start, file: file),
              denominator: try checkedSum(d1, d2, limit: Limits.reportRatePartMax, name: name, bucket: bucket.start, file: file))
          case (.keyed(let a), .keyed(let b)):
            merged.buckets[index].metrics[m].value = .keyed(
              try sumKeyed(a, b, metric: name, bucket: bucket.start, file: file))
          default:
            throw differ("kind of metric \(name)")
          }
        }
      }
    }
    merged.segments = try mergedSegments(reports, files: files)
    return try merged.derivingMetrics(file: files[0])
  }

  /// The shards' segments merged value by value (a shard without a value adds nothing to it).
  private static func mergedSegments(_ reports: [Report], files: [String]) throws(Diagnostic) -> ReportSegments? {
    guard let key = reports[0].segments?.key else {
      if let index = reports.firstIndex(where: { $0.segments != nil }) { throw differentSplit(files[index], files[0]) }
      return nil
    }
    var byValue: [String: (reports: [Report], files: [String])] = [:]
    for (report, file) in zip(reports, files) {
      guard let segments = report.segments, segments.key == key else { throw differentSplit(file, files[0]) }
      for part in segments.parts {
        let whole = Report(interval: report.interval, asOf: report.asOf, buckets: part.buckets)
        byValue[part.value, default: ([], [])].reports.append(whole)
        byValue[part.value, default: ([], [])].files.append(file)
      }
    }
    var parts: [ReportSegment] = []
    for (value, group) in byValue {
      parts.append(ReportSegment(value: value, buckets: try merging(group.reports, files: group.files).buckets))
    }
    return ReportSegments(key: key, parts: parts)
  }

  /// The error for partials split differently (`--by`).
  private static func differentSplit(_ file: String, _ first: String) -> Diagnostic {
    Diagnostic(
      file: file,
      .invalidValue(field: "report", expected: "the same --by as \(first) (one report command run per shard)", found: "a different --by"))
  }

  /// `a + b` when its magnitude is at most `limit`; else the error naming the metric, bucket and file.
  /// Both parts are within ±`Limits.reportValueMax` (checked on reading), so the sum cannot overflow.
  private static func checkedSum(
    _ a: Int64, _ b: Int64, limit: Int64, name: String, bucket: Timestamp, file: String
  ) throws(Diagnostic) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow || sum.magnitude > limit.magnitude else { return sum }
    throw Diagnostic(file: file, .reportValueOutOfRange(name: name, bucketStart: bucket.rfc3339, limit: limit))
  }

  /// Key-by-key sums in the report's key order; zero sums dropped as a report drops them.
  private static func sumKeyed(
    _ a: [(key: String, value: Int64)], _ b: [(key: String, value: Int64)], metric: String, bucket: Timestamp,
    file: String
  ) throws(Diagnostic) -> [(key: String, value: Int64)] {
    var sums: [String: Int64] = [:]
    for entry in a + b {
      let total = sums[entry.key, default: 0]
      sums[entry.key] = try checkedSum(
        total, entry.value, limit: Limits.reportValueMax, name: metric + "." + entry.key, bucket: bucket, file: file)
    }
    let known = ReportMetric(rawValue: metric)
    let keepsZeros = known?.keepsZeroKeys ?? false
    let entries = sums.filter { keepsZeros || $0.value != 0 }.map { (key: $0.key, value: $0.value) }
    // Days and cohort offsets are ordered as numbers, as the report orders them.
    if let known { return entries.sorted { known.keyPrecedes($0.key, $1.key) } }
    return entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
  }
}
