import StoreLedgerCore

/// A self-contained HTML page: inline CSS and SVG, no scripts, nothing fetched.
struct HTMLPage {
  private(set) var body = ""

  /// Text with `&`, `<`, `>`, `"` and `'` escaped, safe in elements and attribute values.
  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// Appends raw markup.
  mutating func append(_ markup: String) { body += markup }

  /// Appends an element holding escaped text.
  mutating func element(_ name: String, _ text: String, attributes: String = "") {
    body += "<\(name)\(attributes.isEmpty ? "" : " " + attributes)>\(Self.escape(text))</\(name)>\n"
  }

  /// Appends a table: a header row and rows of cells (escaped); numeric cells align right.
  mutating func table(header: [String], rows: [[String]], attributes: String = "") {
    body += "<table\(attributes.isEmpty ? "" : " " + attributes)>\n<thead><tr>"
    for cell in header { body += "<th>\(Self.escape(cell))</th>" }
    body += "</tr></thead>\n<tbody>\n"
    for row in rows {
      body += "<tr>"
      for (index, cell) in row.enumerated() {
        body += index == 0 ? "<th>\(Self.escape(cell))</th>" : "<td>\(Self.escape(cell))</td>"
      }
      body += "</tr>\n"
    }
    body += "</tbody>\n</table>\n"
  }

  /// Most bucket columns in one table: wider spans become several tables, newest first, so a
  /// screen needs no sideways scrolling to reach the newest buckets and a printed page keeps them all.
  static let bucketColumnsMax = 12

  /// Appends tables of a metric per row and a bucket per column, the newest bucket first, at most
  /// `bucketColumnsMax` buckets per table; `rows` hold one cell per bucket, oldest first.
  /// - Complexity: O(rows · labels).
  mutating func bucketTables(labels: [String], rows: [(title: String, cells: [String])]) {
    var end = labels.count
    while end > 0 {
      let start = max(0, end - Self.bucketColumnsMax)
      let newestFirst = Array((start..<end).reversed())
      body += "<div class=\"scroll\">\n"
      table(
        header: ["metric"] + newestFirst.map { labels[$0] }, rows: rows.map { row in [row.title] + newestFirst.map { row.cells[$0] } },
        attributes: "class=\"buckets\"")
      body += "</div>\n"
      end = start
    }
  }

  /// The whole document.
  func document(title: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8"/>
    <title>\(Self.escape(title))</title>
    <style>
    body { font: 14px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1d2330; margin: 24px 32px; max-width: 1180px; }
    h1 { font-size: 22px; margin: 0 0 4px; }
    h2 { font-size: 17px; margin: 28px 0 6px; border-bottom: 1px solid #d8dce4; padding-bottom: 3px; }
    p.meta { color: #5a6272; margin: 0 0 12px; }
    table { border-collapse: collapse; margin: 8px 0 4px; font-size: 12px; font-variant-numeric: tabular-nums; }
    th, td { border: 1px solid #d8dce4; padding: 3px 8px; text-align: right; white-space: nowrap; }
    thead th { background: #f1f3f7; }
    tbody th { text-align: left; font-weight: normal; color: #39404f; }
    table.text td, table.text thead th { text-align: left; }
    .scroll { overflow-x: auto; }
    .grid { display: flex; flex-wrap: wrap; gap: 0 12px; }
    svg { display: block; margin: 6px 0; }
    svg text { font: 11px Helvetica, Arial, sans-serif; fill: #39404f; }
    svg text.caption { fill: #8a3b12; font-weight: bold; }
    p.definition { color: #39404f; font-style: italic; margin: 0 0 8px; }
    p.note { color: #8a3b12; margin: 2px 0 8px; }
    table.buckets tbody th { min-width: 180px; max-width: 260px; white-space: normal; }
    table.buckets td { min-width: 52px; }
    .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 10px; margin: 8px 0 4px; }
    .figure { border: 1px solid #d8dce4; border-radius: 6px; padding: 8px 12px; background: #f8f9fb; }
    .figure .name { font-weight: bold; color: #39404f; }
    .figure .value { font-size: 20px; font-variant-numeric: tabular-nums; }
    .figure .value + .value { font-size: 15px; }
    .figure .detail { color: #5a6272; margin: 2px 0 4px; }
    .figure p.definition { font-size: 12px; margin: 0; }
    @page { size: A4 landscape; margin: 12mm; }
    @media print {
      body { margin: 0; max-width: none; font-size: 11px; }
      h2 { break-after: avoid; }
      svg { max-width: 100%; height: auto; }
      .figure, svg, tr { break-inside: avoid; }
      .figures { grid-template-columns: repeat(3, 1fr); }
      .scroll { overflow: visible; }
      table { font-size: 9px; }
      th, td { padding: 2px 4px; }
      table.buckets tbody th { min-width: 160px; }
      table.buckets td { min-width: 0; }
      table.cohorts { font-size: 7px; }
      table.cohorts th, table.cohorts td { padding: 1px 2px; }
      /* Two small charts a row, as a grid: in a wrapping flex row Chromium printed one a row and
         shrank the first chart of a page to a thumbnail. */
      .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 0 12px; }
      .grid svg { width: 100%; height: auto; }
    }
    </style>
    </head>
    <body>
    \(body)</body>
    </html>

    """
  }
}

/// The colours of chart series and timeline states, distinguishable and print-safe.
enum ChartPalette {
  static let series = ["#2f6fdb", "#e8743b", "#19a979", "#945ecf", "#ed4a7b", "#13a4b4", "#bf8b00", "#6c7a89"]

  static func colour(_ index: Int) -> String { series[index % series.count] }
}
