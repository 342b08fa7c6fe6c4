import StoreLedgerCore

extension CustomerTimeline {
  /// A plain table for terminals and support tickets: events, then lanes, then balances.
  /// - Complexity: O(events + segments).
  package var text: String {
    // Values from the log are escaped (`TerminalText`), cell by cell so that columns stay aligned.
    var out = "Subject \(TerminalText.escaped(subject)), as known " + (asOf.map { "at \($0.rfc3339)" } ?? "now (every event in the log)") + "\n"
    out += "\nEVENTS (effective order; 'learned' is shown when the ledger knew later than 'at')\n"
    let uses = markers.filter { $0.type == "usage" }.count
    let foldsUses = uses > Limits.timelineTextUsesMax && !usage.isEmpty
    out += Self.columns(
      [["at", "learned", "line", "id", "type", "details"]]
        + (foldsUses ? markers.filter { $0.type != "usage" } : markers).map { marker in
          [
            marker.at.rfc3339, marker.isLate ? marker.recorded.rfc3339 + " (+" + Self.delay(marker) + ")" : "",
            String(marker.line), marker.id, marker.type, marker.details,
          ]
        })
    if markers.isEmpty { out += "  (none known)\n" }
    if foldsUses { out += "  (\(uses) uses not listed: counted per day under USAGE; --format html lists them)\n" }
    for (kind, title) in Self.laneTitles {
      let selected = lanes.filter { $0.kind == kind }
      if kind == "ownership" && selected.isEmpty { continue }
      out += "\n" + title + "\n"
      if selected.isEmpty {
        out += "  (none)\n"
        continue
      }
      var rows = [[kind, "from", "to", "state", "product"]]
      for lane in selected {
        for segment in lane.segments {
          rows.append([lane.name, segment.from.rfc3339, segment.to?.rfc3339 ?? "…", segment.state, segment.product])
        }
      }
      out += Self.columns(rows)
    }
    if !usage.isEmpty {
      out += "\nUSAGE (per local day; limit of the tier reporting the feature at the day's last use)\n"
      var rows = [["feature", "day", "used", "limit", "tier"]]
      for (feature, days) in usage {
        rows += days.map {
          [feature, $0.date, String($0.used), $0.limit.map(String.init) ?? "-", $0.tier ?? "-"]
        }
      }
      out += Self.columns(rows)
    }
    if !balances.isEmpty {
      out += "\nBALANCES\n"
      var rows = [["currency", "from", "balance"]]
      for (currency, changes) in balances {
        rows += changes.map { [currency, $0.at.rfc3339, String($0.balance)] }
      }
      out += Self.columns(rows)
    }
    return out
  }

  /// The text's lane sections in order; ownership only when a transfer names the subject.
  static let laneTitles = [
    ("entitlement", "ENTITLEMENTS (access)"), ("subscription", "SUBSCRIPTIONS (state, by original transaction)"),
    ("ownership", "OWNERSHIP (who held a transferred unit, by its transaction)"),
  ]

  /// `4d 16h`, `5s`: how long after `at` the event was recorded.
  static func delay(_ marker: Marker) -> String {
    var seconds = (marker.recorded.millisecondsSinceEpoch - marker.at.millisecondsSinceEpoch) / 1000
    let days = seconds / 86_400
    seconds %= 86_400
    let hours = seconds / 3600
    seconds %= 3600
    var parts: [String] = []
    if days > 0 { parts.append("\(days)d") }
    if hours > 0 { parts.append("\(hours)h") }
    if days == 0 && seconds / 60 > 0 { parts.append("\(seconds / 60)m") }
    if days == 0 && hours == 0 && seconds % 60 > 0 { parts.append("\(seconds % 60)s") }
    return parts.isEmpty ? "<1s" : parts.joined(separator: " ")
  }

  /// Rows padded into aligned columns, indented by two spaces, the last column unpadded.
  private static func columns(_ unescaped: [[String]]) -> String {
    let rows = unescaped.map { $0.map { TerminalText.escaped($0) } }
    var widths: [Int] = []
    for row in rows {
      for (index, cell) in row.enumerated() {
        if index >= widths.count { widths.append(0) }
        widths[index] = max(widths[index], cell.count)
      }
    }
    var out = ""
    for row in rows {
      var line = " "
      for (index, cell) in row.enumerated() {
        line += " " + (index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count))
      }
      while line.last == " " { line.removeLast() }
      out += line + "\n"
    }
    return out
  }
}
