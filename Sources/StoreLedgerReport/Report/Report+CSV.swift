import StoreLedgerCore

extension Report {
  /// One row per bucket: `start,end`, then one column per metric and key (`revenue.USD`).
  ///
  /// Keyed metrics get a column for every key any bucket has, so rows line up; each header
  /// names its unit (`revenue.USD (thousandths)`); money stays in thousandths and rates are
  /// decimals (empty when undefined), as in the JSON.
  /// - Complexity: O(buckets · columns).
  package var csv: String {
    var columns: [(metric: Int, key: String?)] = []
    if let first = buckets.first {
      for (index, metric) in first.metrics.enumerated() {
        guard case .keyed = metric.value else {
          columns.append((index, nil))
          continue
        }
        var keys: [String] = []
        for bucket in buckets {
          if case .keyed(let entries) = bucket.metrics[index].value {
            for entry in entries where !keys.contains(entry.key) { keys.append(entry.key) }
          }
        }
        if let metric = ReportMetric(rawValue: first.metrics[index].name) {
          keys.sort(by: metric.keyPrecedes)
        } else {
          keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        columns += keys.map { (index, $0) }
      }
    }
    let names = columns.map { column in
      let name = buckets[0].metrics[column.metric].name
      let unit = ReportMetric(rawValue: name).map { " (\($0.unit))" } ?? ""
      return CSV.field(name + (column.key.map { "." + $0 } ?? "") + unit)
    }
    var text = (["start", "end"] + names).joined(separator: ",") + "\n"
    for bucket in buckets {
      var row = [bucket.start.rfc3339, bucket.end.rfc3339]
      for column in columns {
        let value = bucket.metrics[column.metric].value
        if let key = column.key {
          // A key the metric lists even at 0 but this bucket lacks is beyond its row (a cohort offset past the report's end).
          let isBeyond =
            ReportMetric(rawValue: bucket.metrics[column.metric].name)?.keepsZeroKeys == true
            && value.entry(key) == nil
          row.append(isBeyond ? "" : String(value[key]))
        } else if case .count(let count) = value {
          row.append(String(count))
        } else {
          row.append(value.rateTenThousandths.map(ReportFormat.decimal(tenThousandths:)) ?? "")
        }
      }
      text += row.joined(separator: ",") + "\n"
    }
    return text
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
