import StoreLedgerCore

extension Report {
  /// One row per bucket: `start,end`, then one column per metric and key (`revenue.USD`); with
  /// segments (`report --by`), a first column `segment` (`all` for the whole report's rows, then
  /// each segment's rows).
  ///
  /// Keyed metrics get a column for every key any bucket has, so rows line up; each header
  /// names its unit (`revenue.USD (thousandths)`); money stays in thousandths and rates are
  /// decimals (empty when undefined), as in the JSON. A metric a row lacks is empty.
  /// - Complexity: O(rows · columns).
  package var csv: String {
    var rows: [(segment: String?, bucket: ReportBucket)] = buckets.map { (segments == nil ? nil : "all", $0) }
    for part in segments?.parts ?? [] { rows += part.buckets.map { (part.value, $0) } }
    let columns = Self.csvColumns(rows.map(\.bucket))
    let names = columns.map { column in
      let unit = ReportMetric(rawValue: column.name).map { " (\($0.unit))" } ?? ""
      return CSV.field(column.name + (column.key.map { "." + $0 } ?? "") + unit)
    }
    var text = ((segments == nil ? [] : ["segment"]) + ["start", "end"] + names).joined(separator: ",") + "\n"
    for (segment, bucket) in rows {
      var row = segment.map { [CSV.field($0)] } ?? []
      row += [bucket.start.rfc3339, bucket.end.rfc3339]
      for column in columns { row.append(Self.csvCell(bucket[column.name], key: column.key, name: column.name)) }
      text += row.joined(separator: ",") + "\n"
    }
    return text
  }

  /// The columns of `buckets`: every metric in the order first seen, a keyed one once per key any bucket has.
  /// - Complexity: O(buckets · metric entries · columns).
  private static func csvColumns(_ buckets: [ReportBucket]) -> [(name: String, key: String?)] {
    var names: [String] = []
    var keys: [String: [String]] = [:]
    for bucket in buckets {
      for metric in bucket.metrics {
        if !names.contains(metric.name) { names.append(metric.name) }
        guard case .keyed(let entries) = metric.value else { continue }
        var known = keys[metric.name, default: []]
        for entry in entries where !known.contains(entry.key) { known.append(entry.key) }
        keys[metric.name] = known
      }
    }
    var columns: [(name: String, key: String?)] = []
    for name in names {
      guard var known = keys[name] else {
        columns.append((name, nil))
        continue
      }
      if let metric = ReportMetric(rawValue: name) {
        known.sort(by: metric.keyPrecedes)
      } else {
        known.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      }
      columns += known.map { (name, $0) }
    }
    return columns
  }

  /// One cell: a count, a key's value, a rate as a decimal; empty for a rate without a denominator,
  /// a metric the row lacks, or a key beyond the row (a cohort offset past the report's end).
  private static func csvCell(_ value: MetricValue?, key: String?, name: String) -> String {
    guard let value else { return "" }
    if let key {
      let isBeyond = ReportMetric(rawValue: name)?.keepsZeroKeys == true && value.entry(key) == nil
      return isBeyond ? "" : String(value[key])
    }
    if case .count(let count) = value { return String(count) }
    return value.rateTenThousandths.map(ReportFormat.decimal(tenThousandths:)) ?? ""
  }
}

/// RFC 4180 quoting.
enum CSV {
  /// The field, its control characters escaped (`TerminalText`: a CSV is often read on a
  /// terminal), quoted when it holds a comma or quote. Fields are metric names and keys, so a
  /// field never starts with `=`, `+`, `-` or `@` (no spreadsheet formula).
  static func field(_ unescaped: String) -> String {
    let text = TerminalText.escaped(unescaped)
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    var quoted = "\""
    for character in text {
      if character == "\"" { quoted.append("\"") }
      quoted.append(character)
    }
    return quoted + "\""
  }
}

/// Number formatting shared by the report's writers, without Foundation formatters.
enum ReportFormat {
  /// `6667` → `0.6667`, `5000` → `0.5`, `10000` → `1`.
  static func decimal(tenThousandths: Int64) -> String {
    fixed(tenThousandths, scale: 10_000, digits: 4)
  }

  /// Thousandths of a currency unit as units: `4990` → `4.99`, `-29990` → `-29.99`, `5` → `0.005`.
  static func money(thousandths: Int64) -> String {
    fixed(thousandths, scale: 1000, digits: 3, minimumDigits: 2)
  }

  /// `factor` × thousandths as units, exact where the product would pass `Int64` (12 × MRR as ARR):
  /// whole units and thousandths are multiplied apart. `factor` is at most 1,000.
  static func money(thousandths: Int64, times factor: Int64) -> String {
    precondition((1...1000).contains(factor), "a small factor")
    let magnitude = thousandths.magnitude
    let fraction = magnitude % 1000 * UInt64(factor)
    let whole = magnitude / 1000 * UInt64(factor) + fraction / 1000
    let text = money(thousandths: Int64(fraction % 1000))
    return (thousandths < 0 ? "-" : "") + String(whole) + text.drop { $0 != "." }
  }

  private static func fixed(_ value: Int64, scale: Int64, digits: Int, minimumDigits: Int = 0) -> String {
    let sign = value < 0 ? "-" : ""
    let magnitude = value.magnitude
    let whole = magnitude / UInt64(scale)
    var fraction = String(magnitude % UInt64(scale))
    fraction = String(repeating: "0", count: digits - fraction.count) + fraction
    while fraction.count > minimumDigits, fraction.last == "0" { fraction.removeLast() }
    return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
  }
}
